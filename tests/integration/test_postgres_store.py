"""What only PostgreSQL does: statement triggers, transaction ids, writers in several processes."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

import msgspec
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from kaiten.adapters.database import create_engine
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.services.ports import ConcurrencyConflict, GameSummary, NewEvent

pytestmark = pytest.mark.postgres


@asynccontextmanager
async def admin_connection(url: str) -> AsyncIterator[AsyncConnection]:
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            yield connection
    finally:
        await engine.dispose()


def event(type_: str) -> NewEvent:
    return NewEvent(type=type_, data=msgspec.json.encode({"type": type_}))


@pytest.mark.parametrize(
    "statement",
    ["TRUNCATE events", "DELETE FROM events WHERE false", "UPDATE events SET type = type WHERE false"],
    ids=["truncate", "delete-nothing", "update-nothing"],
)
async def test_statement_trigger_refuses_even_harmless_changes(postgres_engine: AsyncEngine, statement: str) -> None:
    # Never committed, so even a missing trigger could not empty the session's database.
    async with postgres_engine.connect() as connection:
        with pytest.raises(DBAPIError, match="events are immutable"):
            await connection.execute(sa.text(statement))


async def test_tx_id_is_the_writing_transaction(postgres_engine: AsyncEngine) -> None:
    store = SqlEventStore(postgres_engine)
    stream = str(uuid.uuid4())
    await store.append(stream, 0, [event("GameCreated"), event("SeatTaken")])
    await store.append(stream, 2, [event("SeatTaken")])
    async with postgres_engine.connect() as connection:
        result = await connection.execute(
            sa.text("SELECT tx_id::text::bigint FROM events WHERE stream_id = :stream ORDER BY version"),
            {"stream": stream},
        )
        first, same, later = result.scalars().all()
    assert first == same
    assert later > first


async def write_version_2(connection: AsyncConnection, stream: str) -> None:
    """Version 2 of the stream, written in the connection's open transaction (a rival writer)."""
    await connection.execute(
        sa.text(
            "INSERT INTO events (stream_id, version, type, data, metadata, recorded_at)"
            " VALUES (:stream, 2, 'SeatTaken', '{}', '{}', now())"
        ),
        {"stream": stream},
    )


async def test_writer_passing_the_guard_alongside_another_gets_a_conflict(postgres_engine: AsyncEngine) -> None:
    """The unique constraint backs the version guard when two transactions both see the old version."""
    store = SqlEventStore(postgres_engine)
    stream = str(uuid.uuid4())
    await store.append(stream, 0, [event("GameCreated")])
    async with postgres_engine.connect() as rival:
        # The rival writes version 2 and holds its transaction open...
        await write_version_2(rival, stream)
        # ...so the append still sees version 1, passes the guard and waits on the unique index.
        append = asyncio.create_task(store.append(stream, 1, [event("SeatTaken")]))
        await asyncio.sleep(0.3)
        assert not append.done()
        await rival.commit()
    with pytest.raises(ConcurrencyConflict):
        await append
    assert [e.version for e in await store.read(stream)] == [1, 2]


async def test_writers_in_several_processes_keep_versions_contiguous(postgres_url: str) -> None:
    """Several engines stand for several `kaiten serve` processes sharing the database."""
    engines = [create_engine(postgres_url, pool_size=3, max_overflow=0) for _ in range(4)]
    stores = [SqlEventStore(engine) for engine in engines]
    streams = [str(uuid.uuid4()) for _ in range(2)]
    for stream in streams:
        await stores[0].append(stream, 0, [event("GameCreated")])
    appended = {stream: 0 for stream in streams}
    conflicts = 0

    async def writer(store: SqlEventStore, stream: str) -> None:
        nonlocal conflicts
        for _ in range(6):
            current = len(await store.read(stream))
            try:
                await store.append(stream, current, [event("CardPicked"), event("CardPicked")])
            except ConcurrencyConflict:
                conflicts += 1
            else:
                appended[stream] += 1

    try:
        await asyncio.gather(*(writer(store, stream) for store in stores for stream in streams for _ in range(3)))
        for stream in streams:
            read = await stores[0].read(stream)
            assert [e.version for e in read] == list(range(1, 2 * appended[stream] + 2))
    finally:
        for engine in engines:
            await engine.dispose()
    assert sum(appended.values()) + conflicts == len(stores) * len(streams) * 3 * 6


async def test_a_summary_with_a_naive_time_is_refused_and_writes_nothing(postgres_engine: AsyncEngine) -> None:
    """The append's one statement carries the summary as JSON, where a naive time would be read in the
    session's time zone: it is refused as a `UtcDateTime` column refuses it."""
    store = SqlEventStore(postgres_engine)
    stream = str(uuid.uuid4())
    now = datetime(2026, 12, 4, 17, 0)
    naive = GameSummary(stream, "sushi-go", "open", 1, 2, {}, [], [], None, {}, now.replace(tzinfo=UTC), now)
    with pytest.raises(ValueError, match="naive datetime"):
        await store.append(stream, 0, [event("GameCreated")], naive)
    assert await store.read(stream) == []
