"""Engine benchmark: complete Sushi Go! games per second through the lobby table, random bots.

Prints the 4-player rate beside a plain simulator of the same rules written as fast as plain CPython
allows (`bench/reference.py`) and their ratio (target >= 0.3, stretch 0.5: issue 26 §3), for the rules
from their sources and, beside them, compiled (`kaiten/compiled.py`: built into a temporary folder,
played in a child process started with `KAITEN_COMPILED`); then how the cost of one game grows with the
player count, as ratios to 2 players. Everything is measured side by side in the same run (interleaved
rounds, best round kept), so the ratios hold on any machine even when the absolute figures move; the
machine's load average (1 minute) is printed beside each figure.

    .venv/bin/python -m bench.engine [--games 1000] [--rounds 5] [--no-compiled]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import reference
from kaiten import compiled
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


def engine_round(games: int, seed: int) -> dict[int, float]:
    """Seconds per game for each player count, one round."""
    return {
        players: simulate(GAME, players, games, ["random"], seed=seed, clock=time.perf_counter).seconds / games
        for players in PLAYERS
    }


def compiled_round(folder: Path, games: int, seed: int) -> dict[int, float]:
    """`engine_round` in a child process whose rules are compiled (it says which modules were)."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.engine", "--child", str(seed), "--games", str(games)],
        env={**os.environ, compiled.ENVIRONMENT: str(folder)},
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(done.stdout)
    if answer["compiled"] != list(compiled.MODULES):
        raise SystemExit(f"the child ran {answer['compiled']} compiled, not {compiled.MODULES}: {done.stderr}")
    return {int(players): seconds for players, seconds in answer["seconds"].items()}


def child(games: int, seed: int) -> None:
    simulate(GAME, 4, 50, ["random"])  # warm up (imports, interned commands)
    print(json.dumps({"compiled": compiled.compiled(), "seconds": engine_round(games, seed)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per player count and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-compiled", action="store_true", help="the rules from their sources only")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.games, args.child)
        return
    with tempfile.TemporaryDirectory(prefix="bench-engine-") as work:
        folder = None
        if not args.no_compiled:
            folder = Path(work, "compiled")
            compiled.build(folder)
        simulate(GAME, 4, 50, ["random"])  # warm up (imports, interned commands)
        reference_seconds(50, 0)
        print(f"{GAME}, random bots, {args.games} games x {args.rounds} rounds, best round kept ({load()} before)")
        best = {"sources": dict.fromkeys(PLAYERS, float("inf"))}
        if folder is not None:
            best["compiled"] = dict.fromkeys(PLAYERS, float("inf"))
        best_reference = float("inf")
        for round_ in range(args.rounds):
            best_reference = min(best_reference, reference_seconds(args.games, round_) / args.games)
            measured = {"sources": engine_round(args.games, round_)}
            if folder is not None:
                measured["compiled"] = compiled_round(folder, args.games, round_)
            for rules, seconds in measured.items():
                for players in PLAYERS:
                    best[rules][players] = min(best[rules][players], seconds[players])
    print(f"reference: {1 / best_reference:.0f} games/s at {REFERENCE_PLAYERS} players")
    for rules, seconds in best.items():
        engine = seconds[REFERENCE_PLAYERS]
        print(
            f"{REFERENCE_PLAYERS} players, rules from {rules}: engine {1 / engine:.0f} games/s, "
            f"ratio {best_reference / engine:.2f} (target >= {TARGET}, stretch {STRETCH}; {load()})"
        )
    for rules, seconds in best.items():
        print(f"rules from {rules} ({load()}):")
        print(f"{'players':>7} {'games/s':>9} {'ms/game':>9} {'cost vs 2p':>11}")
        for players, each in seconds.items():
            print(f"{players:>7} {1 / each:>9.0f} {each * 1000:>9.3f} {each / seconds[2]:>10.2f}x")


if __name__ == "__main__":
    main()
