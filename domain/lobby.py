"""The lobby lifecycle every game shares: create, take seats, start, play, finish.

A table wraps one game's state with what every game has around it: its seats, its options, its status
and its secret seed. Lobby events live in the same stream as the game's own events.

Rules versions: `GameCreated` records the rules version the game was created under (the newest of
the game handed to `create_game`), the table keeps it, and every function here plays the game under
it (`rules_of`), whichever version of the game the caller holds. So a game keeps being played, and is
always replayed, under the rules it started with, while new games get the newest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Generic, Literal

import msgspec

from domain.chance import Chance
from domain.clock import ClockOptions
from domain.engine import AnyGame, Bot, C, Decided, E, Game, NotNow, Result, RuleViolation, S, reads_view

Status = Literal["open", "active", "finished", "abandoned"]
#: A private game is not listed, and its seats are taken only with an invitation.
Visibility = Literal["public", "private"]
#: What a game's chance is seeded with (see `chance_key`): its seed alone (logs recorded before the
#: salt fed chance), or its seed and its secret salt together.
ChanceFrom = Literal["seed", "seed+salt"]
_replace = msgspec.structs.replace

#: The bot that plays for a seat whose time ran out, or whose person resigned.
STAND_IN_BOT = "greedy"
#: The key of `options` that every game takes, beside its own options (see `domain/clock.py`).
CLOCK_OPTION = "clock"


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
)
#: Lobby events that may come at any time before the end (they change who may sit or act, not the game).
ACCESS_EVENTS = (InvitationIssued, InvitationRevoked, SeatClaimed)
#: The most of them one game holds: people's requests, not the rules, make them, and a log must stay
#: bounded (an exported log imports again: services/logs.py).
MAX_ACCESS_EVENTS = 1000
#: More events than the longest game of the catalog makes, its lobby's aside (tests/unit/test_every_game.py
#: plays random games of every game and player count against it).
LONGEST_GAME_EVENTS = 500


class Seat(msgspec.Struct, frozen=True, omit_defaults=True):
    seat: int
    #: Only in logs recorded before people were references (see SeatTaken).
    name: str | None = None
    player_id: str | None = None
    bot: str | None = None
    #: The seat's person resigned (the seat ranks last).
    resigned: bool = False
    #: The bot that plays the seat since its person resigned.
    taken_over_by: str | None = None
    #: Who sits: a reference into the people kept beside the log (see SeatTaken).
    person: str | None = None
    guest: bool = False

    @property
    def player(self) -> str | None:
        """The bot that plays the seat now, if any (None: a person)."""
        return self.bot or self.taken_over_by


class Table(msgspec.Struct, Generic[S], frozen=True):
    """A game's table: the lobby's part (seats, status, seed) around the game's own state."""

    game: str
    players: int
    options: Any
    seed_commitment: str
    seed: int
    salt: str
    status: Status
    seats: tuple[Seat, ...]
    #: The game's state, from the moment the game starts (None while seats are open).
    state: S | None = None
    result: Result | None = None
    #: GameCreated's rules version: every table function plays the game under it (see `rules_of`).
    rules_version: int = 1
    visibility: Visibility = "public"
    #: The invitations not revoked: SHA-256 of their code by invitation id.
    invitations: Mapping[str, str] = msgspec.field(default_factory=dict)
    rematch_of: str | None = None
    #: The turn clock (None: no clock).
    clock: ClockOptions | None = None
    chance_from: ChanceFrom = "seed"
    chosen_deal: bool = False
    #: How many ACCESS_EVENTS the log holds.
    access_events: int = 0


class Decision(msgspec.Struct, Generic[S], frozen=True):
    """The events a command produced and the table they lead to (saves folding them twice)."""

    events: tuple[Any, ...]
    table: Table[S]


def state_of(table: Table[S]) -> S:
    """The game's state of a started table."""
    if table.state is None:
        raise NotNow("game-not-started", "the game starts when every seat is taken")
    return table.state


def commit_to_seed(seed: int, salt: bytes) -> str:
    """A commitment that hides the seed until it is revealed (API.md, "Fair shuffles").

    The salt, fresh for each game, is what keeps a small chosen seed from being found by trying
    seeds against the commitment.
    """
    return hashlib.sha256(salt + str(seed).encode("ascii")).hexdigest()


def chance_key(table: Table[Any]) -> int | str:
    """What the game's chance is seeded with. Since the salt feeds it (`seed+salt`), the seed and the
    secret salt together: nobody can deal a chosen seed's games offline and find the deal before the
    salt is revealed at the end, while seed and salt together reproduce the game exactly. Logs
    recorded before keep the seed alone, which dealt them."""
    if table.chance_from == "seed":
        return table.seed
    return hashlib.sha256(b"kaiten-chance:" + bytes.fromhex(table.salt) + str(table.seed).encode("ascii")).hexdigest()


def rules_chance(table: Table[Any], version: int) -> Chance:
    """The rules' chance for what is decided after `version` events (shuffles, draws, deals)."""
    return Chance(chance_key(table), version)


def seat_chance(table: Table[Any], version: int, seat: int) -> Chance:
    """A bot's own chance for its decision after `version` events: not the rules' stream, so a bot
    learns nothing about hidden cards from its own randomness."""
    return Chance(chance_key(table), version, "bot", seat)


def parse_options(game: AnyGame, options: Mapping[str, Any] | None, players: int) -> Any:
    """The game's own options (the clock, which every game takes, is `parse_clock`'s)."""
    own = {key: value for key, value in (options or {}).items() if key != CLOCK_OPTION}
    try:
        parsed = msgspec.convert(own, game.options_type)
    except msgspec.ValidationError as exc:
        raise RuleViolation("invalid-options", f"invalid options for {game.id}: {exc}") from None
    game.check_options(parsed, players)
    return parsed


def parse_clock(options: Mapping[str, Any] | None) -> ClockOptions | None:
    clock = (options or {}).get(CLOCK_OPTION)
    if clock is None:
        return None
    try:
        return msgspec.convert(clock, ClockOptions)
    except msgspec.ValidationError as exc:
        raise RuleViolation("invalid-options", f"invalid clock: {exc}") from None


def recorded_options(table: Table[Any]) -> dict[str, Any]:
    """The options as GameCreated recorded them: the game's own and the clock."""
    clocked = {} if table.clock is None else {CLOCK_OPTION: msgspec.to_builtins(table.clock)}
    return {**msgspec.to_builtins(table.options), **clocked}


def create_game(
    game: AnyGame,
    players: int,
    options: Mapping[str, Any] | None,
    seed: int,
    salt: bytes,
    visibility: Visibility = "public",
    rematch_of: str | None = None,
    chosen_deal: bool = False,
) -> list[Any]:
    """The new table's GameCreated: chance seeded by the seed and the salt together."""
    if not game.min_players <= players <= game.max_players:
        raise RuleViolation(
            "invalid-player-count",
            f"{game.name} takes {game.min_players} to {game.max_players} players, not {players}",
        )
    parsed = parse_options(game, options, players)
    clock = parse_clock(options)
    clocked = {} if clock is None else {CLOCK_OPTION: msgspec.to_builtins(clock)}
    return [
        GameCreated(
            game=game.id,
            players=players,
            options={**msgspec.to_builtins(parsed), **clocked},
            seed_commitment=commit_to_seed(seed, salt),
            seed=seed,
            salt=salt.hex(),
            rules_version=game.rules_version,
            visibility=visibility,
            rematch_of=rematch_of,
            chance_from="seed+salt",
            chosen_deal=chosen_deal,
        )
    ]


def rules_of(game: Game[S, C, E, Any], table: Table[S]) -> Game[S, C, E, Any]:
    """The game as the table's rules version plays it; any version of the game may be handed in."""
    return game if game.rules_version == table.rules_version else game.at_rules_version(table.rules_version)


def evolve_table(game: Game[S, C, E, Any], table: Table[S] | None, event: Any) -> Table[S]:
    if table is None:
        if not isinstance(event, GameCreated) or event.seed is None or event.salt is None:
            raise ValueError("a table's log starts with GameCreated carrying its seed and salt")
        own = {key: value for key, value in event.options.items() if key != CLOCK_OPTION}
        return Table(
            game=event.game,
            players=event.players,
            options=msgspec.convert(own, game.options_type),
            clock=parse_clock(event.options),
            seed_commitment=event.seed_commitment,
            seed=event.seed,
            salt=event.salt,
            status="open",
            seats=(),
            rules_version=event.rules_version,
            visibility=event.visibility,
            rematch_of=event.rematch_of,
            chance_from=event.chance_from,
            chosen_deal=event.chosen_deal,
        )
    if isinstance(event, SeatTaken):
        seat = Seat(
            seat=event.seat,
            name=event.name,
            player_id=event.player_id,
            bot=event.bot,
            person=event.person,
            guest=event.guest,
        )
        return msgspec.structs.replace(table, seats=(*table.seats, seat))
    if isinstance(event, GameStarted):
        state = rules_of(game, table).initial_state(table.options, table.players)
        return msgspec.structs.replace(table, status="active", state=state)
    if isinstance(event, GameFinished):
        return msgspec.structs.replace(table, status="finished", result=event.result)
    if isinstance(event, InvitationIssued):
        invitations = {**table.invitations, event.invitation_id: event.code_hash}
        return msgspec.structs.replace(table, invitations=invitations, access_events=table.access_events + 1)
    if isinstance(event, InvitationRevoked):
        kept = {key: value for key, value in table.invitations.items() if key != event.invitation_id}
        return msgspec.structs.replace(table, invitations=kept, access_events=table.access_events + 1)
    if isinstance(event, SeatClaimed):
        return msgspec.structs.replace(table, access_events=table.access_events + 1)
    if isinstance(event, TurnTimedOut):
        return table
    if isinstance(event, SeatResigned | SeatTakenOver):
        seats = list(table.seats)
        seat = seats[event.seat]
        if isinstance(event, SeatResigned):
            seats[event.seat] = msgspec.structs.replace(seat, resigned=True)
        else:
            seats[event.seat] = msgspec.structs.replace(seat, taken_over_by=event.bot)
        return msgspec.structs.replace(table, seats=tuple(seats))
    if isinstance(event, GameAbandoned):
        return msgspec.structs.replace(table, status="abandoned")
    return msgspec.structs.replace(table, state=rules_of(game, table).evolve(state_of(table), event))


def replay(game: Game[S, C, E, Any], events: Sequence[Any]) -> Table[S]:
    table: Table[S] | None = None
    for event in events:
        table = evolve_table(game, table, event)
    if table is None:
        raise ValueError("an empty log has no table")
    return table


def _fold(game: Game[S, C, E, Any], table: Table[S], events: Sequence[Any]) -> Table[S]:
    for event in events:
        table = evolve_table(game, table, event)
    return table


def _apply(table: Table[S], decided: Decided[E, S]) -> tuple[list[Any], Table[S]]:
    """The game's events and the table after them: the state the game folded them into."""
    return list(decided.events), msgspec.structs.replace(table, state=decided.state)


def take_seat(
    game: Game[S, C, E, Any],
    table: Table[S],
    chance: Chance,
    *,
    person: str | None = None,
    guest: bool = False,
    bot: str | None = None,
) -> Decision[S]:
    """The next seat, taken by a person (their reference) or a bot; the last one starts the game."""
    if (bot is None) == (person is None):
        raise RuleViolation("invalid-seat", "a seat is taken by a person or by a bot")
    return seated(
        game, table, SeatTaken(seat=len(table.seats), bot=bot, person=person, guest=guest and bot is None), chance
    )


def seated(game: Game[S, C, E, Any], table: Table[S], taken: SeatTaken, chance: Chance) -> Decision[S]:
    """The seat `taken` takes, and when it is the last one the game's start and deal."""
    game = rules_of(game, table)
    if table.status != "open" or len(table.seats) >= table.players:
        raise NotNow("game-full", "every seat of this game is taken")
    if taken.seat != len(table.seats):
        raise RuleViolation("invalid-seat", f"the next seat is {len(table.seats)}, not {taken.seat}")
    if taken.bot is not None and taken.bot not in game.bots:
        raise RuleViolation("unknown-bot", f"{game.name} has no bot {taken.bot!r}; try one of {sorted(game.bots)}")
    events: list[Any] = [taken]
    if len(table.seats) + 1 < table.players:
        return Decision(events=tuple(events), table=_fold(game, table, events))
    events.append(GameStarted())
    started = _fold(game, table, events)
    dealt, after = _apply(started, game.setup(table.options, table.players, chance))
    return Decision(events=(*events, *dealt), table=after)


def is_over(table: Table[Any]) -> bool:
    """Finished or abandoned: nothing more happens, and everything is public."""
    return table.status in ("finished", "abandoned")


def _check_playing(table: Table[Any]) -> None:
    if table.status == "open":
        raise NotNow("game-not-started", "the game starts when every seat is taken")
    if table.status == "finished":
        raise NotNow("game-finished", "the game is over")
    if table.status == "abandoned":
        raise NotNow("game-abandoned", "the game was abandoned")


def act(game: Game[S, C, E, Any], table: Table[S], seat: int, command: C, chance: Chance) -> Decision[S]:
    game = rules_of(game, table)
    _check_playing(table)
    if not 0 <= seat < table.players:
        raise RuleViolation("invalid-seat", f"there is no seat {seat}")
    state = state_of(table)
    if seat not in game.awaiting(state):
        raise NotNow("not-your-turn", f"the game is not waiting for seat {seat}")
    return _played(game, table, state, seat, command, chance)


def _played(game: Game[S, C, E, Any], table: Table[S], state: S, seat: int, command: C, chance: Chance) -> Decision[S]:
    """`act` once the table is known to await this seat (`game` is the table's rules version)."""
    decided = game.decide(state, seat, command, chance)
    after = _replace(table, state=decided.state)
    result = game.result(decided.state)
    if result is None:
        return Decision(events=decided.events, table=after)
    finished = GameFinished(result=leavers_last(result, after), seed=table.seed, salt=table.salt)
    return Decision(events=(*decided.events, finished), table=evolve_table(game, after, finished))


def table_result(game: Game[S, C, E, Any], table: Table[S]) -> Result | None:
    """The game's result once it is over, with the seats whose people resigned ranked last."""
    result = rules_of(game, table).result(state_of(table))
    return None if result is None else leavers_last(result, table)


def leavers_last(result: Result, table: Table[Any]) -> Result:
    """The result with the seats whose people resigned ranked last (among themselves by the game's
    ranking) and never winning; when the game's winners all left, the best ranked stayer wins."""
    left = {seat.seat for seat in table.seats if seat.resigned}
    if not left:
        return result
    stayed = tuple(s for s in result.ranking if s not in left)
    ranking = (*stayed, *(s for s in result.ranking if s in left))
    winners = tuple(s for s in result.winners if s not in left) or stayed[:1]
    return Result(scores=result.scores, winners=winners, ranking=ranking)


def time_out(
    game: Game[S, C, E, Any], table: Table[S], seat: int, at: str, chance: Chance, bot_chance: Chance
) -> Decision[S]:
    """The seat's time ran out at `at`: `TurnTimedOut`, then the move made for it (the greedy bot's,
    drawing from `bot_chance`, or with `on_timeout: "skip"` the game's default move, its first legal
    command); `chance` is the rules' for that move."""
    game = rules_of(game, table)
    if table.clock is None:
        raise ValueError("a game without a clock has no timeouts")
    _check_playing(table)
    if seat not in game.awaiting(state_of(table)):
        raise NotNow("not-your-turn", f"the game is not waiting for seat {seat}")
    timed_out = TurnTimedOut(seat=seat, at=at)
    if table.clock.on_timeout == "skip":
        command = default_command(game, table, seat)
    else:
        command = bot_command(game, table, seat, bot_chance, bot=STAND_IN_BOT)
    moved = act(game, table, seat, command, chance)
    return Decision(events=(timed_out, *moved.events), table=moved.table)


def default_command(game: Game[S, C, E, Any], table: Table[S], seat: int) -> C:
    """The game's default move for a seat: the first of its legal commands, in the game's order."""
    return rules_of(game, table).legal_commands(state_of(table), seat)[0]


def resign(game: Game[S, C, E, Any], table: Table[S], seat: int) -> Decision[S]:
    """The seat's person leaves: `SeatResigned`, then a bot takes the seat over to the end; when no
    person is left at the table, the game is abandoned instead."""
    _check_playing(table)
    if table.seats[seat].resigned:
        raise NotNow("seat-resigned", f"seat {seat} has already resigned")
    events: list[Any] = [SeatResigned(seat=seat)]
    people_left = [s for s in table.seats if s.player is None and s.seat != seat]
    if people_left:
        events.append(SeatTakenOver(seat=seat, bot=STAND_IN_BOT))
    else:
        events.append(GameAbandoned(reason="resigned", seed=table.seed, salt=table.salt))
    return Decision(events=tuple(events), table=_fold(game, table, events))


def abandon(game: Game[S, C, E, Any], table: Table[S]) -> Decision[S]:
    """Nobody moved for too long: the unfinished game is abandoned."""
    if is_over(table):
        raise NotNow("game-finished", "the game is over")
    events = [GameAbandoned(reason="inactive", seed=table.seed, salt=table.salt)]
    return Decision(events=tuple(events), table=_fold(game, table, events))


def awaiting(game: Game[S, C, E, Any], table: Table[S]) -> tuple[int, ...]:
    return rules_of(game, table).awaiting(state_of(table)) if table.status == "active" else ()


def next_bot_seat(game: Game[S, C, E, Any], table: Table[S]) -> int | None:
    """The lowest awaited seat that a bot holds, if any."""
    for seat in awaiting(game, table):
        if table.seats[seat].player is not None:
            return seat
    return None


def bot_command(game: Game[S, C, E, Any], table: Table[S], seat: int, chance: Chance, bot: str | None = None) -> C:
    """Ask the seat's bot (or the bot named), which sees only that seat's view and legal commands."""
    bot_name = bot or table.seats[seat].player
    assert bot_name is not None
    return bot_choice(game, table, seat, chance, rules_of(game, table).bots[bot_name]())


def bot_choice(game: Game[S, C, E, Any], table: Table[S], seat: int, chance: Chance, player: Bot) -> C:
    """Ask this bot (a game's own, or one from outside it such as a peer's search in a tournament) for
    the seat's command; it sees only that seat's view and legal commands (a bot that reads no view,
    see `domain.engine.reads_view`, is handed None: no view is built for it)."""
    game = rules_of(game, table)
    state = state_of(table)
    view = game.view(state, seat) if reads_view(player) else None
    command: C = player.choose(view, game.legal_commands(state, seat), chance)
    return command


def redact(game: Game[S, C, E, Any], table: Table[S], event: Any, seat: int | None) -> Any | None:
    """The event as a viewer may see it; everything is public once the game is over."""
    if is_over(table):
        return event
    if isinstance(event, GameCreated):
        return msgspec.structs.replace(event, seed=None, salt=None)
    if isinstance(event, LOBBY_EVENTS):
        return event
    return rules_of(game, table).redact(event, seat)


def issue_invitation(table: Table[Any], seat: int, invitation_id: str, code_hash: str) -> InvitationIssued:
    if is_over(table):
        raise NotNow("game-finished", "the game is over")
    check_access_room(table)
    return InvitationIssued(invitation_id=invitation_id, code_hash=code_hash, seat=seat)


def revoke_invitation(table: Table[Any], seat: int, invitation_id: str) -> InvitationRevoked:
    if invitation_id not in table.invitations:
        raise RuleViolation("unknown-invitation", "this game has no such invitation (or it was revoked)")
    if is_over(table):
        raise NotNow("game-finished", "the game is over")
    check_access_room(table)
    return InvitationRevoked(invitation_id=invitation_id, seat=seat)


def claim_seat(table: Table[Any], seat: int) -> SeatClaimed:
    """A person takes their seat of a rematch again, with a new token."""
    if is_over(table):
        raise NotNow("game-finished", "the rematch is over already")
    check_access_room(table)
    return SeatClaimed(seat=seat)


def check_access_room(table: Table[Any]) -> None:
    if table.access_events >= MAX_ACCESS_EVENTS:
        raise NotNow(
            "too-many-lobby-events",
            f"this game holds {MAX_ACCESS_EVENTS} invitations, revocations and claimed seats: no game holds more",
        )


def invited(table: Table[Any], code_hash: str | None) -> bool:
    """Whether a seat may be taken with this invitation: any, in a public game."""
    return table.visibility == "public" or (code_hash is not None and code_hash in table.invitations.values())


class BotsStuck(RuntimeError):
    """Bots kept playing past any game's length: a bug in a game or a bot, never a rule."""


#: Far more decisions than any game of the family takes.
MAX_BOT_DECISIONS = 100_000


def run_bots(
    game: Game[S, C, E, Any],
    table: Table[S],
    version: int,
    choosing: Callable[[int, int], Chance] | None = None,
    max_decisions: int = MAX_BOT_DECISIONS,
    ask: Callable[[Game[S, C, E, Any], Table[S], int, Chance], C] = bot_command,
) -> Decision[S]:
    """Let bot seats play while the game awaits one of them; `version` is the log's length so far.

    By default each bot draws from its own stream (`seat_chance`), which is not the one the rules draw
    shuffles from, so a bot learns nothing about hidden cards from its own randomness;
    `choosing(version, seat)` may give another (the simulator keeps one generator per game).
    `ask(game, table, seat, chance)` answers a bot seat's command (the tournament wraps it to time
    each bot's decisions).
    """
    # Everything but the state is the table's for the whole run, so it is looked up once: the rules
    # version and its functions, the seats' bots, the chance key (a hash).
    game = rules_of(game, table)
    players = [seat.player for seat in table.seats]
    key = chance_key(table)
    awaited = game.awaiting
    decide = game.decide
    result_of = game.result
    # `bot_command` inline: the seat's bot, built afresh for each decision, sees its view (when it reads
    # one) and its legal commands.
    bots = game.bots if ask is bot_command else None
    legal_commands = game.legal_commands
    view = game.view
    events: list[Any] = []
    if table.status != "active":
        return Decision(events=(), table=table)
    state = state_of(table)
    # The table is built again from the state only when someone reads it: `ask`, the end, the result.
    behind = False
    at = version
    for _ in range(max_decisions):
        for seat in awaited(state):
            if players[seat] is not None:
                break
        else:
            break
        chance = Chance(key, at, "bot", seat) if choosing is None else choosing(at, seat)
        if bots is None:
            if behind:
                table = _replace(table, state=state)
                behind = False
            command = ask(game, table, seat, chance)
        else:
            player = bots[players[seat]]()  # type: ignore[index]
            command = player.choose(
                view(state, seat) if getattr(player, "reads_view", True) is not False else None,
                legal_commands(state, seat),
                chance,
            )
        # `_played` inline.
        decided = decide(state, seat, command, Chance(key, at))
        state = decided.state
        behind = True
        events.extend(decided.events)
        at = version + len(events)
        result = result_of(state)
        if result is not None:
            table = _replace(table, state=state)
            behind = False
            finished = GameFinished(result=leavers_last(result, table), seed=table.seed, salt=table.salt)
            events.append(finished)
            table = evolve_table(game, table, finished)
            if table.status != "active":
                break
            state = state_of(table)
    else:
        raise BotsStuck(f"{game.id}: bots still playing after {max_decisions} decisions")
    if behind:
        table = _replace(table, state=state)
    return Decision(events=tuple(events), table=table)
