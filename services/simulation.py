"""Play whole games in-process, bots in every seat, through the lobby table (create, seat, act).

Generic over every game of the catalog. Games are streamed: each game's log is counted and dropped,
so memory does not grow with the number of games. The same seed gives the same results.

Chance: game `g` gets its own seed from a generator seeded with the run's seed; the rules draw from
`Chance(game_seed, version)` with `version` the number of events so far (as the service does), and
the bots from one generator per game, seeded apart from the rules' stream.

Wins: every winner of a game counts one win for its bot, so a shared victory counts for each seat
that shares it; `win_rate` is wins per seat played, so 1 / players is an even share.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from kaiten.domain.catalog import get_game
from kaiten.domain.chance import Chance
from kaiten.domain.engine import AnyGame, RuleViolation
from kaiten.domain.lobby import BotsStuck, Table, bot_command, create_game, evolve_table, run_bots, take_seat
from kaiten.services.ports import BotRegistry


class BotStats(msgspec.Struct, frozen=True):
    #: Seats this bot played (games x its seats per game).
    seats: int
    wins: int
    win_rate: float
    mean_score: float


class SimulationReport(msgspec.Struct, frozen=True):
    game: str
    players: int
    bots: tuple[str, ...]
    seed: int
    games: int
    seconds: float
    games_per_second: float
    events: int
    #: Commands the bots sent (one per bot decision).
    decisions: int
    #: Games with more than one winner.
    shared_wins: int
    #: Per bot name.
    wins: dict[str, int]
    mean_score: dict[str, float]
    win_rate: dict[str, float]
    per_bot: dict[str, BotStats]


class SimulationError(Exception):
    """A game stopped waiting on a seat no bot holds, or ran past its bound."""


class _OneGenerator:
    """Every bot of a game draws from one generator, which costs nothing to set up per decision; it is
    asked once per bot decision, so it counts them."""

    __slots__ = ("chance", "decisions")

    def __init__(self) -> None:
        self.chance = Chance(0)
        self.decisions = 0

    def __call__(self, _version: int, _seat: int) -> Chance:
        self.decisions += 1
        return self.chance


def game_seeds(seed: int, games: int) -> Iterator[int]:
    """Each game's own seed, drawn one at a time (nothing grows with the number of games)."""
    rng = random.Random(seed)
    for _ in range(games):
        yield rng.getrandbits(63)


def play_game(
    game: AnyGame,
    seat_bots: Sequence[str],
    game_seed: int,
    max_decisions: int = 100_000,
    ask: Callable[[AnyGame, Table[Any], int, Chance], Any] = bot_command,
    bots: _OneGenerator | None = None,
) -> tuple[Table[Any], int]:
    """One game from its creation to its end, seat i played by `seat_bots[i]`: the finished table and
    the length of its log. `ask` answers each bot's command (see `domain.lobby.run_bots`); `bots` is
    the generator the bots draw from (one that counts a run's decisions)."""
    # Nobody sees a simulated game's commitment: the salt only has to be the same every run.
    log = create_game(game, len(seat_bots), None, game_seed, salt=b"")
    table = evolve_table(game, None, log[0])
    version = len(log)
    for bot in seat_bots:
        decision = take_seat(game, table, Chance(game_seed, version), bot=bot)
        table = decision.table
        version += len(decision.events)
    bots = bots or _OneGenerator()
    bots.chance = Chance.from_rng(random.Random(f"{game_seed}:bots"))
    try:
        played = run_bots(game, table, version, bots, max_decisions, ask)
    except BotsStuck as stuck:
        raise SimulationError(f"{game.id} game with seed {game_seed} cannot finish: {stuck}") from None
    if played.table.status != "finished":
        raise SimulationError(f"{game.id} game with seed {game_seed} waits on a seat no bot holds")
    return played.table, version + len(played.events)


def check_bots(game: AnyGame, bots: Sequence[str], peers: BotRegistry | None = None) -> None:
    """Raise RuleViolation unless `bots` names at least one bot and only bots of this game (or of `peers`)."""
    if not bots:
        raise RuleViolation("unknown-bot", "name at least one bot")
    for bot in bots:
        if bot not in game.bots and (peers is None or peers.bot(game, bot) is None):
            known = [*sorted(game.bots), *(peers.names() if peers is not None else ())]
            raise RuleViolation("unknown-bot", f"{game.name} has no bot {bot!r}; try one of {known}")


def simulate(
    game_id: str,
    players: int,
    games: int,
    bots: Sequence[str],
    seed: int = 0,
    *,
    progress: Callable[[int], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    max_decisions: int = 100_000,
) -> SimulationReport:
    """Play `games` games of `players` seats; seat i is played by `bots[i % len(bots)]`.

    `progress(done)` is called after each game. Raises RuleViolation for an unknown game or bot
    or a bad player count, SimulationError when a game cannot finish.
    """
    game = get_game(game_id)
    check_bots(game, bots)
    seat_bots = [bots[seat % len(bots)] for seat in range(players)]
    names = tuple(dict.fromkeys(bots))
    wins = dict.fromkeys(names, 0)
    points = dict.fromkeys(names, 0)
    seats = dict.fromkeys(names, 0)
    shared = 0
    events = 0
    bot_chance = _OneGenerator()
    started = clock()
    for done, game_seed in enumerate(game_seeds(seed, games), start=1):
        table, version = play_game(game, seat_bots, game_seed, max_decisions, bots=bot_chance)
        result = table.result
        assert result is not None
        events += version
        if len(result.winners) > 1:
            shared += 1
        for winner in result.winners:
            wins[seat_bots[winner]] += 1
        for score in result.scores:
            points[seat_bots[score.seat]] += score.total
            seats[seat_bots[score.seat]] += 1
        if progress is not None:
            progress(done)
    seconds = clock() - started
    per_bot = {
        name: BotStats(
            seats=seats[name],
            wins=wins[name],
            win_rate=wins[name] / seats[name] if seats[name] else 0.0,
            mean_score=points[name] / seats[name] if seats[name] else 0.0,
        )
        for name in names
    }
    return SimulationReport(
        game=game_id,
        players=players,
        bots=tuple(bots),
        seed=seed,
        games=games,
        seconds=seconds,
        games_per_second=games / seconds if seconds > 0 else 0.0,
        events=events,
        decisions=bot_chance.decisions,
        shared_wins=shared,
        wins=wins,
        mean_score={name: stats.mean_score for name, stats in per_bot.items()},
        win_rate={name: stats.win_rate for name, stats in per_bot.items()},
        per_bot=per_bot,
    )
