"""The `kaiten` command imports only what the chosen subcommand needs.

Every process that `kaiten serve` starts through multiprocessing's spawn (granian's worker, the bot
workers) imports the `kaiten` script, and with it `kaiten.api.cli`: that package must import no
subcommand's module. Each check runs in a fresh interpreter, since this one has imported everything.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from kaiten.api.cli import MODULE_OF, SUBCOMMANDS, build_parser


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code`."""
    shown = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    ran = subprocess.run([sys.executable, "-c", shown], capture_output=True, text=True, timeout=60, check=True)
    return set(json.loads(ran.stdout.splitlines()[-1]))


def subcommands(parser: argparse.ArgumentParser) -> list[str]:
    chooser = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return list(chooser.choices)


def test_importing_the_command_line_imports_no_subcommand_and_no_framework() -> None:
    loaded = modules_after("import kaiten.api.cli")
    assert not {name for name in loaded if name.startswith("kaiten.api.cli.")}
    assert not {"litestar", "sqlalchemy", "alembic", "psycopg"} & loaded


def test_serve_imports_its_own_module_alone_and_nothing_of_the_web_framework() -> None:
    """`kaiten serve` migrates and starts granian: Litestar is its workers' to import, not its own."""
    loaded = modules_after("from kaiten.api.cli import build_parser\nbuild_parser('serve').parse_args(['serve'])")
    assert {name for name in loaded if name.startswith("kaiten.api.cli.")} == {"kaiten.api.cli.service"}
    assert "litestar" not in loaded


def test_the_table_names_every_subcommand_each_module_adds_in_the_order_help_lists_them() -> None:
    assert subcommands(build_parser()) == [command for commands in SUBCOMMANDS.values() for command in commands]
    for module, commands in SUBCOMMANDS.items():
        assert subcommands(build_parser(commands[0])) == list(commands), module


@pytest.mark.parametrize("argv", [[], ["--help"], ["servee"]])
def test_anything_but_a_subcommand_first_gets_the_whole_parsers_answer(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from kaiten.api.cli import main

    with pytest.raises(SystemExit):
        main(argv)
    said = "".join(capsys.readouterr())
    assert all(command in said for command in MODULE_OF)
