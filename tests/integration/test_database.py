"""Engines: which URLs are accepted, and how SQLite connections are set up for concurrent use."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import SQLITE_BUSY_TIMEOUT_MS, async_url, create_engine, for_writes


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgres://kaiten:secret@db:5432/kaiten", "postgresql+psycopg://kaiten:secret@db:5432/kaiten"),
        ("postgresql://kaiten@db/kaiten", "postgresql+psycopg://kaiten@db/kaiten"),
        ("postgresql+psycopg://kaiten@db/kaiten", "postgresql+psycopg://kaiten@db/kaiten"),
        ("sqlite:///kaiten.sqlite3", "sqlite+aiosqlite:///kaiten.sqlite3"),
        ("sqlite:////var/lib/kaiten.sqlite3", "sqlite+aiosqlite:////var/lib/kaiten.sqlite3"),
        ("sqlite+aiosqlite:///kaiten.sqlite3", "sqlite+aiosqlite:///kaiten.sqlite3"),
    ],
)
def test_urls_get_the_async_drivers(given: str, expected: str) -> None:
    assert async_url(given).render_as_string(hide_password=False) == expected


@pytest.mark.parametrize(
    "url", ["mysql://kaiten@db/kaiten", "postgresql+asyncpg://kaiten@db/kaiten", "sqlite://", "sqlite:///:memory:"]
)
def test_other_urls_are_refused(url: str) -> None:
    with pytest.raises(ValueError):
        async_url(url)


@pytest.fixture
async def sqlite_engine(sqlite_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(sqlite_url)
    yield engine
    await engine.dispose()


async def test_sqlite_connections_are_set_up(sqlite_engine: AsyncEngine) -> None:
    async with sqlite_engine.connect() as connection:
        assert (await connection.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
        assert (await connection.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
        assert (await connection.exec_driver_sql("PRAGMA busy_timeout")).scalar() == SQLITE_BUSY_TIMEOUT_MS


async def test_sqlite_writers_take_turns_from_begin(sqlite_engine: AsyncEngine) -> None:
    """A writer waits at BEGIN for the one before it, rather than failing later as "locked"."""
    writer = for_writes(sqlite_engine)

    async def write() -> None:
        async with writer.begin():
            pass

    async with writer.connect() as first:
        await first.begin()
        # Readers are not held up by the writer (write-ahead log).
        async with sqlite_engine.connect() as reader:
            await reader.exec_driver_sql("SELECT count(*) FROM events")
        second = asyncio.create_task(write())
        await asyncio.sleep(0.3)
        assert not second.done()
        await first.commit()
    await asyncio.wait_for(second, timeout=5)


#: A statement that keeps SQLite busy for a while (counting to a few million), to be cancelled in.
SLOW = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT count(*) FROM n"


async def test_a_writer_cancelled_mid_statement_leaves_the_database_writable(
    sqlite_engine: AsyncEngine, sqlite_url: str
) -> None:
    """A task cancelled while its statement runs (a stopping scheduler's, a timed-out one's) has its
    connection closed by SQLAlchemy with no rollback, and its cursor lives on in the traceback: its
    transaction, and the single write lock, must end with the connection all the same."""
    writer = for_writes(sqlite_engine)
    async with writer.begin() as connection:
        await connection.exec_driver_sql("CREATE TABLE scratch (x INTEGER)")
    started = asyncio.Event()

    async def write_then_think() -> None:
        async with writer.begin() as connection:
            await connection.exec_driver_sql("INSERT INTO scratch VALUES (1)")
            started.set()
            await connection.exec_driver_sql(SLOW)

    task = asyncio.create_task(write_then_think())
    await started.wait()
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError) as cancelled:
        await task
    # The traceback (kept here as a log record or a caught error would keep it) holds the cursor.
    assert cancelled.value.__traceback__ is not None

    def next_writer_gets_the_lock() -> bool:
        probe = sqlite3.connect(sqlite_url.removeprefix("sqlite+aiosqlite:///"), timeout=5, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")
            written = probe.execute("SELECT count(*) FROM scratch").fetchone()[0]
            probe.execute("ROLLBACK")
            return written == 0
        finally:
            probe.close()

    assert await asyncio.to_thread(next_writer_gets_the_lock), "the cancelled write was rolled back"


async def test_a_sqlite_connection_closed_twice_closes_quietly(sqlite_engine: AsyncEngine) -> None:
    """SQLAlchemy closes a cancelled request's connection and aiosqlite closes it again as it stops: the
    second close raised "Cannot operate on a closed database" in aiosqlite's thread, which a serving
    process logged as an error (a future's exception never retrieved)."""
    async with sqlite_engine.connect() as connection:
        raw = await connection.get_raw_connection()
        kind = type(raw.driver_connection._connection)  # the sqlite3 connection class kaiten connects with
    assert issubclass(kind, sqlite3.Connection) and kind is not sqlite3.Connection
    closing = sqlite3.connect(":memory:", factory=kind)
    closing.execute("BEGIN")
    closing.execute("CREATE TABLE scratch (x INTEGER)")
    closing.close()
    closing.close()
