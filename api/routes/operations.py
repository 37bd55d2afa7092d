"""Liveness and readiness."""

from __future__ import annotations

from litestar import get
from litestar.datastructures import State

from api.dependencies import services_of
from api.schemas import Health
from services.errors import ServiceError


@get("/health", operation_id="health", summary="The process is up", tags=["operations"])
async def health() -> Health:
    return Health(status="ok")


@get("/ready", operation_id="ready", summary="The database is reachable and migrated", tags=["operations"])
async def ready(state: State) -> Health:
    if not await services_of(state).is_ready():
        raise ServiceError("unavailable", "not-ready", "the database is unreachable or not migrated")
    return Health(status="ready")
