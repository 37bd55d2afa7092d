"""The lobby's events: what happens around every game (created, seats taken, started, finished,
timed out, resigned, abandoned, invitations), in the same stream as the game's own events."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from kaiten.domain.engine import Result

Status = Literal["open", "active", "finished", "abandoned"]
#: A private game is not listed, and its seats are taken only with an invitation.
Visibility = Literal["public", "private"]
#: What a game's chance is seeded with (see `chance_key`): its seed alone (logs recorded before the
#: salt fed chance), or its seed and its secret salt together.
ChanceFrom = Literal["seed", "seed+salt"]


class GameCreated(msgspec.Struct, frozen=True, tag=True, tag_field="type", omit_defaults=True):
    """A new table. The fields with defaults came later and are left out at their defaults, so a
    public game that is no rematch is recorded and shown as before they existed."""

    game: str
    players: int
    #: The game's options, as its `options_type` (the API shows them typed as such).
    options: Annotated[dict[str, Any], msgspec.Meta(extra={"options": True})]
    #: `commit_to_seed(seed, salt)`: shown from the start, so the revealed seed can be checked later.
    seed_commitment: str
    #: Secret while the game runs (either would reveal every hand): redacted to None for every viewer
    #: until the game finishes. The salt is hex; an empty salt marks a log from before salting.
    seed: int | None
    salt: str | None
    #: The rules version the game is played and replayed under (a log from before versions: 1).
    rules_version: int
    visibility: Visibility = "public"
    #: The finished game this one is the rematch of.
    rematch_of: str | None = None
    #: What chance is seeded with: the seed and the salt together since they both feed it (a log
    #: recorded before says nothing: the seed alone).
    chance_from: ChanceFrom = "seed"
    #: Its creator chose the deal (the seed and the salt): such a game reproduces a known deal
    #: (tests, puzzles, a published tournament deal) and counts in no statistics and no rating.
    chosen_deal: bool = False


class SeatTaken(msgspec.Struct, frozen=True, tag=True, tag_field="type", omit_defaults=True):
    """A seat taken by a person or a bot.

    A person is an opaque reference (`person`) into the people kept beside the log, which hold the
    name and the app's player_id: personal data stays out of the log, and erasing a person's row
    erases them from every game while the logs replay as before. `guest`: a person the app named no
    player_id for (their reference is this seat's alone, and they are never rated). Logs recorded
    before references hold `name` and `player_id` here instead.
    """

    seat: int
    name: str | None = None
    player_id: str | None = None
    bot: str | None = None
    person: str | None = None
    guest: bool = False


class GameStarted(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    pass


class GameFinished(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    result: Result
    #: The seed and salt revealed: anyone can check them against GameCreated's commitment.
    seed: int
    salt: str


class InvitationIssued(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    """A seated person invited others to a private game: the code (kept only as its SHA-256) takes
    any free seat until it is revoked."""

    invitation_id: str
    code_hash: str
    #: Who issued it.
    seat: int


class InvitationRevoked(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    invitation_id: str
    seat: int


class SeatClaimed(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    """A person took their seat of a rematch with a new token (its hash is in the metadata), by
    showing the token of their seat in the game before."""

    seat: int


class SeatLeft(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    """A person gave back their seat before the game started: the seat is free again (the next
    person seated takes the lowest free seat), and the token that held it holds nothing any more."""

    seat: int


class TurnTimedOut(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    """The seat's time ran out; the events of the move made for it follow."""

    seat: int
    #: When the server fired the deadline, RFC 3339 UTC: its clock's time, a fact to the domain,
    #: which reads no clock.
    at: Annotated[str, msgspec.Meta(extra_json_schema={"format": "date-time"})]


class SeatResigned(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    """The seat's person left the game: whatever its score, the seat ranks last."""

    seat: int


class SeatTakenOver(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    """A bot plays the resigned seat from now on, to the end of the game."""

    seat: int
    bot: str


class GameAbandoned(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    """The game ends unfinished: every person resigned, or nobody moved for too long."""

    reason: Literal["resigned", "inactive"]
    #: The seed and salt revealed, as at the end of a finished game.
    seed: int
    salt: str


LOBBY_EVENTS: tuple[type[msgspec.Struct], ...] = (
    GameCreated,
    SeatTaken,
    GameStarted,
    GameFinished,
    TurnTimedOut,
    SeatResigned,
    SeatTakenOver,
    GameAbandoned,
    InvitationIssued,
    InvitationRevoked,
    SeatClaimed,
    SeatLeft,
)
#: Lobby events that may come at any time before the end (they change who may sit or act, not the game).
ACCESS_EVENTS = (InvitationIssued, InvitationRevoked, SeatClaimed)
#: The most of them one game holds (a SeatLeft counts twice: the seat it frees may be taken again):
#: people's requests, not the rules, make them, and a log must stay bounded (an exported log imports
#: again: services/logs.py).
MAX_ACCESS_EVENTS = 1000
#: More events than the longest game of the catalog makes, its lobby's aside (tests/unit/test_every_game.py
#: plays random games of every game and player count against it).
LONGEST_GAME_EVENTS = 500
