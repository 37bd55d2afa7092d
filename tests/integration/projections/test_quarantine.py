"""No event stops a projection: what it cannot apply is set aside with its error, counted, shown by
`kaiten projections status`, applied again by `kaiten projections retry`; later games reach the history
and the leaderboards all the same (SQLite and PostgreSQL)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from kaiten.adapters.projections import quarantine
from kaiten.adapters.projections.log import LogEvent
from kaiten.adapters.projections.quarantine import QUARANTINED
from kaiten.adapters.projections.registry import build_projections
from kaiten.adapters.projections.runner import Projection, ProjectionRunner
from kaiten.adapters.schema import match_history, player_stats, season_stats, seasons
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.services.ports import BUILTIN_APP, NewEvent
from tests.integration.projections.games import games_service, people_game
from tests.projecting import settle


def event(type_: str, data: dict[str, object]) -> NewEvent:
    return NewEvent(type=type_, data=msgspec.json.encode({"type": type_, **data}), metadata={"seat": None})


async def test_an_event_no_projection_can_apply_is_set_aside_and_later_games_are_projected(
    fresh_engine: AsyncEngine,
) -> None:
    store = SqlEventStore(fresh_engine)
    # Straight into the store, as no use case would write them: a seat of a game never created, and a
    # finished game of a game no catalog has.
    await store.append("00000000-0000-4000-8000-00000000000a", 0, [event("SeatTaken", {"seat": 0, "bot": "random"})])
    await store.append(
        "00000000-0000-4000-8000-00000000000b",
        0,
        [event("GameCreated", {"game": "chess", "players": 2}), event("GameFinished", {"result": {}})],
    )
    games = games_service(fresh_engine)
    rng = random.Random(3)
    later = [await people_game(games, game, ["ann", "bob"], rng) for game in ("sushi-go", "spin-some-for-dim-sum")]
    runners = [ProjectionRunner(fresh_engine, p, batch_size=50) for p in build_projections(fresh_engine.dialect.name)]
    counted = {runner.name: QUARANTINED.labels(runner.name)._value.get() for runner in runners}
    for runner in runners:
        await settle(runner)
    async with fresh_engine.connect() as connection:
        listed = set((await connection.execute(sa.select(match_history.c.game_id))).scalars())
        rated = (await connection.execute(sa.select(sa.func.count()).select_from(player_stats))).scalar_one()
        aside = {runner.name: await quarantine.listed(connection, runner.name) for runner in runners}
    assert set(later) <= listed and rated > 0, "the later games reached the history and the statistics"
    set_aside = {"history": [("a", "SeatTaken"), ("b", "GameFinished")], "statistics": [("b", "GameFinished")]}
    assert {name: [(item.stream_id[-1], item.type) for item in items] for name, items in aside.items()} == set_aside
    assert all(item.error for items in aside.values() for item in items)
    for runner in runners:
        assert QUARANTINED.labels(runner.name)._value.get() == counted[runner.name] + len(set_aside[runner.name])
        assert (await runner.lag()).events == 0

    status = kaiten(fresh_engine, "projections", "status")
    assert "2 set aside" in status and "1 set aside" in status
    # Nothing was fixed: a retry sets them aside again, and keeps them.
    assert "still set aside" in kaiten(fresh_engine, "projections", "retry")
    for runner in runners:
        assert await runner.quarantined() == len(set_aside[runner.name])


async def test_a_retry_after_a_fix_applies_what_was_set_aside(fresh_engine: AsyncEngine) -> None:
    """A projection that could not apply an event (a bug, say) applies it once it can."""
    games = games_service(fresh_engine)
    game = await people_game(games, "sushi-go", ["ann", "bob"], random.Random(4))
    projection = build_projections(fresh_engine.dialect.name, ["history"])[0]
    broken = Refusing(projection)
    await settle(ProjectionRunner(fresh_engine, broken))
    fixed = ProjectionRunner(fresh_engine, projection)
    assert await fixed.quarantined() > 0
    applied, kept = await fixed.retry()
    assert (applied > 0, kept) == (True, 0)
    async with fresh_engine.connect() as connection:
        assert (await connection.execute(sa.select(match_history.c.game_id))).scalars().all() == [game]


async def test_a_game_set_aside_does_not_stop_a_season_from_counting_the_games_after_it(
    fresh_engine: AsyncEngine,
) -> None:
    """A season is counted from the log when the statistics first meet it. A finished game they set
    aside is left out of it, as it is of the all-time records: before, it failed the season's count,
    and with it each later batch, so that every game finished after it was set aside too."""
    store, games = SqlEventStore(fresh_engine), games_service(fresh_engine)
    rng = random.Random(5)
    broken = await people_game(games, "sushi-go", ["ann", "bob"], rng)
    version = (await store.read(broken))[-1].version
    await store.append(broken, version, [event("GameFinished", {"result": {}})])
    statistics = ProjectionRunner(fresh_engine, build_projections(fresh_engine.dialect.name, ["statistics"])[0])
    await settle(statistics)
    now = datetime.now(UTC)
    async with fresh_engine.begin() as connection:
        await connection.execute(
            sa.insert(seasons),
            {
                "app_id": BUILTIN_APP,
                "season_id": "winter",
                "name": "Winter",
                "starts_at": now - timedelta(days=1),
                "ends_at": now + timedelta(days=1),
                "created_at": now,
            },
        )
    await people_game(games, "sushi-go", ["cy", "di"], rng)
    await settle(statistics)
    async with fresh_engine.connect() as connection:
        aside = {item.stream_id for item in await quarantine.listed(connection, "statistics")}
        rows = {
            table.name: (await connection.execute(sa.select(sa.func.count()).select_from(table))).scalar_one()
            for table in (player_stats, season_stats)
        }
    assert aside == {broken}, "the later game was counted, not set aside"
    assert rows["player_stats"] > 0 and rows["season_stats"] > 0, rows


class Refusing:
    """A projection that cannot apply SeatTaken events (until it is fixed: the projection itself)."""

    def __init__(self, inner: Projection) -> None:
        self.inner, self.name, self.handles, self.tables = inner, inner.name, inner.handles, inner.tables

    async def apply(self, connection: AsyncConnection, events: Sequence[LogEvent]) -> None:
        if any(event.type == "SeatTaken" for event in events):
            raise ValueError("a bug")
        await self.inner.apply(connection, events)


def kaiten(engine: AsyncEngine, *args: str) -> str:
    url = engine.url.render_as_string(hide_password=False)
    done = subprocess.run(
        [sys.executable, "-m", "kaiten.api.cli", *args],
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr
