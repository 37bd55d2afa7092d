"""bench/instructions.py counts what it says: the requests sent while callgrind's instrumentation is
on are the commands asked for, each answered with success, after the warm-up ones."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
import sqlalchemy as sa

from bench.instructions import drive, kaiten_app
from kaiten.adapters.database import create_engine
from kaiten.adapters.schema import events

pytestmark = pytest.mark.one_store


async def test_the_counted_requests_are_people_commands_between_instrumentation_on_and_off(
    own_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KAITEN_AUTH", "open")
    switched: list[bool] = []
    sent_before: list[int] = []

    async def instrument(on: bool) -> None:
        switched.append(on)
        sent_before.append(await commands_stored(own_database_url))

    app = kaiten_app(own_database_url)
    counted = await drive("commands", app, warm=12, counted=30, clients=3, instrument=instrument)
    assert counted == 30
    assert switched == [True, False]
    # Each request counted (answered 200, or drive raises) appended a command, after the 12 warming up.
    on, off = sent_before
    assert on >= 12 and off - on == 30


async def commands_stored(database_url: str) -> int:
    """The people's commands stored over every game: the distinct command ids of the events' metadata."""
    engine = create_engine(database_url)
    try:
        async with engine.connect() as connection:
            rows = (await connection.execute(sa.select(events.c.metadata))).scalars().all()
    finally:
        await engine.dispose()
    return len({metadata["command_id"] for metadata in map(as_json, rows) if "command_id" in metadata})


def as_json(value: Any) -> Any:
    return msgspec.json.decode(value) if isinstance(value, str | bytes) else value
