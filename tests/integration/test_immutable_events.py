"""Events are never updated or deleted: the database itself refuses, whoever asks."""

from __future__ import annotations

import uuid

import msgspec
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.sql_store import SqlEventStore
from kaiten.services.ports import NewEvent


@pytest.mark.parametrize(
    "statement",
    ["UPDATE events SET type = 'Forged' WHERE stream_id = :stream", "DELETE FROM events WHERE stream_id = :stream"],
    ids=["update", "delete"],
)
async def test_changing_events_is_refused(engine: AsyncEngine, statement: str) -> None:
    store = SqlEventStore(engine)
    stream = str(uuid.uuid4())
    await store.append(stream, 0, [NewEvent("GameCreated", msgspec.json.encode({"type": "GameCreated"}))])
    async with engine.connect() as connection:
        with pytest.raises(DBAPIError, match="events are immutable"):
            await connection.execute(sa.text(statement), {"stream": stream})
    assert [e.type for e in await store.read(stream)] == ["GameCreated"]
