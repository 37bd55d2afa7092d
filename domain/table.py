"""The lobby lifecycle every game shares: create, take seats, start, play, finish.

A table wraps one game's state with what every game has around it: its seats, its options, its status
and its secret seed. Lobby events live in the same stream as the game's own events.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import msgspec

from domain.chance import Chance
from domain.engine import Decided, Game, Result, RuleViolation

Status = Literal["open", "active", "finished"]


class GameCreated(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    game: str
    players: int
    options: dict[str, Any]
    seed_hash: str
    #: Secret while the game runs: redacted to None for every viewer until the game finishes.
    seed: int | None


class SeatTaken(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    seat: int
    name: str | None
    player_id: str | None
    bot: str | None


class GameStarted(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    pass


class GameFinished(msgspec.Struct, frozen=True, tag=True, tag_field="type"):
    result: Result
    seed: int


LOBBY_EVENTS: tuple[type[msgspec.Struct], ...] = (GameCreated, SeatTaken, GameStarted, GameFinished)


class Seat(msgspec.Struct, frozen=True):
    seat: int
    name: str | None
    player_id: str | None
    bot: str | None


class Table(msgspec.Struct, frozen=True):
    game: str
    players: int
    options: Any
    seed_hash: str
    seed: int
    status: Status
    seats: tuple[Seat, ...]
    state: Any = None
    result: Result | None = None


class Decision(msgspec.Struct, frozen=True):
    """The events a command produced and the table they lead to (saves folding them twice)."""

    events: tuple[Any, ...]
    table: Table


def hash_seed(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


def parse_options(game: Game, options: Mapping[str, Any] | None, players: int) -> Any:
    try:
        parsed = msgspec.convert(dict(options or {}), game.options_type)
    except msgspec.ValidationError as exc:
        raise RuleViolation("invalid-options", f"invalid options for {game.id}: {exc}") from None
    game.check_options(parsed, players)
    return parsed


def create_game(game: Game, players: int, options: Mapping[str, Any] | None, seed: int) -> list[Any]:
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
            seed_hash=hash_seed(seed),
            seed=seed,
        )
    ]


def evolve_table(game: Game, table: Table | None, event: Any) -> Table:
    if table is None:
        if not isinstance(event, GameCreated) or event.seed is None:
            raise ValueError("a table's log starts with GameCreated carrying its seed")
        return Table(
            game=event.game,
            players=event.players,
            options=msgspec.convert(event.options, game.options_type),
            seed_hash=event.seed_hash,
            seed=event.seed,
            status="open",
            seats=(),
        )
    if isinstance(event, SeatTaken):
        seat = Seat(seat=event.seat, name=event.name, player_id=event.player_id, bot=event.bot)
        return msgspec.structs.replace(table, seats=(*table.seats, seat))
    if isinstance(event, GameStarted):
        return msgspec.structs.replace(table, status="active", state=game.initial_state(table.options, table.players))
    if isinstance(event, GameFinished):
        return msgspec.structs.replace(table, status="finished", result=event.result)
    return msgspec.structs.replace(table, state=game.evolve(table.state, event))


def replay(game: Game, events: Sequence[Any]) -> Table:
    table: Table | None = None
    for event in events:
        table = evolve_table(game, table, event)
    if table is None:
        raise ValueError("an empty log has no table")
    return table


def _fold(game: Game, table: Table, events: Sequence[Any]) -> Table:
    for event in events:
        table = evolve_table(game, table, event)
    return table


def _apply(game: Game, table: Table, decided: Sequence[Any] | Decided) -> tuple[list[Any], Table]:
    """The game's events and the table after them, folding only what the game did not fold."""
    if isinstance(decided, Decided):
        return list(decided.events), msgspec.structs.replace(table, state=decided.state)
    return list(decided), _fold(game, table, decided)


def take_seat(
    game: Game,
    table: Table,
    chance: Chance,
    *,
    name: str | None = None,
    player_id: str | None = None,
    bot: str | None = None,
) -> Decision:
    if table.status != "open" or len(table.seats) >= table.players:
        raise RuleViolation("game-full", "every seat of this game is taken")
    if bot is not None and bot not in game.bots:
        raise RuleViolation("unknown-bot", f"{game.name} has no bot {bot!r}; try one of {sorted(game.bots)}")
    if bot is None and not name:
        raise RuleViolation("invalid-seat", "a human seat needs a name")
    events: list[Any] = [SeatTaken(seat=len(table.seats), name=name, player_id=player_id, bot=bot)]
    if len(table.seats) + 1 < table.players:
        return Decision(events=tuple(events), table=_fold(game, table, events))
    events.append(GameStarted())
    started = _fold(game, table, events)
    dealt, after = _apply(game, started, game.setup(table.options, table.players, chance))
    return Decision(events=(*events, *dealt), table=after)


def act(game: Game, table: Table, seat: int, command: Any, chance: Chance) -> Decision:
    if table.status == "open":
        raise RuleViolation("game-not-started", "the game starts when every seat is taken")
    if table.status == "finished":
        raise RuleViolation("game-finished", "the game is over")
    if not 0 <= seat < table.players:
        raise RuleViolation("invalid-seat", f"there is no seat {seat}")
    if seat not in game.awaiting(table.state):
        raise RuleViolation("not-your-turn", f"the game is not waiting for seat {seat}")
    events, after = _apply(game, table, game.decide(table.state, seat, command, chance))
    result = game.result(after.state)
    if result is not None:
        finished = GameFinished(result=result, seed=table.seed)
        events.append(finished)
        after = evolve_table(game, after, finished)
    return Decision(events=tuple(events), table=after)


def awaiting(game: Game, table: Table) -> tuple[int, ...]:
    return game.awaiting(table.state) if table.status == "active" else ()


def next_bot_seat(game: Game, table: Table) -> int | None:
    """The lowest awaited seat that a bot holds, if any."""
    for seat in awaiting(game, table):
        if table.seats[seat].bot is not None:
            return seat
    return None


def bot_command(game: Game, table: Table, seat: int, chance: Chance) -> Any:
    """Ask the seat's bot, which sees only that seat's view and legal commands."""
    bot_name = table.seats[seat].bot
    assert bot_name is not None
    bot = game.bots[bot_name]()
    return bot.choose(game.view(table.state, seat), game.legal_commands(table.state, seat), chance)


def redact(game: Game, table: Table, event: Any, seat: int | None) -> Any | None:
    """The event as a viewer may see it; everything is public once the game is over."""
    if table.status == "finished":
        return event
    if isinstance(event, GameCreated):
        return msgspec.structs.replace(event, seed=None)
    if isinstance(event, LOBBY_EVENTS):
        return event
    return game.redact(event, seat)


class BotsStuck(RuntimeError):
    """Bots kept playing past any game's length: a bug in a game or a bot, never a rule."""


#: Far more decisions than any game of the family takes.
MAX_BOT_DECISIONS = 100_000


def run_bots(
    game: Game,
    table: Table,
    version: int,
    bot_chance: Callable[[int, int], Chance] | None = None,
    max_decisions: int = MAX_BOT_DECISIONS,
    ask: Callable[[Game, Table, int, Chance], Any] = bot_command,
) -> Decision:
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
