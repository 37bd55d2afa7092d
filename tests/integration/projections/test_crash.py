"""The crash test: a runner process killed in the middle of a batch, again and again; after a restart
the read models are exactly what an uninterrupted run gives (nothing lost, nothing counted twice)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.projections.rebuild import rebuild
from kaiten.adapters.projections.registry import build_projections
from kaiten.adapters.projections.runner import ProjectionRunner
from kaiten.adapters.schema import game_stats, match_history
from tests.integration.projections.games import bot_games, games_service
from tests.integration.projections.stalling_runner import MID_BATCH
from tests.integration.projections.tables import snapshot
from tests.projecting import settle

ROOT = Path(__file__).resolve().parents[3]
BATCH = 40
GAMES = 16
#: Batches applied (and committed) before each killed one: the kills land at different places.
KILLS = (0, 2, 1)


async def kill_mid_batch(url: str, projection: str, batches_before: int) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.integration.projections.stalling_runner",
        url,
        projection,
        str(BATCH),
        str(batches_before),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 60)
        assert line.decode().strip() == MID_BATCH
    finally:
        process.kill()
        await process.wait()


async def test_a_runner_killed_mid_batch_loses_and_doubles_nothing(fresh_engine: AsyncEngine) -> None:
    await bot_games(games_service(fresh_engine), GAMES)
    url = fresh_engine.url.render_as_string(hide_password=False)
    for projection in build_projections(fresh_engine.dialect.name):
        for batches_before in KILLS:
            await kill_mid_batch(url, projection.name, batches_before)
        await settle(ProjectionRunner(fresh_engine, projection, batch_size=BATCH))
        after_crashes = await snapshot(fresh_engine, projection)
        await rebuild(fresh_engine, projection)
        assert after_crashes == await snapshot(fresh_engine, projection)
    async with fresh_engine.connect() as connection:
        assert (await connection.execute(sa.select(sa.func.count()).select_from(match_history))).scalar() == GAMES
        finished = sa.select(sa.func.sum(game_stats.c.games)).where(game_stats.c.scope == "all")
        assert (await connection.execute(finished)).scalar() == GAMES
