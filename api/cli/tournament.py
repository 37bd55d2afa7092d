"""`kaiten tournament`: bots against each other with the seats rotating; win rates with 95% intervals."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kaiten.api.cli.progress import report_run
from kaiten.domain.catalog import GAMES, get_game
from kaiten.services.ports import BotRegistry
from kaiten.services.tournament import TournamentReport, run_tournament

#: Where the peers come from, and how to get them.
PEERS_MISSING = "OpenSpiel's bots (openspiel:ismcts...) need the [rl] extra: pip install 'kaiten[rl]'"


def add_commands(commands: Any) -> None:
    parser = commands.add_parser(
        "tournament",
        help="rank bots over many games with rotating seats: win rates with 95%% intervals, think time",
        description=(
            "--bots names each seat's bot, cycled when shorter than --players; game g shifts the seats by g, "
            "so every bot plays every position equally. A shared win counts 1/number of winners; the interval "
            "is Wilson's. ms_per_decision is CPU time. The same seed gives the same results whatever --jobs."
        ),
    )
    parser.add_argument("--game", default="sushi-go", help=f"a game id: {', '.join(sorted(GAMES))}")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--bots",
        default="mcts,greedy",
        help="comma-separated bot names, e.g. mcts,greedy; with the [rl] extra also OpenSpiel's IS-MCTS: "
        "openspiel:ismcts (150 ms a decision), openspiel:ismcts@<ms>ms, openspiel:ismcts@<n>sims",
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, in separate processes")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    bots = [bot.strip() for bot in args.bots.split(",") if bot.strip()]
    if args.games < 1 or args.jobs < 1:
        print("kaiten tournament: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    peers = peers_for(args.game, bots)
    code = report_run(
        "tournament",
        args.games,
        lambda progress: run_tournament(
            args.game, args.players, bots, args.games, args.seed, jobs=args.jobs, progress=progress, peers=peers
        ),
        lambda report: format_report(report, args.seed),
        args.json,
    )
    if code and peers is None and not own_bots(args.game, bots):
        print(f"kaiten tournament: {PEERS_MISSING}", file=sys.stderr)
    return code


def own_bots(game_id: str, bots: list[str]) -> bool:
    """Whether every bot named is one of the game's own (an unknown game: none is)."""
    return game_id in GAMES and all(bot in get_game(game_id).bots for bot in bots)


def peers_for(game_id: str, bots: list[str]) -> BotRegistry | None:
    """OpenSpiel's searches, when a bot is not one of the game's own and the [rl] extra is installed
    (OpenSpiel is slow to import: a tournament of kaiten's bots does without it)."""
    if own_bots(game_id, bots):
        return None
    try:
        from kaiten.environments.openspiel_peers import OpenSpielPeers
    except ModuleNotFoundError:
        return None
    return OpenSpielPeers()


def format_report(report: TournamentReport, seed: int) -> str:
    width = max([14, *[len(standing.bot) for standing in report.bots]])
    lines = [
        f"{report.games} games of {report.game}, {report.players} players, seed {seed}, seats rotating",
        f"{'bot':<{width}} {'seats':>6} {'wins':>8} {'win rate':>9} {'95% interval':>17} {'mean score':>11} "
        f"{'ms/decision':>12}",
    ]
    for standing in report.bots:
        low, high = standing.ci95
        lines.append(
            f"{standing.bot:<{width}} {standing.seats_played:>6} {standing.wins:>8.1f} {standing.win_rate:>9.1%} "
            f"{f'[{low:.1%}, {high:.1%}]':>17} {standing.mean_score:>11.2f} {standing.ms_per_decision:>12.2f}"
        )
    return "\n".join(lines) + "\n"
