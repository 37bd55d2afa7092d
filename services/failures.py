"""How a background loop (projections, webhook deliveries, the scheduler) reports failing rounds.

Through a database outage such a loop fails every few tenths of a second for as long as it lasts. A
traceback each time buries the one line an operator needs; this says it once, then how often it
goes on failing, then that it has recovered.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

#: At most one "still failing" line this often while a loop keeps failing.
REPORT_EVERY_SECONDS = 30.0


class RepeatedFailures:
    """The failures of one loop: the first with its traceback, then at most one line every
    `every` seconds with the count since the last line, and one line when a round succeeds again."""

    def __init__(
        self,
        log: logging.Logger,
        what: str,
        every: float = REPORT_EVERY_SECONDS,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._log = log
        self._what = what
        self._every = every
        self._now = now
        self._failures = 0
        self._since = 0.0
        self._reported_at = 0.0
        self._unreported = 0

    @property
    def failing(self) -> int:
        """Rounds failed in a row (0: the last round succeeded)."""
        return self._failures

    def failed(self, error: BaseException) -> None:
        now = self._now()
        self._failures += 1
        if self._failures == 1:
            self._since = self._reported_at = now
            self._log.error("%s failed; trying again", self._what, exc_info=error)
            return
        self._unreported += 1
        if now - self._reported_at >= self._every:
            self._log.warning(
                "%s still failing: %d more failures in %.0fs, %.0fs since the first; the last: %s",
                *(self._what, self._unreported, now - self._reported_at, now - self._since, _one_line(error)),
            )
            self._reported_at, self._unreported = now, 0

    def succeeded(self) -> None:
        if self._failures:
            self._log.warning(
                "%s recovered after %d failures over %.0fs", self._what, self._failures, self._now() - self._since
            )
        self._failures = self._unreported = 0


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:300]}"
