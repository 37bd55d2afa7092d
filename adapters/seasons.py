"""The seasons apps define (services/seasons.py), in the database."""

from __future__ import annotations

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import for_reads, for_writes, insert_for
from kaiten.adapters.schema import seasons
from kaiten.services.ports import SeasonRecord


class SqlSeasons:
    def __init__(self, engine: AsyncEngine) -> None:
        self._reader = for_reads(engine)
        self._writer = for_writes(engine)
        # Two definitions of one season at once: one is kept, and the other reads it back.
        self._add = (
            insert_for(engine.dialect.name, seasons)
            .on_conflict_do_nothing(index_elements=[seasons.c.app_id, seasons.c.season_id])
            .returning(seasons.c.season_id)
        )
        of_app = seasons.c.app_id == sa.bindparam("app_id")
        self._get = sa.select(seasons).where(of_app, seasons.c.season_id == sa.bindparam("season_id"))
        self._of_app = sa.select(seasons).where(of_app).order_by(seasons.c.starts_at.desc(), seasons.c.season_id)
        self._count = sa.select(sa.func.count()).select_from(seasons).where(of_app)

    async def add(self, season: SeasonRecord, most: int) -> tuple[SeasonRecord, bool]:
        key = {"app_id": season.app_id, "season_id": season.season_id}
        async with self._writer.begin() as connection:
            row = (await connection.execute(self._get, key)).mappings().first()
            if row is not None:
                return SeasonRecord(**row), False
            # Definitions racing each other may pass `most` by as many: the bound is against growth.
            if (await connection.execute(self._count, key)).scalar_one() >= most:
                raise LookupError(season.app_id)
            added = (await connection.execute(self._add, msgspec.structs.asdict(season))).first() is not None
            row = (await connection.execute(self._get, key)).mappings().one()
        return SeasonRecord(**row), added

    async def get(self, app_id: str, season_id: str) -> SeasonRecord | None:
        async with self._reader.connect() as connection:
            row = (await connection.execute(self._get, {"app_id": app_id, "season_id": season_id})).mappings().first()
        return None if row is None else SeasonRecord(**row)

    async def of_app(self, app_id: str) -> list[SeasonRecord]:
        async with self._reader.connect() as connection:
            rows = (await connection.execute(self._of_app, {"app_id": app_id})).mappings().all()
        return [SeasonRecord(**row) for row in rows]
