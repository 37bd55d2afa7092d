"""Each projection's place in the log, read and written inside the transaction that applies a batch.

Claiming the checkpoint row locks it (`FOR UPDATE`) until that transaction ends: of several processes
running the same projection, one applies a batch while the others skip it (`SKIP LOCKED`) and try
again later, so a batch is never applied twice. On SQLite the write transaction (BEGIN IMMEDIATE)
already holds the database's single write lock.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from kaiten.adapters.database import insert_for
from kaiten.adapters.projections.log import START, Position
from kaiten.adapters.schema import projection_checkpoints as table


class Checkpoint(msgspec.Struct, frozen=True):
    position: Position
    #: Events applied since the projection was last rebuilt.
    events: int


class Checkpoints:
    def __init__(self, dialect_name: str) -> None:
        insert = insert_for(dialect_name, table)
        self._ensure = insert.on_conflict_do_nothing(index_elements=[table.c.name])
        read = sa.select(table.c.tx_id, table.c.global_position, table.c.events).where(
            table.c.name == sa.bindparam("name")
        )
        self._read = read
        self._claim = read.with_for_update(skip_locked=True)
        self._claim_waiting = read.with_for_update()
        # UPDATE reserves bind names that equal column names for its SET clause.
        projection = table.c.name == sa.bindparam("projection")
        self._advance = (
            sa.update(table)
            .where(projection)
            .values(
                tx_id=sa.bindparam("to_tx_id"),
                global_position=sa.bindparam("to_global_position"),
                events=table.c.events + sa.bindparam("applied", type_=sa.BigInteger),
            )
        )
        start = {"tx_id": START.tx_id, "global_position": START.global_position, "events": 0}
        self._reset = sa.update(table).where(projection).values(start)

    async def ensure(self, connection: AsyncConnection, name: str) -> None:
        """Create the projection's checkpoint at the start of the log, unless it exists."""
        await connection.execute(self._ensure, {"name": name})

    async def claim(self, connection: AsyncConnection, name: str, *, wait: bool = False) -> Checkpoint | None:
        """Lock and read the checkpoint; None when another transaction holds it (and `wait` is false)."""
        statement = self._claim_waiting if wait else self._claim
        return _checkpoint((await connection.execute(statement, {"name": name})).first())

    async def read(self, connection: AsyncConnection, name: str) -> Checkpoint | None:
        """The checkpoint as last committed, without locking it."""
        return _checkpoint((await connection.execute(self._read, {"name": name})).first())

    async def advance(self, connection: AsyncConnection, name: str, position: Position, applied: int) -> None:
        parameters = {
            "projection": name,
            "to_tx_id": position.tx_id,
            "to_global_position": position.global_position,
            "applied": applied,
        }
        await connection.execute(self._advance, parameters)

    async def reset(self, connection: AsyncConnection, name: str) -> None:
        await connection.execute(self._reset, {"projection": name})


def _checkpoint(row: Sequence[int] | None) -> Checkpoint | None:
    if row is None:
        return None
    tx_id, global_position, events = row
    return Checkpoint(position=Position(tx_id, global_position), events=events)
