"""The gap test: writers whose transactions commit out of position order, and a projection reading all
along, which sees every event exactly once (a `global_position > n` reader would skip some)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

import msgspec
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from kaiten.adapters.projections.log import LogEvent
from kaiten.adapters.projections.runner import ProjectionRunner, running
from kaiten.adapters.schema import events
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.services.ports import NewEvent

pytestmark = pytest.mark.postgres

#: What the recording projection saw, in the order it applied it (a test table, not a read model).
seen = sa.Table(
    "test_seen_events",
    sa.MetaData(),
    sa.Column("stream_id", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("global_position", sa.BigInteger, nullable=False),
    sa.Column("applied", sa.BigInteger, nullable=False),
)

FAST_WRITERS, APPENDS = 6, 40
SLOW_WRITERS, HELD_OPEN = 6, 5


class Recorder:
    """Writes down every event it is given, in the batch's transaction like any projection."""

    name = "test-recorder"
    handles = None
    tables = (seen,)

    def __init__(self) -> None:
        self._order = itertools.count()

    async def apply(self, connection: AsyncConnection, batch: Sequence[LogEvent]) -> None:
        rows = [
            {
                "stream_id": event.stream_id,
                "version": event.version,
                "global_position": event.global_position,
                "applied": next(self._order),
            }
            for event in batch
        ]
        await connection.execute(sa.insert(seen), rows)


def ping(number: int) -> NewEvent:
    return NewEvent(type="Ping", data=msgspec.json.encode({"type": "Ping", "n": number}))


async def fast_writer(store: SqlEventStore, rng: random.Random) -> int:
    """Appends that commit at once, each in its own transaction; the number of events written."""
    stream, version = str(uuid.uuid4()), 0
    for number in range(APPENDS):
        batch = [ping(number)] * rng.randint(1, 3)
        await store.append(stream, version, batch)
        version += len(batch)
        await asyncio.sleep(rng.random() * 0.01)
    return version


async def slow_writer(engine: AsyncEngine, rng: random.Random) -> int:
    """Inserts an event, then keeps its transaction open while later positions commit."""
    row = {"type": "Ping", "data": '{"type": "Ping"}', "metadata": "{}", "recorded_at": datetime.now(UTC)}
    for _ in range(HELD_OPEN):
        async with engine.begin() as connection:
            await connection.execute(sa.insert(events), {**row, "stream_id": str(uuid.uuid4()), "version": 1})
            await asyncio.sleep(0.05 + rng.random() * 0.3)
    return HELD_OPEN


async def naive_reader(engine: AsyncEngine, found: set[tuple[str, int]]) -> None:
    """Reads by position alone (`global_position > n`), as a projection must not, until cancelled."""
    after = 0
    query = sa.select(events.c.global_position, events.c.stream_id, events.c.version).order_by(events.c.global_position)
    while True:
        async with engine.connect() as connection:
            rows = (await connection.execute(query.where(events.c.global_position > after))).all()
        for position, stream_id, version in rows:
            found.add((stream_id, version))
            after = max(after, position)
        await asyncio.sleep(0.002)


async def test_a_projection_running_throughout_sees_every_event_exactly_once(
    fresh_postgres_engine: AsyncEngine,
) -> None:
    engine = fresh_postgres_engine
    async with engine.begin() as connection:
        await connection.run_sync(seen.create)
    store = SqlEventStore(engine)
    rng = random.Random(7)
    runner = ProjectionRunner(engine, Recorder(), batch_size=5, poll_seconds=0.005)

    naively_found: set[tuple[str, int]] = set()
    naive = asyncio.create_task(naive_reader(engine, naively_found))
    async with running([runner]):
        written = await asyncio.gather(
            *(fast_writer(store, random.Random(rng.random())) for _ in range(FAST_WRITERS)),
            *(slow_writer(engine, random.Random(rng.random())) for _ in range(SLOW_WRITERS)),
        )
        while (await runner.lag()).events:
            await asyncio.sleep(0.01)
    naive.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await naive

    async with engine.connect() as connection:
        logged = set((await connection.execute(sa.select(events.c.stream_id, events.c.version))).all())
        applied = (
            await connection.execute(
                sa.select(seen.c.stream_id, seen.c.version, seen.c.global_position).order_by(seen.c.applied)
            )
        ).all()
    assert len(logged) == sum(written)
    assert sorted((stream, version) for stream, version, _ in applied) == sorted(logged)
    # The race happened: reading by position alone passed over events whose transactions committed late.
    assert naively_found < logged
