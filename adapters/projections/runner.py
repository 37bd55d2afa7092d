"""Runs one projection: reads the log after its checkpoint and applies it, batch by batch.

Each batch is one transaction: claim the checkpoint row, read the next events, apply them, move the
checkpoint past them, commit. A crash anywhere rolls the whole batch back, checkpoint included, so
after a restart the same events are applied again, once: nothing is lost and nothing counted twice.
An event the projection cannot apply is set aside (adapters/projections/quarantine.py) and the batch
goes on without it: no event stops the read side.

Between batches the runner waits for a notice that events of the types projections apply were
appended (PROJECTED_EVENTS, when it has a Notifier) or for the poll interval to pass, whichever comes
first: the rest of the log (a game's picks, most of it) moves no projection, so a batch after each of
those appends would only move the checkpoint, and the poll does that. On PostgreSQL a notice can come
before its events are readable (the log is read only below the oldest open transaction, so that no
event is skipped): when a notice brought nothing to read, the runner looks again soon, backing off
towards the poll interval.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Protocol

import msgspec
import sqlalchemy as sa
from prometheus_client import Gauge
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from kaiten.adapters.database import for_reads, for_writes
from kaiten.adapters.projections import quarantine
from kaiten.adapters.projections.checkpoints import Checkpoints
from kaiten.adapters.projections.log import START, GlobalLog, Lag, LogEvent
from kaiten.services.failures import RepeatedFailures
from kaiten.services.ports import PROJECTED_EVENTS, StreamNotifier

log = logging.getLogger("kaiten.projections")

LAG_EVENTS = Gauge("kaiten_projection_lag_events", "Events a projection has not applied yet", ["projection"])
LAG_SECONDS = Gauge("kaiten_projection_lag_seconds", "Age of the oldest event not applied yet", ["projection"])

#: After a catch-up the runner lets notices gather this long before the next: under a steady stream
#: of appends a batch then carries many events instead of one, for that much more lag.
SETTLE_SECONDS = 0.05

#: The first wait before reading again when a notice's events were held back; it doubles each time.
HELD_BACK_SECONDS = 0.05

#: The longest wait between looks while noticed events are still held back.
MAX_HELD_BACK_SECONDS = 1.0

#: How often the lag gauges are refreshed (each refresh costs two queries).
LAG_EVERY_SECONDS = 1.0

#: The longest wait between two attempts while batches keep failing (database down, a bug).
MAX_BACKOFF_SECONDS = 30.0


class Projection(Protocol):
    """A read model built from the log; its effects and its checkpoint commit together."""

    name: str
    #: The event types whose data `apply` needs; None for every type.
    handles: frozenset[str] | None
    #: The tables it owns: a rebuild empties them and applies the log again.
    tables: tuple[sa.Table, ...]

    async def apply(self, connection: AsyncConnection, events: Sequence[LogEvent]) -> None:
        """Apply a batch's events of the handled types, in log order, inside the batch's transaction."""


class Batch(msgspec.Struct, frozen=True):
    #: Events the batch read (and moved past), of any type.
    events: int
    #: Events applied since the last rebuild, this batch included.
    total: int


class ProjectionRunner:
    def __init__(
        self,
        engine: AsyncEngine,
        projection: Projection,
        *,
        notifier: StreamNotifier | None = None,
        batch_size: int = 2000,
        poll_seconds: float = 1.0,
    ) -> None:
        self.projection = projection
        self.batch_size = batch_size
        self.poll_seconds = poll_seconds
        self._reader = for_reads(engine)
        self._writer = for_writes(engine)
        self._notifier = notifier
        self._log = GlobalLog(engine.dialect.name, projection.handles)
        self._checkpoints = Checkpoints(engine.dialect.name)
        self._ensured = False

    @property
    def name(self) -> str:
        return self.projection.name

    async def run_batch(self) -> Batch | None:
        """Apply the next batch; None when another process holds this projection's checkpoint."""
        await self.ensure_checkpoint()
        async with self._writer.begin() as connection:
            checkpoint = await self._checkpoints.claim(connection, self.name)
            if checkpoint is None:
                return None
            events = await self._log.read(connection, checkpoint.position, self.batch_size)
            if not events:
                return Batch(events=0, total=checkpoint.events)
            handles = self.projection.handles
            wanted = events if handles is None else [event for event in events if event.data is not None]
            if wanted:
                await self._apply(connection, wanted)
            await self._checkpoints.advance(connection, self.name, events[-1].position, len(events))
        return Batch(events=len(events), total=checkpoint.events + len(events))

    async def _apply(self, connection: AsyncConnection, events: Sequence[LogEvent]) -> None:
        """The batch applied; when it cannot be, each event that can (adapters/projections/quarantine.py)."""
        try:
            async with connection.begin_nested():
                await self.projection.apply(connection, events)
        except Exception as error:
            if not quarantine.is_the_events_fault(error):
                raise
            for event in events:
                await self.apply_or_set_aside(connection, event)

    async def apply_or_set_aside(self, connection: AsyncConnection, event: LogEvent) -> bool:
        """One event applied in a savepoint; set aside when it cannot be (whether it was applied)."""
        try:
            async with connection.begin_nested():
                await self.projection.apply(connection, [event])
        except Exception as error:
            if not quarantine.is_the_events_fault(error):
                raise
            await quarantine.keep(connection, self.name, event, error)
            return False
        return True

    async def retry(self) -> tuple[int, int]:
        """Apply the quarantined events again, in log order: (applied now, still set aside)."""
        await self.ensure_checkpoint()
        async with self._writer.begin() as connection:
            # Held against the runners of other processes, so that no batch goes between.
            await self._checkpoints.claim(connection, self.name, wait=True)
            kept = await quarantine.listed(connection, self.name)
            await quarantine.release(connection, self.name, [item.global_position for item in kept])
            applied = 0
            for event in await quarantine.events_of(connection, kept):
                applied += await self.apply_or_set_aside(connection, event)
            return applied, len(kept) - applied

    async def quarantined(self) -> int:
        async with self._reader.connect() as connection:
            return await quarantine.count(connection, self.name)

    async def catch_up(self) -> int:
        """Apply batches until the log has nothing more to read now; the number of events read."""
        read = 0
        while True:
            batch = await self.run_batch()
            if batch is None:
                return read
            read += batch.events
            if batch.events < self.batch_size:
                return read

    async def lag(self) -> Lag:
        async with self._reader.connect() as connection:
            checkpoint = await self._checkpoints.read(connection, self.name)
            after = START if checkpoint is None else checkpoint.position
            return await self._log.lag(connection, after, datetime.now(UTC))

    async def run(self) -> None:
        """Catch up, wait to be woken or for the poll interval, and again, until cancelled."""
        wake = asyncio.Event()
        failures = RepeatedFailures(log, f"projection {self.name}")
        lag_measured_at = -LAG_EVERY_SECONDS
        # A notice came and nothing has been read since: its events may still be held back.
        noticed = False
        held_back = HELD_BACK_SECONDS
        async with self._wakeups(wake):
            while True:
                noticed = noticed or wake.is_set()
                wake.clear()
                try:
                    read = await self.catch_up()
                    if time.monotonic() - lag_measured_at >= LAG_EVERY_SECONDS:
                        lag = await self.lag()
                        lag_measured_at = time.monotonic()
                        LAG_EVENTS.labels(self.name).set(lag.events)
                        LAG_SECONDS.labels(self.name).set(lag.seconds)
                except Exception as error:
                    # The batch rolled back; a database outage passes, a bug is reported until fixed.
                    failures.failed(error)
                    delay = min(MAX_BACKOFF_SECONDS, self.poll_seconds * 2 ** min(failures.failing, 16))
                else:
                    failures.succeeded()
                    if read or not noticed or not (await self.lag()).events:
                        noticed, held_back, delay = False, HELD_BACK_SECONDS, self.poll_seconds
                    else:
                        # Another session's open transaction holds the noticed events back; how long
                        # is not ours to know, so look again often until they can be read.
                        delay, held_back = held_back, min(MAX_HELD_BACK_SECONDS, held_back * 2)
                    await asyncio.sleep(SETTLE_SECONDS)
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation
                # that comes as the wait ends, and the runner would then never stop.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(delay):
                        await wake.wait()

    async def ensure_checkpoint(self) -> None:
        """Create this projection's checkpoint at the start of the log unless it exists."""
        if not self._ensured:
            async with self._writer.begin() as connection:
                await self._checkpoints.ensure(connection, self.name)
            self._ensured = True

    @asynccontextmanager
    async def _wakeups(self, wake: asyncio.Event) -> AsyncIterator[None]:
        """Set `wake` on every PROJECTED_EVENTS notice (and RESYNC) while the block runs (never, without a
        notifier)."""
        if self._notifier is None:
            yield
            return
        notifier = self._notifier

        async def listen() -> None:
            try:
                async with notifier.subscribe_to(PROJECTED_EVENTS.stream_id) as notices:
                    async for _ in notices:
                        wake.set()
            except Exception:
                log.exception("projection %s stopped listening for appends; polling only", self.name)

        listener = asyncio.create_task(listen(), name=f"projection {self.name} listener")
        try:
            yield
        finally:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener


@asynccontextmanager
async def running(runners: Sequence[ProjectionRunner]) -> AsyncIterator[None]:
    """Run every runner in the background while the block runs; a batch in flight at exit rolls back."""
    tasks = [asyncio.create_task(runner.run(), name=f"projection {runner.name}") for runner in runners]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
