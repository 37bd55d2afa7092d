"""The scheduler every serving process runs: it claims the games whose deadline is due and lets the
ordinary use case act on them (`Games.wake`), so a timeout obeys the same version guard as a person's
command and fires once however many processes run; a deadline that fell due while none ran is due at
the next start."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from datetime import timedelta

from domain.engine import RuleViolation
from services.errors import ServiceError
from services.games import Games
from services.ports import Clock, Deadlines

log = logging.getLogger("kaiten.scheduler")

#: How long a claimed deadline stays out of other processes' reach: if the claiming process dies
#: before it acts, another one claims the deadline again after this.
LEASE = timedelta(seconds=30)
#: Games claimed at once; a full batch is followed by the next at once.
BATCH = 20


class Scheduler:
    def __init__(self, deadlines: Deadlines, games: Games, clock: Clock, interval_seconds: float = 1.0) -> None:
        self.deadlines = deadlines
        self.games = games
        self.clock = clock
        self.interval_seconds = interval_seconds
        #: Games without a deadline are given one once per process, when abandonment is on.
        self._adopted = games.abandon_after is None

    async def run_once(self) -> int:
        """Act on the games due now; how many were claimed."""
        if not self._adopted:
            adopted = await self.deadlines.adopt(self.clock.now())
            self._adopted = True
            if adopted:
                log.info("%d games without a deadline are looked at for abandonment", adopted)
        claimed = await self.deadlines.claim(self.clock.now(), LEASE, BATCH)
        for game_id in claimed:
            try:
                woken = await self.games.wake(game_id)
            except (RuleViolation, ServiceError) as error:
                # The game cannot act now (it is contended, say): its claim runs out and it is tried again.
                log.warning("deadline of game %s not fired: %s", game_id, error)
                continue
            if not woken.fired:
                await self.deadlines.reschedule(game_id, woken.version, woken.wake_at)
        return len(claimed)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        task = asyncio.create_task(self._run())
        try:
            yield
        finally:
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            try:
                claimed = await self.run_once()
            except Exception:
                # The database may be out of reach for a while: keep going, the deadlines wait in it.
                log.exception("the scheduler failed to fire due deadlines")
                claimed = 0
            if claimed < BATCH:
                await asyncio.sleep(self.interval_seconds)
