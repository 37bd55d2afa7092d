"""The scheduler every serving process runs: it claims the games whose deadline is due and lets the
ordinary use case act on them (`Games.wake`), so a timeout or a bot's move obeys the same version
guard as a person's command and fires once however many processes run; a deadline that fell due while
none ran is due at the next start.

It claims as many games as it can act on at once (its bots' workers, and as many again for the wakes
that wait on the database), looks again whenever one of them is done or an append of this process
leaves a bot owed a move (`nudge`), and otherwise every `interval_seconds`.

A claim lasts until the wake is done and the process gives it back (`Deadlines.release`), whatever
appends write meanwhile: a person's pick while the game's bot thinks leaves the bot owed and makes the
deadline due at once, and no scheduler, of this process or another, claims the game before the wake
under way is done (a second search of the same decision, of which at most one could be appended).
Once given back, the game is due again if its deadline says so, and the next look claims it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from datetime import datetime, timedelta

from kaiten.domain.engine import RuleViolation
from kaiten.services.errors import ServiceError
from kaiten.services.failures import RepeatedFailures
from kaiten.services.games import Games
from kaiten.services.ports import Clock, Deadlines

log = logging.getLogger("kaiten.scheduler")

#: How long a claimed deadline stays out of other processes' reach: if the claiming process dies
#: before it acts, another one claims the deadline again after this. Longer than any bot's decision.
DEFAULT_LEASE = timedelta(seconds=30)
#: Games claimed at once by `run_once`.
BATCH = 20
#: A stopping process gives back the claims it will not act on within this, or leaves them to their lease.
RELEASE_SECONDS = 5.0


class Scheduler:
    def __init__(
        self,
        deadlines: Deadlines,
        games: Games,
        clock: Clock,
        interval_seconds: float = 1.0,
        lease: timedelta = DEFAULT_LEASE,
    ) -> None:
        self.deadlines = deadlines
        self.games = games
        self.clock = clock
        self.interval_seconds = interval_seconds
        self.lease = lease
        #: Games acted on at once: every bot worker busy, and as many wakes waiting on the database.
        self.concurrency = 2 * games.bots.workers
        #: Games without a deadline are given one once per process, when abandonment is on.
        self._adopted = games.abandon_after is None
        self._nudged = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        #: The games this process claimed and has not given back yet, with the time each claim runs to.
        self._claims: dict[str, datetime] = {}
        #: The games a wake of this process is acting on, and its task.
        self._acting: dict[str, asyncio.Task[None]] = {}

    def nudge(self, _game_id: str = "") -> None:
        """Look for due games now rather than at the next interval (an append left a bot owed a move).
        Safe from any thread: an embedding program may append from another event loop than ours."""
        if self._loop is None:
            self._nudged.set()
        else:
            self._loop.call_soon_threadsafe(self._nudged.set)

    async def run_once(self) -> int:
        """Act on the games due now, one after another; how many were claimed."""
        claimed = await self._claim(BATCH)
        for game_id in claimed:
            if await self._wake(game_id):
                await self._release(game_id)
        return len(claimed)

    async def _claim(self, limit: int) -> list[str]:
        if not self._adopted:
            adopted = await self.deadlines.adopt(self.clock.now())
            self._adopted = True
            if adopted:
                log.info("%d games without a deadline are looked at for abandonment", adopted)
        now = self.clock.now()
        claimed = await self.deadlines.claim(now, self.lease, limit)
        self._claims.update(dict.fromkeys(claimed, now + self.lease))
        return claimed

    async def _wake(self, game_id: str) -> bool:
        """Act on a claimed game; whether its claim is spent (else it runs out, and the game is tried again)."""
        try:
            woken = await self.games.wake(game_id)
        except (RuleViolation, ServiceError) as error:
            # The game cannot act now (it is contended, say): its claim runs out and it is tried again.
            self._claims.pop(game_id, None)
            log.warning("deadline of game %s not fired: %s", game_id, error)
            return False
        if not woken.fired:
            await self.deadlines.reschedule(game_id, woken.version, woken.wake_at)
        return True

    async def _release(self, game_id: str) -> None:
        """Give back a spent claim: the game is due again when its deadline says so."""
        claimed_until = self._claims.get(game_id)
        if claimed_until is not None:
            await self.deadlines.release(game_id, claimed_until)
            if self._claims.get(game_id) == claimed_until:
                del self._claims[game_id]

    async def _release_claims(self) -> None:
        """A process that stops while bots think gives their games back at once: another process would
        otherwise wait for the lease to run out before making their moves (a rolling restart)."""
        claims, self._claims = self._claims, {}
        try:
            async with asyncio.timeout(RELEASE_SECONDS):
                for game_id, claimed_until in claims.items():
                    await self.deadlines.release(game_id, claimed_until)
        except Exception:
            log.exception("the scheduler could not give back %d claims; they run out with their lease", len(claims))

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        self._loop = asyncio.get_running_loop()
        task = asyncio.create_task(self._run())
        try:
            yield
        finally:
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
            self._loop = None

    async def _run(self) -> None:
        acting = self._acting
        failures = RepeatedFailures(log, "the scheduler's claim of due deadlines")
        try:
            while True:
                self._nudged.clear()
                free = self.concurrency - len(acting)
                claimed: list[str] = []
                if free > 0:
                    try:
                        claimed = await self._claim(free)
                    except Exception as error:
                        # The database may be out of reach for a while: keep going, the deadlines wait in it.
                        failures.failed(error)
                    else:
                        failures.succeeded()
                for game_id in claimed:
                    # Claimed again under way only once its lease ran out: the wake under way gives
                    # back the newer claim.
                    if game_id not in acting:
                        acting[game_id] = asyncio.create_task(self._acting_on(game_id))
                if claimed and len(claimed) == free:
                    continue  # more may be due: look again once one is done (the done callback nudges)
                with suppress(TimeoutError):
                    async with asyncio.timeout(self.interval_seconds):
                        await self._nudged.wait()
        finally:
            tasks = list(acting.values())
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self._release_claims()

    async def _acting_on(self, game_id: str) -> None:
        spent = False
        try:
            spent = await self._wake(game_id)
        except Exception:
            log.exception("the scheduler failed to act on game %s", game_id)
        finally:
            # No longer acted on before its claim is given back: a claim of it after that starts a wake.
            self._acting.pop(game_id, None)
        try:
            if spent:
                await self._release(game_id)
        except Exception:
            log.exception("the scheduler could not give game %s back; its claim runs out with its lease", game_id)
        finally:
            self._nudged.set()
