"""The appends' own PostgreSQL connections: a few, always in autocommit mode, each running one
statement at a time.

An append is one statement that needs no transaction around it (adapters/sql_store.py). Taken from
SQLAlchemy's pool, each one paid for the checkout and the check-in (an `AsyncConnection` and its
greenlets, a task to close it, the pool's queue and events, a rollback as it went back) and for
psycopg's autocommit switched on and off: 284 k instructions, 18% of a person's command
(bench/README.md). psycopg_pool's pool costs 200 k of them as well. Here a connection is taken from a
list and put back, and nothing else.

They are part of the process's budget (KAITEN_DB_CONNECTIONS): the engine's pool holds the others
(api/bootstrap.py). A failure is raised as SQLAlchemy raises it for a statement its engine runs
(`DBAPIError.instance`: `IntegrityError` for a lost race or a retried key, `OperationalError` for a
database out of reach, which the API answers 503 `database-unavailable`). A connection that was lost
is closed, and so are the idle ones (a restart or a failover loses them all, as SQLAlchemy
invalidates its pool); one whose statement was interrupted is in an unknown state, and is closed too.
Past `timeout` seconds waiting for a connection, the request fails as a checkout of SQLAlchemy's pool
would (`sqlalchemy.exc.TimeoutError`, 503 `database-busy`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

import psycopg
from sqlalchemy.exc import DBAPIError, StatementError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine

#: A row of a statement's result.
Row = tuple[Any, ...]


class AppendConnections:
    """At most `size` connections, opened as they are first needed, with `connect_args` beside the
    engine's URL; an append waits up to `timeout` seconds for one."""

    def __init__(self, engine: AsyncEngine, size: int, timeout: float, connect_args: dict[str, Any]) -> None:
        if size < 1:
            raise ValueError("the appends need at least one connection")
        self._dialect = engine.dialect
        arguments, options = engine.dialect.create_connect_args(engine.url)
        self._arguments, self._options = arguments, {**options, **connect_args, "autocommit": True}
        self._size, self._timeout = size, timeout
        self._idle: deque[psycopg.AsyncConnection[Any]] = deque()
        # Taken by each append for as long as it holds a connection, idle or opening ones included.
        self._slots = asyncio.Semaphore(size)
        self._closed = False
        #: Appends holding a connection now (the pool metrics report it).
        self.in_use = 0

    @property
    def size(self) -> int:
        return self._size

    async def run(self, statement: str, parameters: dict[str, Any]) -> list[Row]:
        """The statement's rows, run prepared (psycopg prepares nothing when told not to: a pooler)."""
        try:
            async with asyncio.timeout(self._timeout):
                await self._slots.acquire()
        except TimeoutError:
            raise PoolTimeout(f"no connection for an append came free within {self._timeout} s") from None
        self.in_use += 1
        try:
            connection = self._idle.pop() if self._idle else await self._connect(statement, parameters)
            try:
                async with connection.cursor() as cursor:
                    await cursor.execute(statement, parameters, prepare=True)
                    rows = await cursor.fetchall()
            except BaseException as error:
                lost = _lost(connection)
                await self._drop(connection, error, lost)
                if isinstance(error, psycopg.Error):
                    raise self._failure(error, statement, parameters, invalidated=lost) from error
                raise
            if self._closed:
                await connection.close()
            else:
                self._idle.append(connection)
            return rows
        finally:
            self.in_use -= 1
            self._slots.release()

    async def close(self) -> None:
        """Close the idle connections; the ones in use are closed as their statements end."""
        self._closed = True
        while self._idle:
            await self._idle.pop().close()

    async def _connect(self, statement: str, parameters: dict[str, Any]) -> psycopg.AsyncConnection[Any]:
        try:
            return await psycopg.AsyncConnection.connect(*self._arguments, **self._options)
        except psycopg.Error as error:
            raise self._failure(error, statement, parameters, invalidated=True) from error

    async def _drop(self, connection: psycopg.AsyncConnection[Any], error: BaseException, lost: bool) -> None:
        """Close a connection that failed unless its statement was merely refused; after a lost one, the
        idle ones too."""
        refused = isinstance(error, psycopg.Error) and not lost
        if refused and not self._closed and connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            self._idle.append(connection)
            return
        await connection.close()
        while lost and self._idle:
            await self._idle.pop().close()

    def _failure(
        self,
        error: psycopg.Error,
        statement: str,
        parameters: dict[str, Any],
        *,
        invalidated: bool,
    ) -> StatementError:
        return DBAPIError.instance(
            statement, parameters, error, psycopg.Error, connection_invalidated=invalidated, dialect=self._dialect
        )


def _lost(connection: psycopg.AsyncConnection[Any]) -> bool:
    return connection.closed or connection.broken
