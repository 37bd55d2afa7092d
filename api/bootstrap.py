"""The composition root: the one place that wires adapters into services."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.database import create_engine
from adapters.migrate import is_migrated
from adapters.sql_store import SqlEventStore
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.system import SecureIds, SystemClock
from services.games import Games
from services.ports import EventStore


@dataclass(frozen=True)
class Services:
    games: Games
    engine: AsyncEngine | None

    async def is_ready(self) -> bool:
        if self.engine is None:
            return True
        try:
            return await is_migrated(self.engine)
        except (OSError, SQLAlchemyError):
            return False

    async def close(self) -> None:
        if self.engine is not None:
            await self.engine.dispose()


def bootstrap(database_url: str) -> Services:
    engine = create_engine(database_url)
    return Services(games=Games(SqlEventStore(engine), SystemClock(), SecureIds()), engine=engine)


def bootstrap_with_store(store: EventStore) -> Services:
    """Services over a given store (the in-memory one in unit tests)."""
    return Services(games=Games(store, SystemClock(), SecureIds()), engine=None)
