"""MCTS benchmark: search iterations per second for every game, and what one `mcts` decision costs.

For each game at its smallest and largest player count, the positions a seat meets in games of greedy
bots are searched by that game's `mcts` bot with its default budget. Prints iterations per second,
simulated decisions per second (the budget's unit), and the mean and worst CPU milliseconds of a
decision (CPU time: on a shared machine the wall clock would also count the other work).

    .venv/bin/python -m bench.mcts [--games 1] [--every 4] [--bot mcts]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Hashable, Iterator
from typing import Any

from domain import lobby
from domain.catalog import GAMES
from domain.chance import Chance
from domain.engine import Game
from domain.mcts import Determinizer, MctsBot
from services.simulation import game_seeds


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

    def __init__(self, game: Game) -> None:
        self.game = game
        self.decisions = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def decide(self, state: Any, seat: int, command: Any, chance: Chance) -> Any:
        self.decisions += 1
        return self.game.decide(state, seat, command, chance)


def positions(game: Game, players: int, games: int, every: int) -> Iterator[tuple[lobby.Table, int]]:
    """Every `every`-th decision of `games` greedy games, with the seat to decide."""
    for game_seed in game_seeds(7, games):
        log = lobby.create_game(game, players, None, game_seed)
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


def measure(game: Game, players: int, games: int, every: int, bot_name: str) -> tuple[int, int, float, float, int]:
    """(iterations, simulated decisions, CPU seconds, worst decision's seconds, decisions searched)."""
    iterations = steps = decisions = 0
    seconds = worst = 0.0
    for table, seat in positions(game, players, games, every):
        bot = game.bots[bot_name]()
        assert isinstance(bot, MctsBot)
        counting = Counting(bot.search.determinizer)
        simulated = CountingGame(game)
        bot.search.determinizer = counting
        bot.search.game = simulated  # type: ignore[assignment]
        view = game.view(table.state, seat)
        commands = game.legal_commands(table.state, seat)
        started = time.process_time()
        bot.choose(view, commands, Chance(decisions, "bench"))
        elapsed = time.process_time() - started
        if counting.samples:
            iterations += counting.samples
            steps += simulated.decisions
            decisions += 1
            seconds += elapsed
            worst = max(worst, elapsed)
    return iterations, steps, seconds, worst, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="greedy games per game and player count")
    parser.add_argument("--every", type=int, default=4, help="search every n-th decision of those games")
    parser.add_argument("--bot", default="mcts", help="mcts or mcts:strong")
    args = parser.parse_args()
    print(f"{args.bot}: CPU time per searched decision (forced moves are not searched)")
    print(f"{'game':<24} {'players':>7} {'iterations/s':>13} {'decisions/s':>12} {'ms mean':>8} {'ms max':>7}")
    for game_id, game in GAMES.items():
        for players in sorted({game.min_players, game.max_players}):
            iterations, steps, seconds, worst, decisions = measure(game, players, args.games, args.every, args.bot)
            print(
                f"{game_id:<24} {players:>7} {iterations / seconds:>13.0f} {steps / seconds:>12.0f} "
                f"{1000 * seconds / decisions:>8.1f} {1000 * worst:>7.1f}"
            )


if __name__ == "__main__":
    main()
