"""Projections read the whole log, so each test gets a database of its own (the session's shared one
holds other tests' events, which are no games)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import create_engine
from kaiten.adapters.migrate import upgrade
from tests.conftest import _new_postgres_database


async def _migrated_engine(url: str) -> AsyncEngine:
    await upgrade(url)
    return create_engine(url)


@pytest.fixture
async def fresh_engine(empty_database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on a new migrated database: SQLite, then PostgreSQL."""
    engine = await _migrated_engine(empty_database_url)
    yield engine
    await engine.dispose()


@pytest.fixture
async def fresh_postgres_engine(_postgres_server: str) -> AsyncIterator[AsyncEngine]:
    with _new_postgres_database(_postgres_server) as url:
        engine = await _migrated_engine(url)
        yield engine
        await engine.dispose()
