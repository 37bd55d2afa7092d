"""Alembic is the only source of the schema, and its result is exactly adapters/schema.py."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys

import msgspec
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten import migrations
from kaiten.adapters.database import create_engine
from kaiten.adapters.migrate import alembic_config, is_migrated, upgrade
from kaiten.adapters.schema import include_object, metadata
from kaiten.api.bootstrap import bootstrap
from kaiten.services.commands import Act, CreateGame, GetTable, ListLegalCommands, NewSeat, Resign
from tests.bots import bots_move
from tests.projecting import settle_all

#: Prints the Alembic modules the code imported, one name a line.
ALEMBIC_IMPORTED = "import sys; print('\\n'.join(name for name in sys.modules if name.partition('.')[0] == 'alembic'))"


def differences_from_schema(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"include_object": include_object(connection.dialect.name)})
    return list(compare_metadata(context, metadata))


def table_names(connection: Connection) -> set[str]:
    return set(sa.inspect(connection).get_table_names())


async def test_migrated_database_is_at_head_and_matches_the_schema(engine: AsyncEngine) -> None:
    assert await is_migrated(engine)
    async with engine.connect() as connection:
        assert await connection.run_sync(differences_from_schema) == []


def test_head_is_the_head_of_alembics_scripts() -> None:
    assert ScriptDirectory.from_config(alembic_config()).get_heads() == [migrations.HEAD]


def test_a_database_at_head_is_left_as_it_is_without_importing_alembic(database_url: str) -> None:
    """A server's start (`kaiten serve` migrates first) and its serving processes' readiness: Alembic
    cost a start about 0.1 of its 1.8 s of CPU, for a database that is almost always at head already."""
    upgrading = f"from kaiten.adapters.migrate import upgrade_sync; upgrade_sync({database_url!r}); {ALEMBIC_IMPORTED}"
    serving = f"import kaiten.api.asgi; {ALEMBIC_IMPORTED}"
    for code in (upgrading, serving):
        done = subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "DATABASE_URL": database_url},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == [], f"{code} imported Alembic"


async def migrate_in_a_process(url: str) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", f"from adapters.migrate import upgrade_sync; upgrade_sync({url!r})"
    )
    try:
        assert await asyncio.wait_for(process.wait(), 60) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_migrators_starting_together_migrate_once(empty_database_url: str) -> None:
    """Several `kaiten serve` processes starting at once on a new database."""
    engine = create_engine(empty_database_url)
    try:
        assert not await is_migrated(engine)
        await asyncio.gather(*(migrate_in_a_process(empty_database_url) for _ in range(3)))
        assert await is_migrated(engine)
        async with engine.connect() as connection:
            assert await connection.run_sync(differences_from_schema) == []
    finally:
        await engine.dispose()


async def test_downgrade_removes_everything_upgrade_brings_back(empty_database_url: str) -> None:
    await upgrade(empty_database_url)
    engine = create_engine(empty_database_url)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(lambda sync: command.downgrade(alembic_config(sync), "base"))
            assert await connection.run_sync(table_names) == {"alembic_version"}
        assert not await is_migrated(engine)
        # Would fail on anything the downgrade left behind (PostgreSQL's trigger function).
        await upgrade(empty_database_url)
        assert await is_migrated(engine)
    finally:
        await engine.dispose()


def test_offline_mode_prints_the_sql() -> None:
    """`alembic upgrade head --sql` for a database administrator; no database involved."""
    output = io.StringIO()
    config = alembic_config()
    config.output_buffer = output
    config.set_main_option("sqlalchemy.url", "postgresql+psycopg://nobody@nowhere/kaiten")
    command.upgrade(config, "head", sql=True)
    sql = output.getvalue()
    assert "CREATE TABLE events" in sql
    assert "xid8" in sql
    assert "CREATE TRIGGER events_immutable" in sql


async def test_migration_0006_folds_the_statistics_again_to_count_earlier_resignations(empty_database_url: str) -> None:
    """A game finished with a resignation before 0006 counts in the new column once the serving
    process has folded the statistics again (the migration empties them and rewinds their checkpoint)."""
    await upgrade(empty_database_url)
    services = bootstrap(empty_database_url)
    try:
        seats = (NewSeat(name="ann", player_id="ann"), NewSeat(name="bob", player_id="bob"), NewSeat(bot="random"))
        game = await services.games.create(CreateGame("sushi-go", 3, None, 3, seats))
        await services.games.resign(Resign(game.id, game.tokens["0"]))
        # Bob is the only person left: the bots move once he has.
        while (await services.games.view(GetTable(game.id))).status == "active":
            await bots_move(services.games, game.id)
            legal = await services.games.legal_commands(ListLegalCommands(game.id, game.tokens["1"]))
            if not legal.commands:
                continue
            await services.games.act(Act(game.id, game.tokens["1"], msgspec.json.encode(legal.commands[0])))
        await settle_all(services.projection_runners)
        engine = create_engine(empty_database_url)
        try:
            async with engine.connect() as connection:
                await connection.run_sync(lambda sync: command.downgrade(alembic_config(sync), "0005"))
        finally:
            await engine.dispose()
        await upgrade(empty_database_url)
        await settle_all(services.projection_runners)
        stats = await services.history.game_stats("sushi-go")
        assert (stats.games, stats.player_games, stats.resigned_seats) == (1, 3, 1)
        ann = await services.history.player_stats("ann")
        assert [(record.played, record.resigned) for record in ann.games] == [(1, 1)], "folded once, not twice"
    finally:
        await services.close()
