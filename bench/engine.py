"""Engine benchmark: complete Sushi Go! games per second through the lobby table, random bots.

Prints the 4-player rate beside a plain simulator of the same rules written as fast as plain CPython
allows (`bench/reference.py`) and their ratio (target >= 0.3, stretch 0.5: issue 26 §3), then how the
cost of one game grows with the player count, as ratios to 2 players. Everything is measured side by
side in the same run (interleaved rounds, best round kept), so the ratios hold on any machine even
when the absolute figures move; the machine's load average (1 minute) is printed beside each figure.

    .venv/bin/python -m bench.engine [--games 1000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import time

from bench import reference
from kaiten.services.simulation import simulate

GAME = "sushi-go"
PLAYERS = (2, 3, 4, 5)
#: The player count compared with the reference simulator.
REFERENCE_PLAYERS = 4
TARGET = 0.3
STRETCH = 0.5


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def reference_seconds(games: int, seed: int) -> float:
    started = time.perf_counter()
    reference.simulate(REFERENCE_PLAYERS, games, seed)
    return time.perf_counter() - started


def measure(games: int, rounds: int) -> tuple[dict[int, float], float]:
    """Best seconds per game for each player count, and the reference's, over interleaved rounds."""
    best = dict.fromkeys(PLAYERS, float("inf"))
    best_reference = float("inf")
    for round_ in range(rounds):
        best_reference = min(best_reference, reference_seconds(games, round_) / games)
        for players in PLAYERS:
            report = simulate(GAME, players, games, ["random"], seed=round_, clock=time.perf_counter)
            best[players] = min(best[players], report.seconds / games)
    return best, best_reference


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per player count and round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    simulate(GAME, 4, 50, ["random"])  # warm up (imports, interned commands)
    reference_seconds(50, 0)
    print(f"{GAME}, random bots, {args.games} games x {args.rounds} rounds, best round kept ({load()} before)")
    best, best_reference = measure(args.games, args.rounds)
    engine = best[REFERENCE_PLAYERS]
    print(
        f"{REFERENCE_PLAYERS} players: engine {1 / engine:.0f} games/s, reference {1 / best_reference:.0f} games/s, "
        f"ratio {best_reference / engine:.2f} (target >= {TARGET}, stretch {STRETCH}; {load()})"
    )
    print(f"{'players':>7} {'games/s':>9} {'ms/game':>9} {'cost vs 2p':>11}  ({load()})")
    for players in PLAYERS:
        print(f"{players:>7} {1 / best[players]:>9.0f} {best[players] * 1000:>9.3f} {best[players] / best[2]:>10.2f}x")


if __name__ == "__main__":
    main()
