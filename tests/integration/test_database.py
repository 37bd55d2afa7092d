"""Engines: which URLs are accepted, and how SQLite connections are set up for concurrent use."""

from __future__ import annotations

import asyncio
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
