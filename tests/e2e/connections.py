"""Counting a database's connections in pg_stat_activity while servers work."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import psycopg

from kaiten.adapters.database import async_url

#: How often the connections are counted while the servers work.
SAMPLE_SECONDS = 0.02


def conninfo(url: str) -> str:
    """libpq's form of a test database URL, for psycopg itself."""
    return async_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Counter:
    """Counts the connections to one database, again and again, keeping the most seen at once."""

    def __init__(self, connection: psycopg.AsyncConnection[tuple[int, list[str]]], database: str) -> None:
        self._connection = connection
        self._database = database
        self.most = 0
        self.names: set[str] = set()
        self.samples = 0

    async def count(self) -> int:
        query = (
            "SELECT count(*), coalesce(array_agg(DISTINCT application_name), '{}') FROM pg_stat_activity"
            " WHERE datname = %s"
        )
        cursor = await self._connection.execute(query, (self._database,))
        row = await cursor.fetchone()
        assert row is not None
        count, names = row
        self.most = max(self.most, count)
        self.names.update(names)
        self.samples += 1
        return count

    @contextlib.asynccontextmanager
    async def sampling(self) -> AsyncIterator[None]:
        async def sample() -> None:
            while True:
                await self.count()
                await asyncio.sleep(SAMPLE_SECONDS)

        task = asyncio.create_task(sample())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        # A sample after the work too: the pool keeps what it opened.
        await self.count()
