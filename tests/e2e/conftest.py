"""An app over a fresh migrated database (SQLite and PostgreSQL), driven through HTTP in-process."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.bootstrap import Services, bootstrap


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    built = bootstrap(database_url)
    try:
        yield built
    finally:
        await built.close()


@pytest.fixture
async def client(services: Services) -> AsyncIterator[AsyncTestClient]:  # type: ignore[type-arg]
    async with AsyncTestClient(app=create_app(services)) as test_client:
        yield test_client
