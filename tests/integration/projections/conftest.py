"""Projections read the whole log, so each test gets a database of its own (the session's shared one
holds other tests' events, which are no games)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import create_engine


@pytest.fixture
async def fresh_engine(own_database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on a new migrated database: SQLite, then PostgreSQL."""
    engine = create_engine(own_database_url)
    yield engine
    await engine.dispose()


@pytest.fixture
async def fresh_postgres_engine(own_postgres_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(own_postgres_url)
    yield engine
    await engine.dispose()
