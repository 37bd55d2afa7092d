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
from domain.engine import AnyGame, C, Decided, E, Game, NotNow, Result, RuleViolation, S

Status = Literal["open", "active", "finished"]
#: A private game is not listed, and its seats are taken only with an invitation.
Visibility = Literal["public", "private"]


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


class SeatTaken(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    seat: int
    name: str | None
    player_id: str | None
    bot: str | None


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


LOBBY_EVENTS: tuple[type[msgspec.Struct], ...] = (
    GameCreated,
    SeatTaken,
    GameStarted,
    GameFinished,
    InvitationIssued,
    InvitationRevoked,
    SeatClaimed,
)
#: Lobby events that may come at any time before the end (they change who may sit or act, not the game).
ACCESS_EVENTS = (InvitationIssued, InvitationRevoked, SeatClaimed)


class Seat(msgspec.Struct, frozen=True):
    seat: int
    name: str | None
    player_id: str | None
    bot: str | None


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
    seeds; it never feeds chance, so a chosen seed deals the same whatever the salt.
    """
    return hashlib.sha256(salt + str(seed).encode("ascii")).hexdigest()


def parse_options(game: AnyGame, options: Mapping[str, Any] | None, players: int) -> Any:
    try:
        parsed = msgspec.convert(dict(options or {}), game.options_type)
    except msgspec.ValidationError as exc:
        raise RuleViolation("invalid-options", f"invalid options for {game.id}: {exc}") from None
    game.check_options(parsed, players)
    return parsed


def create_game(
    game: AnyGame,
    players: int,
    options: Mapping[str, Any] | None,
    seed: int,
    salt: bytes,
    visibility: Visibility = "public",
    rematch_of: str | None = None,
) -> list[Any]:
    if not game.min_players <= players <= game.max_players:
        raise RuleViolation(
            "invalid-player-count",
            f"{game.name} takes {game.min_players} to {game.max_players} players, not {players}",
        )
    parsed = parse_options(game, options, players)
    return [
        GameCreated(
            game=game.id,
            players=players,
            options=msgspec.to_builtins(parsed),
            seed_commitment=commit_to_seed(seed, salt),
            seed=seed,
            salt=salt.hex(),
            rules_version=game.rules_version,
            visibility=visibility,
            rematch_of=rematch_of,
        )
    ]


def rules_of(game: Game[S, C, E, Any], table: Table[S]) -> Game[S, C, E, Any]:
    """The game as the table's rules version plays it; any version of the game may be handed in."""
    return game if game.rules_version == table.rules_version else game.at_rules_version(table.rules_version)


def evolve_table(game: Game[S, C, E, Any], table: Table[S] | None, event: Any) -> Table[S]:
    if table is None:
        if not isinstance(event, GameCreated) or event.seed is None or event.salt is None:
            raise ValueError("a table's log starts with GameCreated carrying its seed and salt")
        return Table(
            game=event.game,
            players=event.players,
            options=msgspec.convert(event.options, game.options_type),
            seed_commitment=event.seed_commitment,
            seed=event.seed,
            salt=event.salt,
            status="open",
            seats=(),
            rules_version=event.rules_version,
            visibility=event.visibility,
            rematch_of=event.rematch_of,
        )
    if isinstance(event, SeatTaken):
        seat = Seat(seat=event.seat, name=event.name, player_id=event.player_id, bot=event.bot)
        return msgspec.structs.replace(table, seats=(*table.seats, seat))
    if isinstance(event, GameStarted):
        state = rules_of(game, table).initial_state(table.options, table.players)
        return msgspec.structs.replace(table, status="active", state=state)
    if isinstance(event, GameFinished):
        return msgspec.structs.replace(table, status="finished", result=event.result)
    if isinstance(event, InvitationIssued):
        return msgspec.structs.replace(table, invitations={**table.invitations, event.invitation_id: event.code_hash})
    if isinstance(event, InvitationRevoked):
        kept = {key: value for key, value in table.invitations.items() if key != event.invitation_id}
        return msgspec.structs.replace(table, invitations=kept)
    if isinstance(event, SeatClaimed):
        return table
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
    name: str | None = None,
    player_id: str | None = None,
    bot: str | None = None,
) -> Decision[S]:
    game = rules_of(game, table)
    if table.status != "open" or len(table.seats) >= table.players:
        raise NotNow("game-full", "every seat of this game is taken")
    if bot is not None and bot not in game.bots:
        raise RuleViolation("unknown-bot", f"{game.name} has no bot {bot!r}; try one of {sorted(game.bots)}")
    if bot is None and not name:
        raise RuleViolation("invalid-seat", "a human seat needs a name")
    events: list[Any] = [SeatTaken(seat=len(table.seats), name=name, player_id=player_id, bot=bot)]
    if len(table.seats) + 1 < table.players:
        return Decision(events=tuple(events), table=_fold(game, table, events))
    events.append(GameStarted())
    started = _fold(game, table, events)
    dealt, after = _apply(started, game.setup(table.options, table.players, chance))
    return Decision(events=(*events, *dealt), table=after)


def act(game: Game[S, C, E, Any], table: Table[S], seat: int, command: C, chance: Chance) -> Decision[S]:
    game = rules_of(game, table)
    if table.status == "open":
        raise NotNow("game-not-started", "the game starts when every seat is taken")
    if table.status == "finished":
        raise NotNow("game-finished", "the game is over")
    if not 0 <= seat < table.players:
        raise RuleViolation("invalid-seat", f"there is no seat {seat}")
    state = state_of(table)
    if seat not in game.awaiting(state):
        raise NotNow("not-your-turn", f"the game is not waiting for seat {seat}")
    events, after = _apply(table, game.decide(state, seat, command, chance))
    result = game.result(state_of(after))
    if result is not None:
        finished = GameFinished(result=result, seed=table.seed, salt=table.salt)
        events.append(finished)
        after = evolve_table(game, after, finished)
    return Decision(events=tuple(events), table=after)


def awaiting(game: Game[S, C, E, Any], table: Table[S]) -> tuple[int, ...]:
    return rules_of(game, table).awaiting(state_of(table)) if table.status == "active" else ()


def next_bot_seat(game: Game[S, C, E, Any], table: Table[S]) -> int | None:
    """The lowest awaited seat that a bot holds, if any."""
    for seat in awaiting(game, table):
        if table.seats[seat].bot is not None:
            return seat
    return None


def bot_command(game: Game[S, C, E, Any], table: Table[S], seat: int, chance: Chance) -> C:
    """Ask the seat's bot, which sees only that seat's view and legal commands."""
    bot_name = table.seats[seat].bot
    assert bot_name is not None
    game = rules_of(game, table)
    bot = game.bots[bot_name]()
    state = state_of(table)
    command: C = bot.choose(game.view(state, seat), game.legal_commands(state, seat), chance)
    return command


def redact(game: Game[S, C, E, Any], table: Table[S], event: Any, seat: int | None) -> Any | None:
    """The event as a viewer may see it; everything is public once the game is over."""
    if table.status == "finished":
        return event
    if isinstance(event, GameCreated):
        return msgspec.structs.replace(event, seed=None, salt=None)
    if isinstance(event, LOBBY_EVENTS):
        return event
    return rules_of(game, table).redact(event, seat)


def issue_invitation(table: Table[Any], seat: int, invitation_id: str, code_hash: str) -> InvitationIssued:
    if table.status == "finished":
        raise NotNow("game-finished", "the game is over")
    return InvitationIssued(invitation_id=invitation_id, code_hash=code_hash, seat=seat)


def revoke_invitation(table: Table[Any], seat: int, invitation_id: str) -> InvitationRevoked:
    if invitation_id not in table.invitations:
        raise RuleViolation("unknown-invitation", "this game has no such invitation (or it was revoked)")
    if table.status == "finished":
        raise NotNow("game-finished", "the game is over")
    return InvitationRevoked(invitation_id=invitation_id, seat=seat)


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
    bot_chance: Callable[[int, int], Chance] | None = None,
    max_decisions: int = MAX_BOT_DECISIONS,
    ask: Callable[[Game[S, C, E, Any], Table[S], int, Chance], C] = bot_command,
) -> Decision[S]:
    """Let bot seats play while the game awaits one of them; `version` is the log's length so far.

    By default each bot draws from its own (seed, version, seat) stream, which is not the one the
    rules draw shuffles from, so a bot learns nothing about hidden cards from its own randomness;
    `bot_chance(version, seat)` may give another (the simulator keeps one generator per game).
    `ask(game, table, seat, chance)` answers a bot seat's command (the tournament wraps it to time
    each bot's decisions).
    """
    events: list[Any] = []
    for _ in range(max_decisions):
        seat = next_bot_seat(game, table)
        if seat is None:
            return Decision(events=tuple(events), table=table)
        at = version + len(events)
        chance = Chance(table.seed, at, "bot", seat) if bot_chance is None else bot_chance(at, seat)
        command = ask(game, table, seat, chance)
        decision = act(game, table, seat, command, Chance(table.seed, at))
        events.extend(decision.events)
        table = decision.table
    raise BotsStuck(f"{game.id}: bots still playing after {max_decisions} decisions")
