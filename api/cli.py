"""The `kaiten` command line: one subcommand per module, so each stays small."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from api import apps_cli, logs_cli, projections_cli, service_cli, simulate_cli, tournament_cli
from api.settings import SettingsError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kaiten", description="Sushi Go family game engine service")
    commands = parser.add_subparsers(dest="command", required=True)
    service_cli.add_commands(commands)
    simulate_cli.add_command(commands)
    tournament_cli.add_command(commands)
    projections_cli.add_command(commands)
    logs_cli.add_commands(commands)
    apps_cli.add_command(commands)
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


if __name__ == "__main__":
    sys.exit(main())
