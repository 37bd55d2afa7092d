"""Alembic environment for both databases, through the same async engines the service uses.

The connection comes from `config.attributes["connection"]` when `adapters.migrate` runs Alembic
inside its own event loop; otherwise (the `alembic` command line) from `sqlalchemy.url`, else the
DATABASE_URL environment variable.
"""

from __future__ import annotations

import asyncio
import os
from logging.config import fileConfig

import sqlalchemy as sa
from alembic import context
from sqlalchemy.engine import Connection

from kaiten.adapters.database import async_url, create_engine, for_writes
from kaiten.adapters.schema import include_object, metadata

#: PostgreSQL advisory lock serialising migrators: several `kaiten serve` processes may start at once.
MIGRATION_LOCK = int.from_bytes(b"kaiten:m", "big")

config = context.config


def database_url() -> str:
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL")
    if not url:
        raise RuntimeError("set DATABASE_URL (or sqlalchemy.url) to the database to migrate")
    return url


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        include_object=include_object(connection.dialect.name),
        # One transaction for the whole upgrade, on SQLite too (whose DDL is transactional).
        transactional_ddl=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Held until commit; the next migrator then finds the schema at head and does nothing.
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        context.run_migrations()


async def run_online() -> None:
    # for_writes: on SQLite the migration holds the write lock from its first statement.
    engine = for_writes(create_engine(database_url()))
    try:
        async with engine.connect() as connection:
            await connection.run_sync(run_migrations)
    finally:
        await engine.dispose()


def run_offline() -> None:
    """`alembic upgrade head --sql`: print the SQL for a database administrator to run."""
    context.configure(
        url=async_url(database_url()),
        target_metadata=metadata,
        literal_binds=True,
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
elif (connection := config.attributes.get("connection")) is not None:
    run_migrations(connection)
else:
    if config.config_file_name is not None:
        fileConfig(config.config_file_name)
    asyncio.run(run_online())
