"""Services for an in-process test client, run as a server runs them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

from kaiten.api.bootstrap import Services, bootstrap

#: Longer than the quick bots' games a test leaves take to finish; strong bots are not waited out.
DRAIN_SECONDS = 20


@asynccontextmanager
async def serving(database_url: str, **options: Any) -> AsyncIterator[Services]:
    """Services as a server runs them (the scheduler makes the bots' moves), for an in-process client.

    The test client serves in an event loop of its own while the test calls services in the test's
    loop. SQLAlchemy sets up an engine on its first connection under an asyncio lock, which two loops
    must not race for: the first connection is made here, before the client starts."""
    built = bootstrap(database_url, run_scheduler=True, **options)
    try:
        await built.is_ready()
        yield built
        await bots_done(built)
    finally:
        await built.close()


async def bots_done(services: Services) -> None:
    """Make the bots' moves the test's games still owe (a while, not a strong bots' game to its end):
    the test session's database is the next test's too, whose server would otherwise make them
    meanwhile (and count them as moves it owes, towards refusing new games with bots: 429 bots-busy).
    The test client stopped the background scheduler as it closed: its rounds are run here."""
    if services.scheduler is None:
        return
    with suppress(TimeoutError):
        async with asyncio.timeout(DRAIN_SECONDS):
            while await services.scheduler.run_once():
                pass
