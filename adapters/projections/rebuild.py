"""Recreating a projection's read models from the whole log.

The rebuild empties the projection's tables and moves its checkpoint back to the start in one
transaction, then applies the log batch by batch like the runner does: its memory stays that of one
batch, however long the log. It ends once it has applied every event logged when it began: on
PostgreSQL, events committed after a transaction that is still open anywhere in the cluster wait for
it to end (the runner reads below the oldest open transaction), and so does the rebuild. Readers
see the tables fill up meanwhile. A serving process running the same projection takes turns with
the rebuild, batch by batch, through the checkpoint lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import for_writes
from kaiten.adapters.projections import quarantine
from kaiten.adapters.projections.checkpoints import Checkpoints
from kaiten.adapters.projections.runner import Projection, ProjectionRunner
from kaiten.adapters.schema import events

#: Called after each batch with the events applied so far and the log's length when the rebuild began.
Progress = Callable[[int, int], None]

#: How long to wait when another process holds the checkpoint (it is applying a batch), or when the
#: events left are held back by a transaction still open.
RETRY_SECONDS = 0.05


async def rebuild(
    engine: AsyncEngine, projection: Projection, *, batch_size: int = 5000, progress: Progress | None = None
) -> int:
    """Empty the projection's tables and apply the log again; the number of events applied."""
    runner = ProjectionRunner(engine, projection, batch_size=batch_size)
    checkpoints = Checkpoints(engine.dialect.name)
    await runner.ensure_checkpoint()
    async with for_writes(engine).begin() as connection:
        # Waits for a batch another process is applying, then keeps it out until the tables are empty.
        await checkpoints.claim(connection, projection.name, wait=True)
        for table in projection.tables:
            await connection.execute(table.delete())
        await quarantine.forget(connection, projection.name)
        await checkpoints.reset(connection, projection.name)
        length = (await connection.execute(sa.select(sa.func.count()).select_from(events))).scalar_one()
    applied = 0
    while True:
        batch = await runner.run_batch()
        if batch is None:
            await asyncio.sleep(RETRY_SECONDS)
            continue
        applied = batch.total
        if progress is not None:
            progress(applied, length)
        if batch.events < batch_size:
            if applied >= length:
                return applied
            # A short batch before the log's length: the rest was committed after a transaction that is
            # still open somewhere in the cluster, and the runner reads below the oldest open one.
            await asyncio.sleep(RETRY_SECONDS)
