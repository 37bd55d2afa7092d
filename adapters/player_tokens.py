"""Player tokens (services/players.py) in the database, or in memory for tests: kept as their SHA-256,
found by their id."""

from __future__ import annotations

from datetime import timedelta

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import for_reads, for_writes
from kaiten.adapters.schema import player_tokens
from kaiten.services.ports import PlayerTokenRecord

#: Expired tokens are forgotten this long after they expire.
KEPT_AFTER_EXPIRY = timedelta(days=1)


class SqlPlayerTokens:
    def __init__(self, engine: AsyncEngine) -> None:
        self._reader = for_reads(engine)
        self._writer = for_writes(engine)
        self._forget = sa.delete(player_tokens).where(player_tokens.c.expires_at < sa.bindparam("before"))
        self._get = sa.select(player_tokens).where(player_tokens.c.token_id == sa.bindparam("token_id"))

    async def add(self, record: PlayerTokenRecord) -> None:
        async with self._writer.begin() as connection:
            await connection.execute(self._forget, {"before": record.created_at - KEPT_AFTER_EXPIRY})
            await connection.execute(sa.insert(player_tokens), msgspec.structs.asdict(record))

    async def get(self, token_id: str) -> PlayerTokenRecord | None:
        async with self._reader.connect() as connection:
            row = (await connection.execute(self._get, {"token_id": token_id})).mappings().first()
        return None if row is None else PlayerTokenRecord(**row)


class InMemoryPlayerTokens:
    def __init__(self) -> None:
        self._tokens: dict[str, PlayerTokenRecord] = {}

    async def add(self, record: PlayerTokenRecord) -> None:
        self._tokens[record.token_id] = record

    async def get(self, token_id: str) -> PlayerTokenRecord | None:
        return self._tokens.get(token_id)
