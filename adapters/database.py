"""Async engines for the two supported databases: PostgreSQL (psycopg 3) and SQLite (aiosqlite)."""

from __future__ import annotations

import sqlite3
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from kaiten.adapters.append_connections import AppendConnections

_ASYNC_DRIVERS = {
    "postgres": "postgresql+psycopg",
    "postgresql": "postgresql+psycopg",
    "sqlite": "sqlite+aiosqlite",
}

#: Execution option marking connections whose transactions will write (see `for_writes`).
_WRITES = "kaiten_writes"

#: How long a SQLite writer waits for the write lock before giving up with "database is locked".
SQLITE_BUSY_TIMEOUT_MS = 10_000

_json_encoder = msgspec.json.Encoder()


def async_url(url: str) -> URL:
    """The URL with the async driver this service uses: `postgres(ql)://` and `sqlite://` gain theirs."""
    parsed = make_url(url)
    parsed = parsed.set(drivername=_ASYNC_DRIVERS.get(parsed.drivername, parsed.drivername))
    if parsed.drivername not in ("postgresql+psycopg", "sqlite+aiosqlite"):
        raise ValueError(f"unsupported database URL {parsed!r}: use postgresql+psycopg:// or sqlite:///")
    if parsed.drivername == "sqlite+aiosqlite" and parsed.database in (None, "", ":memory:"):
        # Each pooled connection would see its own empty database, and migrations would be lost.
        raise ValueError("SQLite needs a file: sqlite:///path/to/kaiten.sqlite3")
    return parsed


#: A process's PostgreSQL connections by default, everything included (`KAITEN_DB_CONNECTIONS`).
DEFAULT_CONNECTIONS = 10
#: The connections of a process outside its pool: the one that LISTENs for appends (adapters/notify.py).
LISTENING_CONNECTIONS = 1
#: The fewest a serving process runs with: the listening one, one for the appends, and one pooled
#: one, which the requests' other statements and the background loops (projections, scheduler,
#: webhook deliveries) take in turn.
MIN_CONNECTIONS = LISTENING_CONNECTIONS + 2
#: How long a checkout waits for a pooled connection when all are in use before it fails
#: (`sqlalchemy.exc.TimeoutError`, which a request answers as `503 database-busy`).
POOL_TIMEOUT_SECONDS = 10.0
#: SQLite has no connection limit to keep to: its pool stays as large as before the budget.
SQLITE_POOL_SIZE = 20
#: How a process's pooled connections are named in pg_stat_activity, unless the URL names them.
APPLICATION_NAME = "kaiten"


def pool_size_for(url: str, connections: int = DEFAULT_CONNECTIONS, appends: bool = False) -> int:
    """The pool a process of that many PostgreSQL connections keeps beside its listening one and, for
    the primary (`appends`), beside its appends' own (SQLite's is not bounded by the budget)."""
    if async_url(url).get_backend_name() != "postgresql":
        return SQLITE_POOL_SIZE
    return connections - LISTENING_CONNECTIONS - (append_connections_for(connections) if appends else 0)


def append_connections_for(connections: int = DEFAULT_CONNECTIONS) -> int:
    """The appends' own connections (adapters/append_connections.py) of a process of that many: a third
    of those beside the listening one, at least one. An append holds its connection for one round
    trip, where a request's reads and the background loops' transactions hold theirs longer."""
    return max(1, (connections - LISTENING_CONNECTIONS) // 3)


def append_connections(engine: AsyncEngine, size: int, timeout: float, pooler: bool) -> AppendConnections:
    """The appends' own connections to the engine's database, connected as the engine connects."""
    return AppendConnections(engine, size, timeout, _connect_args(engine.url, pooler))


def create_engine(
    url: str,
    *,
    pool_size: int | None = None,
    max_overflow: int = 0,
    pool_timeout: float = POOL_TIMEOUT_SECONDS,
    pooler: bool = False,
) -> AsyncEngine:
    """An engine whose pool holds at most `pool_size` connections (by default, on PostgreSQL, the
    default budget less the listening connection) and never more: past them a checkout waits up to
    `pool_timeout` seconds. `pooler`: the URL is a connection pooler in transaction mode (PgBouncer),
    through which a session's prepared statements would be looked for on another server connection,
    so psycopg prepares none."""
    # A serving process's requests and catch-up projections share the pool. Past `pool_size`, each
    # overflow checkout would open a new PostgreSQL connection (a backend forked) and close it after,
    # which cost 16 clients' commands more than their own work in bench/api.py: so the pool's
    # connections are kept, and no more are opened (the budget, KAITEN_DB_CONNECTIONS).
    parsed = async_url(url)
    options: dict[str, Any] = {
        # Summary columns hold JSON: msgspec encodes and decodes it several times faster than json.
        "json_serializer": lambda value: _json_encoder.encode(value).decode(),
        "json_deserializer": msgspec.json.decode,
        "pool_size": pool_size_for(url) if pool_size is None else pool_size,
        "max_overflow": max_overflow,
        "pool_timeout": pool_timeout,
    }
    if parsed.drivername == "sqlite+aiosqlite":
        engine = create_async_engine(parsed, connect_args={"factory": _RollingBackOnClose}, **options)
        _configure_sqlite(engine)
        return engine
    connect_args = _connect_args(parsed, pooler)
    # A connection in autocommit mode (the reads', and the appends' that SQLAlchemy runs) holds no
    # transaction to end: SQLAlchemy's rollback as it goes back to the pool would only cost a command
    # the driver's lock and a switch of greenlets.
    options["skip_autocommit_rollback"] = True
    # No pre-ping: it costs a round trip on every checkout, a third of a command's. A connection
    # dropped by a server restart fails its one request instead (503 database-unavailable), and
    # SQLAlchemy then replaces every pooled connection of that generation.
    return create_async_engine(parsed, connect_args=connect_args, **options)


def _connect_args(url: URL, pooler: bool) -> dict[str, Any]:
    """What a PostgreSQL connection is opened with beside its URL's own."""
    connect_args: dict[str, Any] = {}
    if "application_name" not in url.query:
        connect_args["application_name"] = APPLICATION_NAME
    if pooler:
        connect_args["prepare_threshold"] = None
    return connect_args


def for_writes(engine: AsyncEngine) -> AsyncEngine:
    """The same engine and pool, for transactions that will write.

    On SQLite they start with BEGIN IMMEDIATE, taking the single write lock before their first read: a
    deferred transaction that reads and then writes fails at once with "database is locked" when
    another writer committed in between, while an immediate one waits (busy timeout) and then reads
    fresh data, so a concurrent append ends in a clean ConcurrencyConflict. PostgreSQL ignores it.
    """
    return engine.execution_options(**{_WRITES: True})


def for_reads(engine: AsyncEngine) -> AsyncEngine:
    """The same engine and pool, for reads that need no snapshot shared by several statements.

    On PostgreSQL they run in autocommit mode: one round trip a statement, where a transaction adds a
    BEGIN and, as the connection goes back to the pool, a ROLLBACK; and psycopg forgets every
    statement it prepared on a connection at a ROLLBACK, the appends' included, which it would then
    parse and plan again. SQLite's reads need neither: its engine is returned as it is.
    """
    if engine.dialect.name != "postgresql":
        return engine
    return engine.execution_options(isolation_level="AUTOCOMMIT")


class _RollingBackOnClose(sqlite3.Connection):
    """A SQLite connection that ends its transaction as it closes.

    A task cancelled in the middle of a statement (a stopping scheduler's, a timed-out one's) gets its
    connection closed by SQLAlchemy without a rollback, while the cancelled statement's cursor lives on
    in the task's traceback. sqlite3 then only half-closes the connection, and its transaction, with
    the database's single write lock, stays open until that cursor is collected: every writer waits
    out its busy timeout meanwhile and fails ("database is locked")."""

    closed = False

    def close(self) -> None:
        # aiosqlite closes a connection again as it stops, after SQLAlchemy did: a closed connection's
        # `in_transaction` raises ("Cannot operate on a closed database").
        if self.closed:
            return
        if self.in_transaction:
            self.rollback()
        super().close()
        self.closed = True


def _configure_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The sqlite3 module's own transaction handling never emits BEGIN before a SELECT or DDL
        # and cannot emit BEGIN IMMEDIATE: switch it off and begin transactions in `_on_begin`.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        # WAL lets readers work while one writer appends.
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        # A deleted row's bytes are overwritten, not left in free pages: an erased person's name is
        # gone from the file itself (services/people.py).
        cursor.execute("PRAGMA secure_delete = ON")
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        writes = connection.get_execution_options().get(_WRITES, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")


def insert_for(dialect_name: str, table: sa.Table) -> postgresql.Insert | sqlite.Insert:
    """An INSERT that can take `ON CONFLICT` in the dialect at hand (PostgreSQL or SQLite)."""
    return postgresql.insert(table) if dialect_name == "postgresql" else sqlite.insert(table)
