"""The yardsticks for bench/api.py, served by one Litestar app through the same engine setup as kaiten:

- `POST /ping` does one INSERT;
- `POST /append` makes the writes of one of a planned game's appends (`step`) on a stream of the
  caller's, through kaiten's own event store and the appends' own connections, as a serving process
  makes them: the same statement, rows, summary and notices as the command that made that append,
  and nothing else of a command's path (no caller to identify, no table to load, no rules, no answer
  to present). Commands against it measure what the path costs beyond its own writes.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
from litestar import Litestar, post
from litestar.datastructures import State
from litestar.params import JSONBody
from sqlalchemy import text

from bench.api import SEATS, planned
from kaiten.adapters.database import POOL_TIMEOUT_SECONDS, append_connections, append_connections_for, create_engine
from kaiten.adapters.projections.registry import build_projections, projected_types
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.adapters.system import SystemClock

INSERT = text("INSERT INTO bench_pings (stream_id, data) VALUES (:stream_id, CAST(:data AS jsonb))")


class AppendStep(msgspec.Struct, frozen=True):
    stream_id: str
    step: int


@post("/ping", status_code=200)
async def ping(state: State, data: JSONBody[dict[str, Any]]) -> dict[str, str]:
    stream_id = str(uuid.uuid4())
    async with state.engine.begin() as connection:
        await connection.execute(INSERT, {"stream_id": stream_id, "data": '{"type": "Ping"}'})
    return {"id": stream_id}


@post("/append", status_code=200)
async def append(state: State, data: JSONBody[AppendStep]) -> dict[str, int]:
    made = state.plan.appends[data.step]
    summary = None if made.summary is None else msgspec.structs.replace(made.summary, game_id=data.stream_id)
    stored = await state.store.append(
        data.stream_id, made.expected_version, made.events, summary, outbox=made.outbox, feed=made.feed
    )
    return {"version": stored[-1].version}


@asynccontextmanager
async def lifespan(app: Litestar) -> AsyncIterator[None]:
    engine = create_engine(os.environ["DATABASE_URL"])
    app.state.engine = engine
    projected = projected_types(build_projections(engine.dialect.name))
    # As a serving process appends: on connections of their own (adapters/append_connections.py).
    appends = append_connections(engine, append_connections_for(), POOL_TIMEOUT_SECONDS, pooler=False)
    app.state.store = SqlEventStore(engine, clock=SystemClock(), projected=projected, appends=appends)
    app.state.plan = await planned("sushi-go", SEATS)
    try:
        yield
    finally:
        await appends.close()
        await engine.dispose()


app = Litestar(route_handlers=[ping, append], lifespan=[lifespan])
