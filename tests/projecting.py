"""Catching projections up with everything appended so far, in tests.

On PostgreSQL the log is read only below the oldest transaction still open on the whole server
(adapters/projections/log.py), so a transaction of another session, in any database of the server,
can hold freshly committed events back for a moment. A test that means "everything so far" waits
that out, bounded; the events held back are still counted by `lag`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from kaiten.adapters.projections.runner import ProjectionRunner

SETTLE_SECONDS = 30.0


async def settle(runner: ProjectionRunner) -> int:
    """Catch up until nothing is left to apply; the number of events read."""
    read = await runner.catch_up()
    async with asyncio.timeout(SETTLE_SECONDS):
        while (await runner.lag()).events:
            await asyncio.sleep(0.02)
            read += await runner.catch_up()
    return read


async def settle_all(runners: Iterable[ProjectionRunner]) -> None:
    for runner in runners:
        await settle(runner)
