"""Engines on the migrated test databases of tests/conftest.py."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import create_engine


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on a fresh SQLite file, then on the session's PostgreSQL database."""
    engine = create_engine(database_url)
    yield engine
    await engine.dispose()


@pytest.fixture
async def postgres_engine(postgres_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(postgres_url)
    yield engine
    await engine.dispose()
