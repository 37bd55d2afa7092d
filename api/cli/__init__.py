"""The `kaiten` command line: one subcommand per module, so each stays small.

Only the chosen subcommand's module is imported, and importing this package imports none. The
`kaiten` script imports `main` from here, and so does every process `kaiten serve` starts through
multiprocessing's spawn (granian's worker, the bot workers), which imports the script that started
it: with every subcommand's module imported at the top, a server's start cost 3.5 s of CPU where
`python -m kaiten.api.cli serve`, which spawned processes do not import, cost 2.0 s (1.7 s either
way now).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: The subcommands each module adds (its `add_commands`), in the order `kaiten --help` lists them.
SUBCOMMANDS = {
    "service": ("serve", "migrate", "replay", "openapi"),
    "simulate": ("simulate",),
    "tournament": ("tournament",),
    "projections": ("projections",),
    "logs": ("export", "import"),
    "apps": ("apps",),
}
MODULE_OF = {command: module for module, commands in SUBCOMMANDS.items() for command in commands}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of `command`'s module's alone."""
    parser = argparse.ArgumentParser(prog="kaiten", description="Sushi Go family game engine service")
    commands = parser.add_subparsers(dest="command", required=True)
    for module in SUBCOMMANDS if command is None else [MODULE_OF[command]]:
        importlib.import_module(f"kaiten.api.cli.{module}").add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    # Anything but a subcommand's name first (none, --help, a typo) is the whole parser's to answer.
    chosen = arguments[0] if arguments and arguments[0] in MODULE_OF else None
    args = build_parser(chosen).parse_args(arguments)
    # Not at the top: the settings import SQLAlchemy, which a spawned process must not pay for. Every
    # subcommand's module has imported them by now.
    from kaiten.api.settings import SettingsError

    try:
        code: int = args.run(args)
    except SettingsError as error:
        # A setting the service cannot start with: say which, without a traceback.
        print(f"kaiten: {error}", file=sys.stderr)
        return 2
    return code
