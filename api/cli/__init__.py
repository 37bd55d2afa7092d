"""The `kaiten` command line: one subcommand per module, so each stays small."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from kaiten.api.cli import apps, logs, projections, service, simulate, tournament
from kaiten.api.settings import SettingsError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kaiten", description="Sushi Go family game engine service")
    commands = parser.add_subparsers(dest="command", required=True)
    service.add_commands(commands)
    simulate.add_command(commands)
    tournament.add_command(commands)
    projections.add_command(commands)
    logs.add_commands(commands)
    apps.add_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except SettingsError as error:
        # A setting the service cannot start with: say which, without a traceback.
        print(f"kaiten: {error}", file=sys.stderr)
        return 2
    return code
