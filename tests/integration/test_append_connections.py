"""The appends' own connections (adapters/append_connections.py): failures raised as SQLAlchemy raises
them, lost and interrupted connections replaced, refused statements keeping theirs, the statement
prepared once, nothing prepared through a pooler, a wait for a connection bounded."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import msgspec
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.append_connections import AppendConnections
from kaiten.adapters.database import append_connections, create_engine
from kaiten.adapters.metrics import POOLS
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.services.ports import ConcurrencyConflict, DuplicateIdempotencyKey, NewEvent
from tests.integration.test_postgres_store import admin_connection, write_version_2

pytestmark = pytest.mark.postgres

#: The append's statement as PostgreSQL keeps it once prepared.
PREPARED_APPENDS = "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'WITH appended AS%%'"


def event(type_: str) -> NewEvent:
    return NewEvent(type=type_, data=msgspec.json.encode({"type": type_}))


@asynccontextmanager
async def store_with(
    url: str, size: int = 1, timeout: float = 10.0, pooler: bool = False
) -> AsyncIterator[tuple[SqlEventStore, AppendConnections, AsyncEngine]]:
    engine = create_engine(url, pool_size=1, pooler=pooler)
    appends = append_connections(engine, size, timeout, pooler)
    try:
        yield SqlEventStore(engine, appends=appends), appends, engine
    finally:
        await appends.close()
        await engine.dispose()


async def backend_of(appends: AppendConnections) -> int:
    [(pid,)] = await appends.run("SELECT pg_backend_pid()", {})
    return int(pid)


async def test_an_append_on_a_connection_the_server_dropped_fails_as_sqlalchemys_and_the_next_one_reconnects(
    postgres_url: str,
) -> None:
    """What the API answers 503 `database-unavailable`: SQLAlchemy's error, the connection invalidated."""
    name = f"kaiten-dropped-{uuid.uuid4().hex[:8]}"
    async with store_with(f"{postgres_url}?application_name={name}") as (store, appends, _):
        stream = str(uuid.uuid4())
        await store.append(stream, 0, [event("GameCreated")])
        dropped = await backend_of(appends)
        async with admin_connection(postgres_url) as admin:
            await admin.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": dropped})
        with pytest.raises(OperationalError) as failed:
            await store.append(stream, 1, [event("SeatTaken")])
        assert failed.value.connection_invalidated
        await store.append(stream, 1, [event("SeatTaken")])
        assert [e.version for e in await store.read(stream)] == [1, 2]
        assert await backend_of(appends) != dropped


async def test_an_append_cancelled_while_it_waits_writes_nothing_and_its_connection_is_replaced(
    postgres_url: str,
) -> None:
    """Cancelled mid-statement, its connection is in an unknown state: it is closed, the statement
    cancelled with it, and the next append gets a new connection."""
    async with store_with(postgres_url) as (store, appends, _):
        stream = str(uuid.uuid4())
        await store.append(stream, 0, [event("GameCreated")])
        first = await backend_of(appends)
        async with admin_connection(postgres_url) as rival:
            # Holds the version the append would write, so the append waits on the unique index.
            await write_version_2(rival, stream)
            append = asyncio.create_task(store.append(stream, 1, [event("SeatTaken")], idempotency_key="late"))
            await asyncio.sleep(0.3)
            append.cancel()
            with pytest.raises(asyncio.CancelledError):
                await append
            await rival.rollback()
        await store.append(stream, 1, [event("SeatTaken")], idempotency_key="late")
        assert [e.version for e in await store.read(stream)] == [1, 2]
        assert await backend_of(appends) != first


async def test_a_refused_append_keeps_its_connection(postgres_url: str) -> None:
    async with store_with(postgres_url) as (store, appends, _):
        stream = str(uuid.uuid4())
        await store.append(stream, 0, [event("GameCreated")], idempotency_key="k")
        kept = await backend_of(appends)
        with pytest.raises(ConcurrencyConflict):
            await store.append(stream, 0, [event("GameCreated")])
        with pytest.raises(DuplicateIdempotencyKey):
            await store.append(stream, 1, [event("SeatTaken")], idempotency_key="k")
        assert await backend_of(appends) == kept


async def test_appends_need_no_connection_of_the_engines_pool(postgres_url: str) -> None:
    async with store_with(postgres_url) as (store, _, engine):
        stream = str(uuid.uuid4())
        async with engine.connect() as held, asyncio.timeout(5):
            # The engine's one pooled connection is taken for as long as the appends run.
            await held.execute(sa.text("SELECT 1"))
            await store.append(stream, 0, [event("GameCreated")])
            await store.append(stream, 1, [event("SeatTaken")])
        assert [e.version for e in await store.read(stream)] == [1, 2]


async def test_the_appends_statement_is_prepared_at_its_first_run(postgres_url: str) -> None:
    async with store_with(postgres_url) as (store, appends, _):
        stream = str(uuid.uuid4())
        await store.append(stream, 0, [event("GameCreated")])
        assert await appends.run(PREPARED_APPENDS, {}) == [(1,)]
        await store.append(stream, 1, [event("SeatTaken")])
        assert await appends.run(PREPARED_APPENDS, {}) == [(1,)]


async def test_appends_through_a_pooler_prepare_nothing(postgres_url: str) -> None:
    """Through a pooler in transaction mode a prepared statement would be looked for on another server
    connection: psycopg is told to prepare none."""
    async with store_with(postgres_url, pooler=True) as (store, appends, _):
        stream = str(uuid.uuid4())
        for version in range(8):
            await store.append(stream, version, [event("GameCreated" if version == 0 else "SeatTaken")])
        assert await appends.run("SELECT count(*) FROM pg_prepared_statements", {}) == [(0,)]


async def test_a_wait_for_a_connection_past_the_timeout_fails_as_a_pools_checkout(postgres_url: str) -> None:
    async with store_with(postgres_url, size=1, timeout=0.3) as (_, appends, _engine):
        holding = asyncio.create_task(appends.run("SELECT pg_sleep(2)", {}))
        await asyncio.sleep(0.2)
        with pytest.raises(PoolTimeout):
            await appends.run("SELECT 1", {})
        await holding
        assert await appends.run("SELECT 1", {}) == [(1,)]


async def test_a_database_out_of_reach_fails_as_sqlalchemys_with_the_connection_invalidated() -> None:
    async with store_with("postgresql://postgres@127.0.0.1:1/nowhere") as (store, _, _engine):
        with pytest.raises(DBAPIError) as failed:
            await store.append(str(uuid.uuid4()), 0, [event("GameCreated")])
        assert isinstance(failed.value, OperationalError)
        assert failed.value.connection_invalidated


async def test_the_pool_metrics_count_the_appends_connections(postgres_url: str) -> None:
    def figures() -> dict[str, float]:
        return {
            family.name: sample.value
            for family in POOLS.collect()
            for sample in family.samples
            if sample.labels == {"pool": "appends"}
        }

    async with store_with(postgres_url, size=2) as (_, appends, _engine):
        unwatch = POOLS.watch("appends", appends)
        try:
            holding = asyncio.create_task(appends.run("SELECT pg_sleep(0.5)", {}))
            await asyncio.sleep(0.2)
            assert figures() == {"kaiten_db_pool_checked_out": 1, "kaiten_db_pool_size": 2}
            await holding
            assert figures() == {"kaiten_db_pool_checked_out": 0, "kaiten_db_pool_size": 2}
        finally:
            unwatch()
