"""Environment benchmark: PettingZoo steps per second under random actions, as a ratio of `kaiten simulate`'s
decisions per second (random bots), both measured in this run, for every game.

A step is one agent's action as a learner takes it: `last()` (the observation vector and the action
mask), a uniformly random legal action, and `step()`. A decision is one bot command in
the simulator (legal commands, the bot's choice, the rules). Rounds alternate the two, and the best
round of each is kept. Target: a ratio of at least 0.5 (the wrapper must not cost more than the rules).

Timed ratios move with the machine's load (a shared machine that runs slower makes the wrapper's
numpy calls and memory dearer relative to the rules). `--instructions` counts machine instructions
instead, which no load moves: each side runs under valgrind's callgrind for 1 game and for `--games`
games, and the difference, divided by the steps (decisions) between the two runs, is the cost of one
step (decision) without the imports and the warm-up, with Python's hash seed fixed so that both
runs play the same games each time. It needs valgrind and takes minutes. Instructions are not time:
numpy's calls and memory cost more time per instruction than the rules do, so the two ratios differ.

    .venv/bin/python -m bench.environments [--games 100] [--rounds 3] [--game sushi-go --players 4]
    .venv/bin/python -m bench.environments --instructions [--games 11] [--game dim-sum-derby]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable

from adapters.environments.pettingzoo_env import KaitenAECEnv, env
from domain.catalog import GAMES
from services.simulation import simulate

TARGET = 0.5


def play_environment(table: KaitenAECEnv, games: int, seed: int) -> int:
    """Play `games` games through the AEC environment under random legal actions; the steps taken."""
    # A uniformly random legal action, as the simulator's random bot draws its command (gymnasium's
    # masked `sample` would cost more than a whole step of the rules).
    choice = random.Random(seed).choice
    steps = 0
    for number in range(games):
        table.reset(seed=seed + number)
        for _agent in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            table.step(int(choice(observation["action_mask"].nonzero()[0])))
            steps += 1
    return steps


def play_simulator(game: str, players: int, games: int, seed: int) -> int:
    """Play `games` games in `kaiten simulate` with random bots; the decisions taken."""
    return simulate(game, players, games, ["random"], seed=seed).decisions


def environment_steps_per_second(game: str, players: int, games: int, seed: int) -> float:
    table = env(game, players)
    started = time.perf_counter()
    steps = play_environment(table, games, seed)
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


PLAYS: dict[str, Callable[[str, int, int, int], int]] = {
    "env": lambda game, players, games, seed: play_environment(env(game, players), games, seed),
    "sim": play_simulator,
}


def callgrind_instructions(output: str) -> int:
    """The instructions callgrind reports it collected ("==1== Collected : 1234")."""
    found = re.search(r"Collected\s*:\s*([\d,]+)", output)
    if found is None:
        raise ValueError("no instruction count in valgrind's output")
    return int(found.group(1).replace(",", ""))


def per_play(first: tuple[int, int], last: tuple[int, int]) -> float:
    """Instructions per step (decision) between two runs, each (steps, instructions)."""
    steps = last[0] - first[0]
    if steps <= 0:
        raise ValueError("the longer run took no more steps than the shorter one")
    return (last[1] - first[1]) / steps


def counted(side: str, game: str, players: int, games: int) -> tuple[int, int]:
    """(steps or decisions, instructions) of one side's run of `games` games under callgrind."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, "-m", "bench.environments", "--play", side,
        "--game", game, "--players", str(players), "--games", str(games),
    ]  # fmt: skip
    # A fixed hash seed: the games played (and so the counts) would otherwise vary from run to run.
    run = subprocess.run(command, capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    return int(run.stdout.split()[-1]), callgrind_instructions(run.stderr)


def count_instructions(game: str, players: int, games: int) -> tuple[float, float]:
    """Instructions per environment step and per simulated decision."""
    env_runs = [counted("env", game, players, count) for count in (1, games)]
    sim_runs = [counted("sim", game, players, count) for count in (1, games)]
    return per_play(*env_runs), per_play(*sim_runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="games per measurement (default 100; 11 with --instructions)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", help="one game id (default: every game)")
    parser.add_argument("--players", type=int, help="the player count (default: 4, or the game's maximum)")
    parser.add_argument("--instructions", action="store_true", help="count instructions under valgrind")
    parser.add_argument("--play", choices=sorted(PLAYS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    games = [args.game] if args.game else sorted(GAMES)
    if args.play:
        # One side's run of one game, counted by the parent under valgrind.
        print(PLAYS[args.play](games[0], args.players or min(4, GAMES[games[0]].max_players), args.games or 1, 0))
        return
    if args.instructions:
        count = args.games or 11
        print(f"instructions per step and per decision, {count} games minus 1; target ratio >= {TARGET}")
        print(f"{'game':<22} {'players':>7} {'instr/step':>11} {'instr/decision':>15} {'ratio':>6}")
        for game in games:
            players = args.players or min(4, GAMES[game].max_players)
            step, decision = count_instructions(game, players, count)
            print(f"{game:<22} {players:>7} {step:>11.0f} {decision:>15.0f} {decision / step:>6.2f}")
        return
    count = args.games or 100
    print(f"random actions, {count} games x {args.rounds} rounds, best round kept; target ratio >= {TARGET}")
    print(f"{'game':<22} {'players':>7} {'env steps/s':>12} {'sim decisions/s':>16} {'ratio':>6}")
    for game in games:
        players = args.players or min(4, GAMES[game].max_players)
        environment_steps_per_second(game, players, 2, 0)  # warm up (imports, interned commands)
        steps, decisions = measure(game, players, count, args.rounds)
        print(f"{game:<22} {players:>7} {steps:>12.0f} {decisions:>16.0f} {steps / decisions:>6.2f}")


if __name__ == "__main__":
    main()
