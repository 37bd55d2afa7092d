"""The global log as projections read it: every event once, in an order that never skips a commit.

On PostgreSQL, positions (`global_position`) are handed out when rows are inserted, not when their
transactions commit: a reader that asked for `global_position > n` could pass over an event whose
transaction commits after a later one was read, and never see it. So the log is read in
`(tx_id, global_position)` order, and only below `pg_snapshot_xmin(pg_current_snapshot())`, the
oldest transaction still running: every transaction below it has ended, so no event can appear
there later. An event of a transaction that is still open is read once it has ended. On SQLite
there is one writer at a time, so position order is commit order.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from kaiten.adapters.schema import Xid8, events


class Position(msgspec.Struct, frozen=True):
    """Where a reader is in the log: the last event it read (tx_id is 0 on SQLite)."""

    tx_id: int
    global_position: int


START = Position(tx_id=0, global_position=0)


class LogEvent(msgspec.Struct, frozen=True, gc=False):
    tx_id: int
    global_position: int
    stream_id: str
    version: int
    type: str
    #: The event as JSON; None for the types the reader was not asked for (they only move it on).
    data: bytes | None
    #: None, like data, for the types the reader was not asked for.
    recorded_at: datetime | None
    #: The event's metadata as JSON (who appended it, for which app...); None like data.
    metadata: bytes | None = None

    @property
    def position(self) -> Position:
        return Position(self.tx_id, self.global_position)


class Lag(msgspec.Struct, frozen=True):
    """How far a reader is behind the log: events not read yet, and the age of the oldest of them."""

    events: int
    seconds: float


class GlobalLog:
    """Reads the log after a position, in batches; `handles` names the types whose data is wanted."""

    def __init__(self, dialect_name: str, handles: Collection[str] | None = None) -> None:
        self._postgres = dialect_name == "postgresql"
        data: sa.ColumnElement[Any] = sa.cast(events.c.data, sa.Text)
        recorded_at: sa.ColumnElement[Any] = events.c.recorded_at
        metadata: sa.ColumnElement[Any] = sa.cast(events.c.metadata, sa.Text)
        if handles is not None:
            # The other events still come, without their data: the reader moves past them.
            handled = events.c.type.in_(sorted(handles))
            data = sa.case((handled, data), else_=sa.null())
            recorded_at = sa.case((handled, recorded_at), else_=sa.null())
            metadata = sa.case((handled, metadata), else_=sa.null())
        columns = (
            self._tx_id,
            events.c.global_position,
            events.c.stream_id,
            events.c.version,
            events.c.type,
            data,
            recorded_at,
            metadata,
        )
        self._read = (
            sa.select(*columns)
            .where(self._after())
            .order_by(*self._order)
            .limit(sa.bindparam("limit", type_=sa.Integer))
        )
        if self._postgres:
            self._read = self._read.where(events.c.tx_id < sa.func.pg_snapshot_xmin(sa.func.pg_current_snapshot()))
        self._lag = sa.select(sa.func.count(), sa.func.min(events.c.recorded_at)).where(self._after())

    @property
    def _tx_id(self) -> sa.ColumnElement[int]:
        if self._postgres:
            # xid8 has no cast to bigint; its text form is the number.
            return sa.cast(sa.cast(events.c.tx_id, sa.Text), sa.BigInteger).label("tx_id")
        return sa.literal(0, sa.BigInteger).label("tx_id")

    @property
    def _order(self) -> tuple[sa.ColumnElement[Any], ...]:
        return log_order(self._postgres)

    def _after(self) -> sa.ColumnElement[bool]:
        return compared_to_position(self._postgres, after=True)

    async def read(self, connection: AsyncConnection, after: Position, limit: int) -> list[LogEvent]:
        """Up to `limit` events after `after`, in commit-safe order."""
        parameters = {"tx_id": after.tx_id, "global_position": after.global_position, "limit": limit}
        result = await connection.execute(self._read, parameters)
        return [
            LogEvent(
                tx_id,
                position,
                stream_id,
                version,
                type_,
                None if data is None else data.encode(),
                recorded_at,
                None if metadata is None else metadata.encode(),
            )
            for tx_id, position, stream_id, version, type_, data, recorded_at, metadata in result.all()
        ]

    async def lag(self, connection: AsyncConnection, after: Position, now: datetime) -> Lag:
        """Every event after `after`, read or not yet readable (its transaction still open)."""
        parameters = {"tx_id": after.tx_id, "global_position": after.global_position}
        count, oldest = (await connection.execute(self._lag, parameters)).one()
        return Lag(events=count, seconds=0.0 if oldest is None else max(0.0, (now - oldest).total_seconds()))


def log_order(postgres: bool) -> tuple[sa.ColumnElement[Any], ...]:
    """The order readers apply the log in (`Position`)."""
    return (events.c.tx_id, events.c.global_position) if postgres else (events.c.global_position,)


def compared_to_position(postgres: bool, *, after: bool) -> sa.ColumnElement[bool]:
    """The events after (else before) the position given as `:tx_id` and `:global_position`."""
    position = sa.bindparam("global_position", type_=sa.BigInteger)
    if not postgres:
        return events.c.global_position > position if after else events.c.global_position < position
    tx_id = sa.cast(sa.cast(sa.bindparam("tx_id", type_=sa.BigInteger), sa.Text), Xid8())
    ours, given = sa.tuple_(events.c.tx_id, events.c.global_position), sa.tuple_(tx_id, position)
    return ours > given if after else ours < given
