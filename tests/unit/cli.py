"""Running one `kaiten` subcommand in-process, as the CLI parses it, and reading what it printed."""

from __future__ import annotations

import argparse
from types import ModuleType

import pytest


def run_cli(module: ModuleType, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the subcommand that `module.add_commands` adds, run with `argv`."""
    parser = argparse.ArgumentParser(prog="kaiten")
    module.add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.run(args)
    out, err = capsys.readouterr()
    return code, out, err
