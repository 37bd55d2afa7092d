"""The Litestar application factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.plugins.prometheus import PrometheusConfig, PrometheusController

from api.bootstrap import Services, bootstrap
from api.errors import EXCEPTION_HANDLERS
from api.routes.catalog import CatalogController
from api.routes.games import GamesController
from api.routes.history import HISTORY_HANDLERS
from api.routes.operations import health, ready
from api.routes.stream import StreamController
from api.settings import Settings
from api.shutdown import streams_end_on_exit_signal
from services.games import Games

API_VERSION = "1.0.0"


class MetricsController(PrometheusController):
    path = "/metrics"
    include_in_schema = False


def _games(state: State) -> Games:
    services: Services = state.services
    return services.games


def create_app(services: Services | None = None, settings: Settings | None = None) -> Litestar:
    """An app over the given services, or over services built from settings when it starts."""

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        owned = services is None
        # A serving process that builds its own services also runs the catch-up projections.
        database_url = (settings or Settings.from_env()).database_url
        running = bootstrap(database_url, run_projections=True) if services is None else services
        app.state.services = running
        await running.start()
        try:
            with streams_end_on_exit_signal(running):
                yield
        finally:
            # Services handed in belong to the caller, who closes them; background parts stop here.
            await (running.close() if owned else running.stop())

    metrics = PrometheusConfig(app_name="kaiten", prefix="kaiten", group_path=True)
    return Litestar(
        route_handlers=[
            CatalogController,
            GamesController,
            StreamController,
            *HISTORY_HANDLERS,
            health,
            ready,
            MetricsController,
        ],
        dependencies={"games": Provide(_games, sync_to_thread=False)},
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=[lifespan],
        middleware=[metrics.middleware],
        openapi_config=OpenAPIConfig(
            title="kaiten",
            version=API_VERSION,
            description="Event-sourced game engine for the Sushi Go family of card games.",
            path="/schema",
            render_plugins=[SwaggerRenderPlugin()],
        ),
    )
