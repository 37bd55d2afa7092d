"""Skips nobody may miss: a whole part of the suite (the PostgreSQL tests, the browser tests, the
environment tests) left out because the machine lacks what it needs. Each is repeated in a red
section at the end of the run, and in CI it is a failure instead.

The sections are written from the run's skipped reports, not from what this process saw: with
pytest-xdist the workers skip the tests and the controller writes the summary.
"""

from __future__ import annotations

import importlib.util
import os
import re
from typing import NoReturn

import pytest

#: What the environment tests import (the `[rl]` extras); without them they are not collected.
RL_LIBRARIES = ("pettingzoo", "gymnasium", "pyspiel", "numpy")
MISSING_RL_LIBRARIES = [name for name in RL_LIBRARIES if importlib.util.find_spec(name) is None]
RL_REASON = (
    f"the [rl] extras are not installed ({', '.join(MISSING_RL_LIBRARIES)} missing): "
    "the PettingZoo and OpenSpiel environment tests did not run; .venv/bin/pip install -e '.[test]'"
)

_LOUD = re.compile(r"(?:Skipped: )?(?P<part>[\w ]+) tests skipped: ")


def required(variable: str) -> bool:
    """Whether the environment variable (KAITEN_REQUIRE_POSTGRES and the like) requires a part: it is 1."""
    return os.environ.get(variable) == "1"


def skip_loudly(part: str, reason: str, required_by: str) -> NoReturn:
    """Skip for want of `part` (`reason` says what is missing and how to get it), or fail when the
    environment variable `required_by` is 1."""
    if required(required_by):
        pytest.fail(f"{required_by}=1 but {reason}", pytrace=False)
    pytest.skip(f"{part} tests skipped: {reason}")


def summarize_loud_skips(terminalreporter: pytest.TerminalReporter) -> None:
    """One red section per part skipped, with the first reason given."""
    reasons: dict[str, str] = {"environment": RL_REASON} if MISSING_RL_LIBRARIES else {}
    for report in terminalreporter.stats.get("skipped", ()):
        # A skip's long representation is (path, line, message), a list once it came from a worker.
        longrepr = report.longrepr
        if isinstance(longrepr, tuple | list) and len(longrepr) == 3:
            loud = _LOUD.match(str(longrepr[2]))
            if loud:
                reasons.setdefault(loud["part"], str(longrepr[2])[loud.end() :])
    for part, reason in reasons.items():
        terminalreporter.section(f"{part} tests SKIPPED", sep="!", red=True, bold=True)
        terminalreporter.write_line(reason, red=True, bold=True)
