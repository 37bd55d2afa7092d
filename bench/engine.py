"""Engine benchmark: complete Sushi Go! games per second through the lobby table, random bots.

Prints the 4-player rate and how the cost of one game grows with the player count, as ratios to
2 players. Every player count is measured side by side in the same run (interleaved rounds, best
round kept), so the ratios hold on any machine even when the absolute figures move.

    .venv/bin/python -m bench.engine [--games 1000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import time

from services.simulation import simulate

GAME = "sushi-go"
PLAYERS = (2, 3, 4, 5)


def measure(games: int, rounds: int) -> dict[int, float]:
    """Best seconds per game for each player count, over interleaved rounds."""
    best = dict.fromkeys(PLAYERS, float("inf"))
    for round_ in range(rounds):
        for players in PLAYERS:
            report = simulate(GAME, players, games, ["random"], seed=round_, clock=time.perf_counter)
            best[players] = min(best[players], report.seconds / games)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per player count and round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    simulate(GAME, 4, 50, ["random"])  # warm up (imports, interned commands)
    best = measure(args.games, args.rounds)
    print(f"{GAME}, random bots, {args.games} games x {args.rounds} rounds, best round kept")
    print(f"4 players: {1 / best[4]:.0f} games/s")
    print(f"{'players':>7} {'games/s':>9} {'ms/game':>9} {'cost vs 2p':>11}")
    for players in PLAYERS:
        print(f"{players:>7} {1 / best[players]:>9.0f} {best[players] * 1000:>9.3f} {best[players] / best[2]:>10.2f}x")


if __name__ == "__main__":
    main()
