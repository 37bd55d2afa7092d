"""bench/minimal_app.py's same-writes yardstick writes, through kaiten's own store, exactly what the
commands of the bench's planned game write: its ratio then measures the command path beyond them."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from bench.api import SEATS, planned
from bench.minimal_app import app
from kaiten.adapters.database import create_engine
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.services.ports import GameSummary


async def test_a_plan_holds_its_creations_appends_then_one_a_command() -> None:
    plan = await planned("sushi-go", SEATS)
    assert len(plan.appends) == plan.created + len(plan.commands)
    assert plan.appends[0].expected_version == 0
    after = [append.expected_version + len(append.events) for append in plan.appends[plan.created :]]
    assert after == plan.versions


async def test_the_same_writes_yardstick_writes_the_plans_events_and_summary(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", database_url)
    async with AsyncTestClient(app) as client:
        plan = app.state.plan
        for step in range(len(plan.appends)):
            answer = await client.post("/append", json={"stream_id": "a-yardstick-game", "step": step})
            assert answer.status_code == 200, answer.text
    engine = create_engine(database_url)
    try:
        store = SqlEventStore(engine)
        written = await store.read("a-yardstick-game")
        summary = await store.summary("a-yardstick-game")
    finally:
        await engine.dispose()
    planned_events = [event for append in plan.appends for event in append.events]
    assert [(event.type, msgspec.json.decode(event.data)) for event in written] == [
        (event.type, msgspec.json.decode(event.data)) for event in planned_events
    ]
    last = plan.appends[-1].summary
    assert summary is not None and last is not None
    assert summary.status == "finished"
    assert unstamped(summary) == unstamped(msgspec.structs.replace(last, game_id="a-yardstick-game"))


def unstamped(summary: GameSummary) -> dict[str, Any]:
    """A summary's fields as JSON holds them, but the times the store stamps at its own append."""
    fields: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(summary))
    return {name: value for name, value in fields.items() if name not in ("created_at", "updated_at", "finished_at")}
