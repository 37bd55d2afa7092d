"""Bot budgets: each bot's CPU milliseconds per decision, p50 and p99, beside the catalog's figure.

For every game and every player count it takes, the positions a seat meets in games of greedy bots
(`--games` of them) are decided by each bot of `--bots` (by default all four levels). A position
counts when the seat has a choice: two moves or more (a search plays a forced move without
searching). Each decision is timed with `time.process_time` (CPU time: on a shared machine the wall
clock would also count the other work), and each row prints its p50 and p99, the figure the catalog
states for that bot and player count (the game's `bot_costs`, the median as measured), and p99 /
catalog (target: at most 1.5), with the one-minute load average beside it. For the search bots it
also prints iterations and simulated decisions per CPU second (the budget's unit). It ends with the
rows whose p99 is over 1.5 times the catalog's figure, each saying whether its tail is over (p99 over
1.5 times its own p50: decisions dearer than the budget counts) or its median (the whole row is dearer:
a machine busier or slower than the reference, where CPU time stretches too, or dearer code).

`mcts` decides every `--every`-th of those positions, `mcts:strong` every `--strong-every`-th (it is
five times as dear), both counted back from the game's last choice, so the end of a game (where a
decision's cost used to climb) is always among them, and a smaller stride where a row would decide
fewer than `--at-least` positions; `random` and `greedy` decide them all (each a hundred times in one
timing: a call of the clock costs as much as such a decision). With `--passes n` every position is
decided once in each of n passes and the fastest counts: other work on a shared machine comes in
bursts of seconds, which then slow one pass of a position rather than every one. `--emit` ends with
each game's `bot_costs` as measured, to paste into its `game.py`, and BOTS.md's table of them.

    .venv/bin/python -m bench.mcts [--game sushi-go,...] [--players 2,5] [--bots mcts,mcts:strong]
                                   [--games 1] [--every 4] [--strong-every 16] [--at-least 6]
                                   [--passes 1] [--emit]

The default run (every game, every player count, all four bots, one pass) took 5 minutes of CPU and
7 of wall time on the reference machine (2 cores, shared with other work at a load average of 4 to
6); each more pass takes as long again. bench/README.md has its figures.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from kaiten.domain import lobby
from kaiten.domain.catalog import GAMES
from kaiten.domain.chance import Chance
from kaiten.domain.engine import Game
from kaiten.domain.mcts import Determinizer, MctsBot, group_moves
from kaiten.services.simulation import game_seeds

TARGET = 1.5
#: How many times a bot that does not search makes each decision in one timing.
CHEAP_CALLS = 100


class Counting:
    """A determinizer that counts its samples: one per search iteration."""

    def __init__(self, inner: Determinizer) -> None:
        self.inner = inner
        self.samples = 0

    def seat(self, view: Any) -> int:
        return self.inner.seat(view)

    def sample(self, view: Any, chance: Chance) -> Any:
        self.samples += 1
        return self.inner.sample(view, chance)

    def move_key(self, command: Any) -> Hashable:
        return self.inner.move_key(command)


class CountingGame:
    """A game that counts the decisions it is asked to decide (the search's simulated decisions)."""

    def __init__(self, game: Game[Any, Any, Any, Any]) -> None:
        self.game = game
        self.decisions = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def decide(self, state: Any, seat: int, command: Any, chance: Chance) -> Any:
        self.decisions += 1
        return self.game.decide(state, seat, command, chance)

    def play_bots(self, *args: Any) -> Any:
        """The rollouts' fast path (`Game.play_bots`), where the game has one: its decisions count too."""
        played = self.game.play_bots(*args)
        if played is not None:
            self.decisions += played[2]
        return played


def positions(
    game: Game[Any, Any, Any, Any], players: int, games: int, every: int = 1
) -> Iterator[tuple[lobby.Table[Any], int]]:
    """Every `every`-th decision of `games` greedy games, with the seat to decide."""
    for game_seed in game_seeds(7, games):
        log = lobby.create_game(game, players, None, game_seed, salt=b"")
        table = lobby.replay(game, log)
        for _ in range(players):
            decision = lobby.take_seat(game, table, Chance(game_seed, len(log)), bot="greedy")
            log.extend(decision.events)
            table = decision.table
        rng = random.Random(game_seed)
        decisions = 0
        while (seat := lobby.next_bot_seat(game, table)) is not None:
            if decisions % every == 0:
                yield table, seat
            decisions += 1
            command = lobby.bot_command(game, table, seat, Chance.from_rng(rng))
            table = lobby.act(game, table, seat, command, Chance(game_seed, decisions)).table


def choices(game: Game[Any, Any, Any, Any], players: int, games: int) -> list[tuple[Any, Any, Sequence[Any]]]:
    """(state, view, legal commands) of every decision of the greedy games where the seat has a choice."""
    search = game.bots["mcts"]()
    assert isinstance(search, MctsBot)
    move_key = search.search.determinizer.move_key
    found = []
    for table, seat in positions(game, players, games):
        commands = game.legal_commands(table.state, seat)
        if len(group_moves(commands, move_key)) > 1:
            found.append((table.state, game.view(table.state, seat), commands))
    return found


def stride(items: Sequence[Any], every: int) -> list[Any]:
    """Every `every`-th item counted back from the last one, in order."""
    return list(reversed(items[::-1][::every]))


class Row:
    """One bot at one game and player count: the CPU seconds of each decision, and the search's counts."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.iterations = 0
        self.simulated = 0

    def quantile(self, q: int) -> float:
        """The q-th percentile in milliseconds (linear between the nearest ranks)."""
        if len(self.seconds) == 1:
            return 1000 * self.seconds[0]
        return 1000 * statistics.quantiles(self.seconds, n=100, method="inclusive")[q - 1]


def measure(
    game: Game[Any, Any, Any, Any], bot_name: str, decisions: Sequence[tuple[Any, Any, Sequence[Any]]], passes: int
) -> Row:
    """Each decision made once in each of `passes` passes over the positions (the same search each
    time), the fastest counting: a burst of other work lasts seconds, so it slows one pass of a
    position, not all. A bot that does not search is built and asked `CHEAP_CALLS` times in one
    timing, which counts their mean: a call of `process_time` costs a few microseconds here, as much
    as such a decision."""
    row = Row()
    fastest = [math.inf] * len(decisions)
    for _ in range(passes):
        row.iterations = row.simulated = 0
        for number, (_, view, commands) in enumerate(decisions):
            bot = game.bots[bot_name]()
            counting = simulated = None
            calls = CHEAP_CALLS
            if isinstance(bot, MctsBot):
                counting = Counting(bot.search.determinizer)
                simulated = CountingGame(game)
                bot.search.determinizer = counting
                bot.search.game = simulated
                calls = 1
            chance = Chance(number, "bench")
            started = time.process_time()
            bot.choose(view, commands, chance)
            for _ in range(calls - 1):
                game.bots[bot_name]().choose(view, commands, chance)
            fastest[number] = min(fastest[number], (time.process_time() - started) / calls)
            if counting is not None and simulated is not None:
                row.iterations += counting.samples
                row.simulated += simulated.decisions
    row.seconds = fastest
    return row


class Held(NamedTuple):
    """One row against its budget: the catalog's figure and the measured p50 and p99, in ms."""

    game: str
    players: int
    bot: str
    catalog: float
    p50: float
    p99: float

    @property
    def holds(self) -> bool:
        return self.p99 <= TARGET * self.catalog

    def why_not(self) -> str:
        """What a row over its budget says: its tail (p99 over 1.5 times its own median, which no machine's
        speed explains: for a search, decisions dearer than its budget's count sees) or its median (the
        whole row is dearer than the catalog says: this machine at this load, or the code, is slower than
        where it was measured)."""
        if self.p99 > TARGET * self.p50:
            return "its tail: p99 over 1.5 x its own p50, some decisions dearer than the rest"
        return "its median: the row is dearer than the catalog says (the machine at this load, or the code)"


def not_holding(rows: Sequence[Held]) -> list[str]:
    """A line for each row whose p99 is over `TARGET` times the catalog's figure, saying why."""
    return [
        f"  {row.game} {row.players} {row.bot}: p99 {row.p99 / row.catalog:.2f} x the catalog "
        f"(p50 {row.p50 / row.catalog:.2f} x, p99/p50 {row.p99 / row.p50:.2f}): {row.why_not()}"
        for row in rows
        if not row.holds
    ]


def rounded(ms: float) -> float:
    """A measured figure to the precision it has: whole milliseconds above 10, three digits below."""
    return float(round(ms)) if ms >= 10 else float(f"{ms:.3g}")


def bots_md_rows(measured: Mapping[str, Mapping[str, Mapping[int, float]]]) -> list[str]:
    """BOTS.md's table of what a decision costs, from measured medians (ms by game, bot and players):
    the searches in whole milliseconds, the other bots in microseconds to three digits."""

    def cell(bot_name: str, ms: float | None) -> str:
        if ms is None:
            return ""
        return f"{rounded(ms):.0f}" if bot_name.startswith("mcts") else f"{1000 * rounded(ms):.3g}"

    counts = range(2, 1 + max(players for by_bot in measured.values() for c in by_bot.values() for players in c))
    rows = ["| game | bot | unit | " + " | ".join(map(str, counts)) + " |", "|---|---|---|" + "---|" * len(counts)]
    for game_id, by_bot in measured.items():
        for bot_name, by_players in by_bot.items():
            unit = "ms" if bot_name.startswith("mcts") else "µs"
            cells = " | ".join(cell(bot_name, by_players.get(players)) for players in counts)
            rows.append(f"| {game_id} | `{bot_name}` | {unit} | {cells} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=",".join(GAMES), help="game ids, comma-separated (default: all)")
    parser.add_argument("--players", default="", help="player counts, comma-separated (default: all)")
    parser.add_argument("--bots", default="random,greedy,mcts,mcts:strong", help="bots, comma-separated")
    parser.add_argument("--games", type=int, default=1, help="greedy games per game and player count")
    parser.add_argument("--every", type=int, default=4, help="mcts decides every n-th position with a choice")
    parser.add_argument("--strong-every", type=int, default=16, help="the same for mcts:strong")
    parser.add_argument("--at-least", type=int, default=6, help="positions a row decides at least (a smaller stride)")
    parser.add_argument(
        "--passes", type=int, default=1, help="decide every position once a pass; the fastest counts (other work adds)"
    )
    parser.add_argument("--emit", action="store_true", help="end with each game's bot_costs as measured")
    args = parser.parse_args()
    bots = [bot for bot in args.bots.split(",") if bot]
    counts = {int(players) for players in args.players.split(",") if players}
    load = os.getloadavg()
    print(f"CPU ms per decision with a choice; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start")
    print(
        f"{'game':<22} {'players':>7} {'bot':<12} {'n':>4} {'p50':>8} {'p99':>8} {'catalog':>8} "
        f"{'p99/cat':>7} {'p50/cat':>7} {'p99/p50':>7} {'iter/s':>7} {'sims/s':>7} {'load':>5}"
    )
    started, wall = time.process_time(), time.perf_counter()
    measured: dict[str, dict[str, dict[int, float]]] = {}
    worst: dict[str, float] = {}
    held: list[Held] = []
    for game_id in args.game.split(","):
        game = GAMES[game_id]
        for players in range(game.min_players, game.max_players + 1):
            if counts and players not in counts:
                continue
            decisions = choices(game, players, args.games)
            for bot_name in bots:
                every = {"mcts": args.every, "mcts:strong": args.strong_every}.get(bot_name, 1)
                every = max(1, min(every, len(decisions) // args.at_least))
                row = measure(game, bot_name, stride(decisions, every), args.passes)
                p50, p99 = row.quantile(50), row.quantile(99)
                measured.setdefault(game_id, {}).setdefault(bot_name, {})[players] = p50
                catalog = game.bot_costs.get(bot_name, {}).get(players)
                ratios = f"{p99 / catalog:>7.2f} {p50 / catalog:>7.2f}" if catalog else f"{'-':>7} {'-':>7}"
                if catalog:
                    worst[bot_name] = max(worst.get(bot_name, 0.0), p99 / catalog)
                    held.append(Held(game_id, players, bot_name, catalog, p50, p99))
                cpu = sum(row.seconds)
                rates = f"{'':>7} {'':>7}"
                if row.iterations:
                    rates = f"{row.iterations / cpu:>7.0f} {row.simulated / cpu:>7.0f}"
                print(
                    f"{game_id:<22} {players:>7} {bot_name:<12} {len(row.seconds):>4} {p50:>8.4g} {p99:>8.4g} "
                    f"{catalog if catalog else '-':>8} {ratios} {p99 / p50:>7.2f} {rates} {os.getloadavg()[0]:>5.2f}",
                    flush=True,
                )
    load = os.getloadavg()
    worst_rows = ", ".join(f"{bot} {ratio:.2f}" for bot, ratio in worst.items())
    print(f"worst p99/catalog: {worst_rows} (target {TARGET})")
    over = not_holding(held)
    holding = len(held) - len(over)
    print(f"p99 within {TARGET} x the catalog's figure in {holding} of {len(held)} rows" + ":" * bool(over))
    for line in over:
        print(line)
    print(
        f"{time.process_time() - started:.0f} s of CPU, {time.perf_counter() - wall:.0f} s of wall time; "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end"
    )
    if args.emit:
        for game_id, by_bot in measured.items():
            print(f"{game_id}:")
            for bot_name, by_players in by_bot.items():
                figures = ", ".join(f"{players}: {rounded(ms)}" for players, ms in sorted(by_players.items()))
                print(f'    "{bot_name}": {{{figures}}},')
        print("BOTS.md, 'What a decision costs':")
        print(*bots_md_rows(measured), sep="\n")


if __name__ == "__main__":
    main()
