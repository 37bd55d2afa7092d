"""Apps and their keys (services.ports.AppStore), and the counts an app's game quotas are checked
against (services.ports.GameCounts), in the database; apps in memory for tests."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import for_reads, for_writes
from kaiten.adapters.schema import app_keys, apps, games
from kaiten.services.ports import AppRecord, KeyRecord, Quotas


class SqlAppStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self._reader = for_reads(engine)
        self._writer = for_writes(engine)
        self._apps = sa.select(apps).order_by(apps.c.created_at, apps.c.name)
        self._keys = sa.select(app_keys).order_by(app_keys.c.created_at, app_keys.c.key_id)

    async def add_app(self, app: AppRecord) -> bool:
        row = {**msgspec.structs.asdict(app), "quotas": msgspec.to_builtins(app.quotas)}
        try:
            async with self._writer.begin() as connection:
                await connection.execute(sa.insert(apps), row)
        except IntegrityError:
            return False
        return True

    async def app_named(self, name: str) -> AppRecord | None:
        return await self._one_app(apps.c.name == name)

    async def app(self, app_id: str) -> AppRecord | None:
        return await self._one_app(apps.c.app_id == app_id)

    async def apps(self) -> list[AppRecord]:
        async with self._reader.connect() as connection:
            return [_app(row) for row in (await connection.execute(self._apps)).mappings()]

    async def set_quotas(self, app_id: str, quotas: Quotas) -> None:
        async with self._writer.begin() as connection:
            update = sa.update(apps).where(apps.c.app_id == app_id).values(quotas=msgspec.to_builtins(quotas))
            await connection.execute(update)

    async def add_key(self, key: KeyRecord, retire_others_at: datetime | None) -> None:
        async with self._writer.begin() as connection:
            if retire_others_at is not None:
                others = app_keys.c.app_id == key.app_id
                await connection.execute(
                    sa.update(app_keys)
                    .where(others, sa.or_(app_keys.c.expires_at.is_(None), app_keys.c.expires_at > retire_others_at))
                    .values(expires_at=retire_others_at)
                )
            await connection.execute(sa.insert(app_keys), msgspec.structs.asdict(key))

    async def key(self, key_id: str) -> KeyRecord | None:
        async with self._reader.connect() as connection:
            row = (await connection.execute(sa.select(app_keys).where(app_keys.c.key_id == key_id))).mappings().first()
        return None if row is None else KeyRecord(**row)

    async def keys(self, app_id: str) -> list[KeyRecord]:
        async with self._reader.connect() as connection:
            rows = (await connection.execute(self._keys.where(app_keys.c.app_id == app_id))).mappings()
            return [KeyRecord(**row) for row in rows]

    async def revoke_keys(self, app_id: str, at: datetime) -> int:
        async with self._writer.begin() as connection:
            result = await connection.execute(
                sa.update(app_keys)
                .where(app_keys.c.app_id == app_id, app_keys.c.revoked_at.is_(None))
                .values(revoked_at=at)
            )
        return int(result.rowcount)

    async def _one_app(self, where: sa.ColumnElement[bool]) -> AppRecord | None:
        async with self._reader.connect() as connection:
            row = (await connection.execute(sa.select(apps).where(where))).mappings().first()
        return None if row is None else _app(row)


def _app(row: Any) -> AppRecord:
    return AppRecord(
        app_id=row["app_id"],
        name=row["name"],
        created_at=row["created_at"],
        quotas=msgspec.convert(row["quotas"], Quotas),
    )


class SqlGameCounts:
    """Counted in the `games` table, which every serving process writes with its appends."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._reader = for_reads(engine)
        self._created = sa.select(sa.func.count(), sa.func.min(games.c.created_at)).where(
            games.c.app_id == sa.bindparam("app_id"),
            games.c.imported == sa.bindparam("imported"),
            games.c.created_at >= sa.bindparam("since", type_=games.c.created_at.type),
        )
        self._not_over = sa.select(sa.func.count()).where(
            games.c.app_id == sa.bindparam("app_id"), games.c.status.in_(("open", "active"))
        )

    async def created_since(self, app_id: str, since: datetime, imported: bool) -> tuple[int, datetime | None]:
        parameters = {"app_id": app_id, "imported": imported, "since": since}
        async with self._reader.connect() as connection:
            count, oldest = (await connection.execute(self._created, parameters)).one()
        return int(count), oldest

    async def not_over(self, app_id: str) -> int:
        async with self._reader.connect() as connection:
            return int((await connection.execute(self._not_over, {"app_id": app_id})).scalar_one())


class InMemoryAppStore:
    def __init__(self) -> None:
        self._apps: dict[str, AppRecord] = {}
        self._keys: dict[str, KeyRecord] = {}

    async def add_app(self, app: AppRecord) -> bool:
        if await self.app_named(app.name) is not None:
            return False
        self._apps[app.app_id] = app
        return True

    async def app_named(self, name: str) -> AppRecord | None:
        return next((app for app in self._apps.values() if app.name == name), None)

    async def app(self, app_id: str) -> AppRecord | None:
        return self._apps.get(app_id)

    async def apps(self) -> list[AppRecord]:
        return sorted(self._apps.values(), key=lambda app: (app.created_at, app.name))

    async def set_quotas(self, app_id: str, quotas: Quotas) -> None:
        self._apps[app_id] = msgspec.structs.replace(self._apps[app_id], quotas=quotas)

    async def add_key(self, key: KeyRecord, retire_others_at: datetime | None) -> None:
        if retire_others_at is not None:
            for other in await self.keys(key.app_id):
                if other.expires_at is None or other.expires_at > retire_others_at:
                    self._keys[other.key_id] = msgspec.structs.replace(other, expires_at=retire_others_at)
        self._keys[key.key_id] = key

    async def key(self, key_id: str) -> KeyRecord | None:
        return self._keys.get(key_id)

    async def keys(self, app_id: str) -> list[KeyRecord]:
        return sorted((k for k in self._keys.values() if k.app_id == app_id), key=lambda k: (k.created_at, k.key_id))

    async def revoke_keys(self, app_id: str, at: datetime) -> int:
        revoked = [key for key in await self.keys(app_id) if key.revoked_at is None]
        for key in revoked:
            self._keys[key.key_id] = msgspec.structs.replace(key, revoked_at=at)
        return len(revoked)
