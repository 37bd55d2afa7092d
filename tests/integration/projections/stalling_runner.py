"""A projection runner process that stalls in the middle of a batch, for the crash test to kill there.

    python -m tests.integration.projections.stalling_runner URL PROJECTION BATCH_SIZE BATCHES_BEFORE

It applies BATCHES_BEFORE batches; in the next batch with events for the projection, it applies them
without committing them or moving the checkpoint, prints "mid-batch" and waits to be killed.
"""

from __future__ import annotations

import asyncio
import sys

from kaiten.adapters.database import create_engine
from kaiten.adapters.projections.registry import PROJECTIONS
from kaiten.adapters.projections.runner import ProjectionRunner
from tests.integration.projections.interrupted import Interrupted

MID_BATCH = "mid-batch"


class Stalls(Interrupted):
    async def interrupt(self) -> None:
        print(MID_BATCH, flush=True)
        await asyncio.Event().wait()


async def main(url: str, name: str, batch_size: int, batches_before: int) -> None:
    engine = create_engine(url)
    projection = PROJECTIONS[name](engine.dialect.name)
    runner = ProjectionRunner(engine, projection, batch_size=batch_size)
    for _ in range(batches_before):
        await runner.run_batch()
    # Batches without an event of the projection's types never reach `apply`: they commit.
    await ProjectionRunner(engine, Stalls(projection), batch_size=batch_size).catch_up()


if __name__ == "__main__":
    url, name, batch_size, batches_before = sys.argv[1:]
    asyncio.run(main(url, name, int(batch_size), int(batches_before)))
