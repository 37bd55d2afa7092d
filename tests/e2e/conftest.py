"""An app over a fresh migrated database (SQLite and PostgreSQL), driven through HTTP in-process."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from kaiten.api.bootstrap import Services
from tests import plain_http
from tests.app_client import AppClient, app_client
from tests.e2e.servers import ServerProcess, started
from tests.e2e.serving import serving


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    async with serving(database_url) as built:
        yield built


@pytest.fixture
async def own_services(own_database_url: str) -> AsyncIterator[Services]:
    """Services over a database of their own (a module makes them its `services`): its projections,
    history and statistics hold that module's games only."""
    async with serving(own_database_url) as built:
        yield built


@pytest.fixture
async def client(services: Services) -> AsyncIterator[AppClient]:
    async with app_client(services) as test_client:
        yield test_client


@pytest.fixture
async def closed_services(database_url: str) -> AsyncIterator[Services]:
    """Services of a server that needs app keys (PostgreSQL's default), on a fresh database each."""
    async with serving(database_url, open_app=None) as built:
        yield built


@pytest.fixture
async def closed_client(closed_services: Services) -> AsyncIterator[AppClient]:
    async with app_client(closed_services) as test_client:
        yield test_client


@pytest.fixture
async def servers(postgres_url: str, tmp_path: Path) -> AsyncIterator[list[ServerProcess]]:
    """Two `kaiten serve` processes on the session's PostgreSQL database, both ready."""
    with started(postgres_url, tmp_path, 2) as running:
        async with plain_http.async_client() as client:
            await asyncio.gather(*(server.wait_ready(client) for server in running))
        yield running
