"""Reading read models whole, to compare them."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.projections.registry import build_projections
from kaiten.adapters.projections.runner import Projection, ProjectionRunner
from tests.projecting import settle_all


async def snapshot(engine: AsyncEngine, projection: Projection) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the projection's tables, by table, in key order."""
    tables = {}
    async with engine.connect() as connection:
        for table in projection.tables:
            result = await connection.execute(sa.select(table).order_by(*table.primary_key.columns))
            tables[table.name] = [tuple(row) for row in result.all()]
    return tables


def runners(engine: AsyncEngine, batch_size: int = 2000) -> list[ProjectionRunner]:
    return [ProjectionRunner(engine, p, batch_size=batch_size) for p in build_projections(engine.dialect.name)]


async def catch_up(engine: AsyncEngine, batch_size: int = 2000) -> None:
    await settle_all(runners(engine, batch_size))
