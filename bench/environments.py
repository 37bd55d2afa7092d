"""Environment benchmark: PettingZoo steps per second under random actions, as a ratio of `kaiten simulate`'s
decisions per second (random bots), both measured in this run, for every game.

A step is one agent's action as a learner takes it: `last()` (the observation vector and the action
mask), a uniformly random legal action, and `step()`. A decision is one bot command in
the simulator (legal commands, the bot's choice, the rules). Rounds alternate the two, and the best
round of each is kept, so the ratio holds on any machine even when absolute figures move. Target: a
ratio of at least 0.5 (the wrapper must not cost more than the rules). The load averages printed
before and after tell whether other work shared the CPU: compare runs made close together.

    .venv/bin/python -m bench.environments [--games 100] [--rounds 3] [--game sushi-go --players 4]
"""

from __future__ import annotations

import argparse
import os
import random
import time

from kaiten.domain.catalog import GAMES
from kaiten.environments.pettingzoo_env import env
from kaiten.services.simulation import simulate

TARGET = 0.5


def environment_steps_per_second(game: str, players: int, games: int, seed: int) -> float:
    table = env(game, players)
    # A uniformly random legal action, as the simulator's random bot draws its command (gymnasium's
    # masked `sample` would cost more than a whole step of the rules).
    choice = random.Random(seed).choice
    steps = 0
    started = time.perf_counter()
    for number in range(games):
        table.reset(seed=seed + number)
        for _agent in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            table.step(int(choice(observation["action_mask"].nonzero()[0])))
            steps += 1
    return steps / (time.perf_counter() - started)


def simulator_decisions_per_second(game: str, players: int, games: int, seed: int) -> float:
    report = simulate(game, players, games, ["random"], seed=seed)
    return report.decisions / report.seconds


def measure(game: str, players: int, games: int, rounds: int) -> tuple[float, float]:
    """Best steps per second and best decisions per second over interleaved rounds."""
    steps = decisions = 0.0
    for round_ in range(rounds):
        decisions = max(decisions, simulator_decisions_per_second(game, players, games, round_))
        steps = max(steps, environment_steps_per_second(game, players, games, round_))
    return steps, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per measurement")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", help="one game id (default: every game)")
    parser.add_argument("--players", type=int, help="the player count (default: 4, or the game's maximum)")
    args = parser.parse_args()
    games = [args.game] if args.game else sorted(GAMES)
    print(f"random actions, {args.games} games x {args.rounds} rounds, best round kept; target ratio >= {TARGET}")
    print(_load_averages())
    print(f"{'game':<22} {'players':>7} {'env steps/s':>12} {'sim decisions/s':>16} {'ratio':>6}")
    for game in games:
        players = args.players or min(4, GAMES[game].max_players)
        environment_steps_per_second(game, players, 2, 0)  # warm up (imports, interned commands)
        steps, decisions = measure(game, players, args.games, args.rounds)
        print(f"{game:<22} {players:>7} {steps:>12.0f} {decisions:>16.0f} {steps / decisions:>6.2f}")
    print(_load_averages())


def _load_averages() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load averages {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


if __name__ == "__main__":
    main()
