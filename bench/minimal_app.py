"""The yardstick for bench/api.py: a Litestar endpoint that does one INSERT, through the same engine setup."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar, post
from litestar.datastructures import State
from sqlalchemy import text

from kaiten.adapters.database import create_engine

INSERT = text("INSERT INTO bench_pings (stream_id, data) VALUES (:stream_id, CAST(:data AS jsonb))")


@post("/ping", status_code=200)
async def ping(state: State, data: dict[str, Any]) -> dict[str, str]:
    stream_id = str(uuid.uuid4())
    async with state.engine.begin() as connection:
        await connection.execute(INSERT, {"stream_id": stream_id, "data": '{"type": "Ping"}'})
    return {"id": stream_id}


@asynccontextmanager
async def lifespan(app: Litestar) -> AsyncIterator[None]:
    app.state.engine = create_engine(os.environ["DATABASE_URL"])
    try:
        yield
    finally:
        await app.state.engine.dispose()


app = Litestar(route_handlers=[ping], lifespan=[lifespan])
