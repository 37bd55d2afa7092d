"""`kaiten simulate`: play many bot games in-process and report wins, mean scores and speed."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kaiten.api.cli.progress import report_run
from kaiten.domain.catalog import GAMES
from kaiten.services.simulation import SimulationReport, simulate


def add_commands(commands: Any) -> None:
    parser = commands.add_parser(
        "simulate",
        help="play bot-only games in-process and report wins, mean scores and games per second",
        description="Seat i is played by the (i mod len(bots))-th bot. The same seed gives the same results.",
    )
    parser.add_argument("--game", default="sushi-go", help=f"a game id: {', '.join(sorted(GAMES))}")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--bots", default="random", help="comma-separated bot names, e.g. random,greedy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    bots = [bot.strip() for bot in args.bots.split(",") if bot.strip()]
    if args.games < 1:
        print("kaiten simulate: --games must be at least 1", file=sys.stderr)
        return 2
    return report_run(
        "simulate",
        args.games,
        lambda progress: simulate(args.game, args.players, args.games, bots, args.seed, progress=progress),
        format_report,
        args.json,
    )


def format_report(report: SimulationReport) -> str:
    lines = [
        f"{report.games} games of {report.game}, {report.players} players, seed {report.seed}: "
        f"{report.seconds:.2f} s, {report.games_per_second:.0f} games/s, {report.events} events, "
        f"{report.decisions} decisions ({report.decisions / report.seconds if report.seconds > 0 else 0:.0f}/s)",
        f"{'bot':<12} {'seats':>7} {'wins':>7} {'win rate':>9} {'mean score':>11}",
    ]
    for name, stats in report.per_bot.items():
        lines.append(f"{name:<12} {stats.seats:>7} {stats.wins:>7} {stats.win_rate:>9.1%} {stats.mean_score:>11.2f}")
    if report.shared_wins:
        lines.append(f"shared victories: {report.shared_wins} games (a win for each winner)")
    return "\n".join(lines) + "\n"
