"""Events a projection could not apply, set aside so that the read side never stops on one event.

A batch the projection cannot apply is applied again event by event, each in a savepoint of the
batch's transaction: an event that fails is kept here with its error, counted, logged once, and
passed over; the others are applied and the checkpoint moves past them all. Nothing a caller writes
into the log can then hold the history, the statistics or the leaderboards back. After a fix,
`kaiten projections retry` applies the quarantined events again, in log order, and lets go of those
that apply.

A database that cannot be reached is no event's fault: such a failure rolls the batch back, to be
applied again once the database answers (api and adapters/replica.py tell the two apart the same way).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, datetime

import msgspec
import sqlalchemy as sa
from prometheus_client import Counter
from sqlalchemy.ext.asyncio import AsyncConnection

from kaiten.adapters.projections.log import LogEvent
from kaiten.adapters.replica import unreachable
from kaiten.adapters.schema import events as log_events
from kaiten.adapters.schema import projection_quarantine as table

log = logging.getLogger("kaiten.projections")

QUARANTINED = Counter(
    "kaiten_projection_quarantined_events", "Events a projection could not apply and set aside", ["projection"]
)
#: The longest error kept with an event.
MAX_ERROR = 500


class Quarantined(msgspec.Struct, frozen=True):
    global_position: int
    stream_id: str
    version: int
    type: str
    error: str
    quarantined_at: datetime


def is_the_events_fault(error: BaseException) -> bool:
    """Whether applying failed for what the events hold, rather than for want of a database."""
    return isinstance(error, Exception) and not unreachable(error)


async def keep(connection: AsyncConnection, name: str, event: LogEvent, error: Exception) -> None:
    text = f"{type(error).__name__}: {error}"[:MAX_ERROR]
    row = {
        "name": name,
        "global_position": event.global_position,
        "stream_id": event.stream_id,
        "version": event.version,
        "type": event.type,
        "error": text,
        "quarantined_at": datetime.now(UTC),
    }
    await connection.execute(sa.insert(table), row)
    QUARANTINED.labels(name).inc()
    log.error(
        "projection %s set aside event %s v%d (%s) it cannot apply: %s",
        name,
        event.stream_id,
        event.version,
        event.type,
        text,
    )


async def listed(connection: AsyncConnection, name: str) -> list[Quarantined]:
    """The projection's quarantined events, in log order."""
    rows = await connection.execute(sa.select(table).where(table.c.name == name).order_by(table.c.global_position))
    return [Quarantined(**{k: v for k, v in row.items() if k != "name"}) for row in rows.mappings()]


async def count(connection: AsyncConnection, name: str) -> int:
    result = await connection.execute(sa.select(sa.func.count()).where(table.c.name == name))
    return int(result.scalar_one())


async def release(connection: AsyncConnection, name: str, positions: Sequence[int]) -> None:
    if positions:
        await connection.execute(
            sa.delete(table).where(table.c.name == name, table.c.global_position.in_(list(positions)))
        )


async def forget(connection: AsyncConnection, name: str) -> None:
    """A rebuild applies every event again: what it cannot apply is set aside anew."""
    await connection.execute(sa.delete(table).where(table.c.name == name))


async def events_of(connection: AsyncConnection, quarantined: Sequence[Quarantined]) -> list[LogEvent]:
    """The quarantined events as the log holds them, to apply again."""
    if not quarantined:
        return []
    rows = await connection.execute(
        sa.select(
            log_events.c.global_position,
            log_events.c.stream_id,
            log_events.c.version,
            log_events.c.type,
            sa.cast(log_events.c.data, sa.Text),
            log_events.c.recorded_at,
            sa.cast(log_events.c.metadata, sa.Text),
        )
        .where(log_events.c.global_position.in_([item.global_position for item in quarantined]))
        .order_by(log_events.c.global_position)
    )
    return [
        LogEvent(0, position, stream_id, version, type_, data.encode(), recorded_at, metadata.encode())
        for position, stream_id, version, type_, data, recorded_at, metadata in rows.all()
    ]
