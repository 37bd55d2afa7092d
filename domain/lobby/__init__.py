"""The lobby lifecycle every game shares: create, take seats, start, play, finish.

A table wraps one game's state with what every game has around it: its seats, its options, its status
and its secret seed. Lobby events live in the same stream as the game's own events.

Rules versions: `GameCreated` records the rules version the game was created under (the newest of
the game handed to `create_game`), the table keeps it, and every function here plays the game under
it (`rules_of`), whichever version of the game the caller holds. So a game keeps being played, and is
always replayed, under the rules it started with, while new games get the newest.

The package's modules each hold one part: `events` (the lobby's events), `table` (the table and
what every function reads of it), `seeding` (chance and the seed's commitment), `options`, `folding`
(a table from its log), `seating` (creating a game, taking its seats and giving one back), `playing` (commands,
timeouts, resigning, abandoning), `results`, `bots`, `redaction` and `invitations`. Callers import
their names from `domain.lobby`.
"""

from kaiten.domain.lobby.bots import MAX_BOT_DECISIONS, BotsStuck, bot_choice, bot_command, next_bot_seat, run_bots
from kaiten.domain.lobby.events import (
    ACCESS_EVENTS,
    LOBBY_EVENTS,
    LONGEST_GAME_EVENTS,
    MAX_ACCESS_EVENTS,
    ChanceFrom,
    GameAbandoned,
    GameCreated,
    GameFinished,
    GameStarted,
    InvitationIssued,
    InvitationRevoked,
    SeatClaimed,
    SeatLeft,
    SeatResigned,
    SeatTaken,
    SeatTakenOver,
    Status,
    TurnTimedOut,
    Visibility,
)
from kaiten.domain.lobby.folding import evolve_table, replay
from kaiten.domain.lobby.invitations import check_access_room, claim_seat, invited, issue_invitation, revoke_invitation
from kaiten.domain.lobby.options import CLOCK_OPTION, parse_clock, parse_options, recorded_options
from kaiten.domain.lobby.playing import STAND_IN_BOT, abandon, act, default_command, resign, time_out
from kaiten.domain.lobby.redaction import redact
from kaiten.domain.lobby.results import leavers_last, table_result
from kaiten.domain.lobby.seating import create_game, leave_seat, seated, take_seat
from kaiten.domain.lobby.seeding import chance_key, commit_to_seed, rules_chance, seat_chance
from kaiten.domain.lobby.table import (
    Decision,
    Seat,
    Table,
    awaiting,
    is_over,
    next_seat,
    rules_of,
    seated_at,
    state_of,
)

__all__ = [
    "ACCESS_EVENTS",
    "CLOCK_OPTION",
    "LOBBY_EVENTS",
    "LONGEST_GAME_EVENTS",
    "MAX_ACCESS_EVENTS",
    "MAX_BOT_DECISIONS",
    "STAND_IN_BOT",
    "BotsStuck",
    "ChanceFrom",
    "Decision",
    "GameAbandoned",
    "GameCreated",
    "GameFinished",
    "GameStarted",
    "InvitationIssued",
    "InvitationRevoked",
    "Seat",
    "SeatClaimed",
    "SeatLeft",
    "SeatResigned",
    "SeatTaken",
    "SeatTakenOver",
    "Status",
    "Table",
    "TurnTimedOut",
    "Visibility",
    "abandon",
    "act",
    "awaiting",
    "bot_choice",
    "bot_command",
    "chance_key",
    "check_access_room",
    "claim_seat",
    "commit_to_seed",
    "create_game",
    "default_command",
    "evolve_table",
    "invited",
    "is_over",
    "issue_invitation",
    "leave_seat",
    "leavers_last",
    "next_bot_seat",
    "next_seat",
    "parse_clock",
    "parse_options",
    "recorded_options",
    "redact",
    "replay",
    "resign",
    "revoke_invitation",
    "rules_chance",
    "rules_of",
    "run_bots",
    "seat_chance",
    "seated",
    "seated_at",
    "state_of",
    "table_result",
    "take_seat",
    "time_out",
]
