"""The composition root: the one place that wires adapters into services."""

from __future__ import annotations

from contextlib import AsyncExitStack
from dataclasses import dataclass, field

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.database import create_engine
from adapters.migrate import is_migrated
from adapters.sql_store import SqlEventStore
from adapters.system import SecureIds, SystemClock
from services.games import Games
from services.ports import EventStore


@dataclass
class Services:
    games: Games
    engine: AsyncEngine | None = None
    #: Background parts (listeners, projection runners) started by `start` and stopped by `stop`.
    _background: AsyncExitStack = field(default_factory=AsyncExitStack)

    async def start(self) -> None:
        """Start the background parts of a serving process."""

    async def stop(self) -> None:
        await self._background.aclose()
        self._background = AsyncExitStack()

    async def is_ready(self) -> bool:
        if self.engine is None:
            return True
        try:
            return await is_migrated(self.engine)
        except (OSError, SQLAlchemyError):
            return False

    async def close(self) -> None:
        await self.stop()
        if self.engine is not None:
            await self.engine.dispose()


def bootstrap(database_url: str) -> Services:
    engine = create_engine(database_url)
    return Services(games=Games(SqlEventStore(engine), SystemClock(), SecureIds()), engine=engine)


def bootstrap_with_store(store: EventStore) -> Services:
    """Services over a given store (the in-memory one in unit tests)."""
    return Services(games=Games(store, SystemClock(), SecureIds()))
