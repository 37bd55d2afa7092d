"""The environment tests need the `[rl]` extras. Without them they are not collected, and the run says
so at its end where nobody can miss it; in CI (CI set) the `test` extra always brings them, so a
missing library is an error there."""

from __future__ import annotations

import importlib.util
import os

import pytest

LIBRARIES = ("pettingzoo", "gymnasium", "pyspiel", "numpy")
_missing = [name for name in LIBRARIES if importlib.util.find_spec(name) is None]
_reason = (
    f"the [rl] extras are not installed ({', '.join(_missing)} missing): "
    "the PettingZoo and OpenSpiel environment tests did not run; .venv/bin/pip install -e '.[test]'"
)
if _missing and os.environ.get("CI"):
    raise RuntimeError(_reason)
collect_ignore_glob = ["test_*.py"] if _missing else []


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _missing:
        terminalreporter.section("environment tests SKIPPED", sep="!", red=True, bold=True)
        terminalreporter.write_line(_reason, red=True, bold=True)
