"""A projection that applies each batch as another does, then is interrupted before the checkpoint
moves (the crash and failure tests say how: they fail, or stall until killed)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncConnection

from kaiten.adapters.projections.log import LogEvent
from kaiten.adapters.projections.runner import Projection


class Interrupted:
    def __init__(self, inner: Projection) -> None:
        self.inner = inner
        self.name = inner.name
        self.handles = inner.handles
        self.tables = inner.tables

    async def apply(self, connection: AsyncConnection, events: Sequence[LogEvent]) -> None:
        await self.inner.apply(connection, events)
        await self.interrupt()

    async def interrupt(self) -> None:
        raise NotImplementedError
