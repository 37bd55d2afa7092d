"""Reads of one statement run in autocommit mode on PostgreSQL (adapters/database.py `for_reads`): no
BEGIN before them and no ROLLBACK as their connection goes back to the pool. A ROLLBACK would also
make psycopg forget what it prepared on that connection (a statement run five times on it), which
it would then parse and plan again.

Each read runs on a pool of one connection on which a statement has just been prepared; the
statement must still be prepared after the read."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.apps import SqlAppStore, SqlGameCounts
from kaiten.adapters.database import create_engine, for_reads
from kaiten.adapters.deadlines import SqlDeadlines
from kaiten.adapters.metrics import measure_backlogs
from kaiten.adapters.people import SqlPeople
from kaiten.adapters.player_tokens import SqlPlayerTokens
from kaiten.adapters.projections.read_models import SqlReadModels
from kaiten.adapters.projections.registry import build_projections
from kaiten.adapters.projections.runner import ProjectionRunner
from kaiten.adapters.queues import SqlQueueStore
from kaiten.adapters.seasons import SqlSeasons
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.services.ports import MatchFilter, Namespace

pytestmark = pytest.mark.postgres

NOW = datetime(2026, 12, 6, tzinfo=UTC)
APP = "an-app"
NAMESPACE = Namespace(app_id=APP, scope="all")

Read = Callable[[AsyncEngine], Awaitable[Any]]

READS: dict[str, Read] = {
    "an app": lambda engine: SqlAppStore(engine).app(APP),
    "an app by name": lambda engine: SqlAppStore(engine).app_named("an app"),
    "the apps": lambda engine: SqlAppStore(engine).apps(),
    "a key": lambda engine: SqlAppStore(engine).key("a-key"),
    "an app's keys": lambda engine: SqlAppStore(engine).keys(APP),
    "games created lately": lambda engine: SqlGameCounts(engine).created_since(APP, NOW, False),
    "games not over": lambda engine: SqlGameCounts(engine).not_over(APP),
    "people": lambda engine: SqlPeople(engine).persons(["a-person"]),
    "a player's person": lambda engine: SqlPeople(engine).of_player(APP, "a-player"),
    "a player token": lambda engine: SqlPlayerTokens(engine).get("a-token"),
    "a season": lambda engine: SqlSeasons(engine).get(APP, "a-season"),
    "an app's seasons": lambda engine: SqlSeasons(engine).of_app(APP),
    "matches": lambda engine: SqlReadModels(engine).matches(NAMESPACE, MatchFilter(), None, 10),
    "a player's games": lambda engine: SqlReadModels(engine).player_games(NAMESPACE, "a-person"),
    "a leaderboard": lambda engine: SqlReadModels(engine).leaderboard(NAMESPACE, "sushi-go", None, 10),
    "a rating history": lambda engine: SqlReadModels(engine).rating_history(
        NAMESPACE, "a-person", "sushi-go", None, 10
    ),
    "a projection's lag": lambda engine: ProjectionRunner(engine, build_projections("postgresql")[0]).lag(),
    "events set aside": lambda engine: ProjectionRunner(engine, build_projections("postgresql")[0]).quarantined(),
    "a queue entry": lambda engine: SqlQueueStore(engine).entry(APP, "an-entry"),
    "a queue entry shown": lambda engine: SqlQueueStore(engine).shown(APP, "an-entry"),
    "queues due": lambda engine: SqlQueueStore(engine).due_queues(NOW, 10),
    "moves owed": lambda engine: SqlDeadlines(engine).owed(NOW),
    "the backlogs": lambda engine: measure_backlogs(engine, NOW),
    "a stream's events": lambda engine: SqlEventStore(engine).read("a-stream"),
}


#: A statement prepared on the pool's connection before each read.
MARKER = "SELECT 'prepared before the read'"


async def prepare_marker(engine: AsyncEngine) -> None:
    async with for_reads(engine).connect() as connection:
        raw = await connection.get_raw_connection()
        assert raw.driver_connection is not None
        await raw.driver_connection.execute(MARKER, prepare=True)


async def marker_prepared(engine: AsyncEngine) -> int:
    """How many statements like the marker the pool's connection keeps prepared (asked in autocommit
    mode too, or the question itself would end in a ROLLBACK)."""
    async with for_reads(engine).connect() as connection:
        prepared = await connection.scalar(
            sa.text("SELECT count(*) FROM pg_prepared_statements WHERE statement = :marker"), {"marker": MARKER}
        )
    return int(prepared or 0)


@pytest.mark.parametrize("read", READS.values(), ids=READS.keys())
async def test_a_read_leaves_its_connections_prepared_statements_alone(postgres_url: str, read: Read) -> None:
    engine = create_engine(postgres_url, pool_size=1)
    try:
        await prepare_marker(engine)
        assert await marker_prepared(engine) == 1
        await read(engine)
        assert await marker_prepared(engine) == 1
    finally:
        await engine.dispose()
