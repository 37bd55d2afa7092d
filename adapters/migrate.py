"""Schema migrations, run programmatically: `kaiten migrate`, `kaiten serve` and the test fixtures."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten import migrations
from kaiten.adapters.database import create_engine, for_writes

if TYPE_CHECKING:
    from alembic.config import Config

#: Alembic's own table of the revisions a database is at.
VERSION_TABLE = "alembic_version"
#: Found through the installed package, not the working directory, so this works from anywhere.
SCRIPT_LOCATION = str(Path(migrations.__file__).parent)


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration without alembic.ini; env.py migrates `connection` when given."""
    # Imported here: a database already at HEAD is checked without Alembic (a server's start, every
    # serving process's readiness); Alembic cost a `kaiten serve` start about 0.1 of its 1.8 s of CPU.
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["connection"] = connection
    return config


async def upgrade(url: str) -> None:
    """Migrate the database to the newest revision (`alembic upgrade head`).

    Processes may migrate one database at the same time (they take turns), but one process must run
    one migration at a time: Alembic keeps its migration context in module globals.
    """
    # for_writes: on SQLite the migration holds the write lock from its first statement.
    engine = for_writes(create_engine(url))
    try:
        if await is_migrated(engine):
            return
        from alembic import command

        async with engine.connect() as connection:
            await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), "head"))
    finally:
        await engine.dispose()


def upgrade_sync(url: str) -> None:
    """`upgrade` for callers without an event loop (the command line)."""
    asyncio.run(upgrade(url))


async def is_migrated(engine: AsyncEngine) -> bool:
    """Whether the database is at the newest revision. Raises when it cannot be reached.

    Reads Alembic's version table itself: a MigrationContext would log two lines at every
    readiness probe.
    """
    async with engine.connect() as connection:
        if not await connection.run_sync(lambda sync: sa.inspect(sync).has_table(VERSION_TABLE)):
            return False
        version_num: sa.ColumnClause[str] = sa.column("version_num")
        versions = sa.select(version_num).select_from(sa.table(VERSION_TABLE))
        current = list((await connection.execute(versions)).scalars())
        return current == [migrations.HEAD]
