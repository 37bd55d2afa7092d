"""The environment tests need the `[rl]` extras. Without them they are not collected, and the run says
so at its end where nobody can miss it (`tests/loud_skips.py`); in CI (CI set) the `test` extra
always brings them, so a missing library is an error there."""

from __future__ import annotations

import os

from tests.loud_skips import MISSING_RL_LIBRARIES, RL_REASON

if MISSING_RL_LIBRARIES and os.environ.get("CI"):
    raise RuntimeError(RL_REASON)
collect_ignore_glob = ["test_*.py"] if MISSING_RL_LIBRARIES else []
