"""Liveness and readiness."""

from __future__ import annotations

from litestar import get
from litestar.datastructures import State

from kaiten.api.dependencies import services_of
from kaiten.api.schemas import Health
from kaiten.services.errors import ServiceError


@get("/health", operation_id="health", summary="The process is up", tags=["operations"])
async def health() -> Health:
    return Health(status="ok")


@get(
    "/ready",
    operation_id="ready",
    summary="The database is reachable and migrated",
    description=(
        "`auth` says whether the server needs app keys (`keys`) or lets callers without one write as its "
        "built-in app (`open`)."
    ),
    tags=["operations"],
)
async def ready(state: State) -> Health:
    services = services_of(state)
    if not await services.is_ready():
        raise ServiceError("unavailable", "not-ready", "the database is unreachable or not migrated")
    return Health(status="ready", auth="keys" if services.games.open_app is None else "open")
