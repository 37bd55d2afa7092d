"""The Prometheus metrics route (`/metrics`), whose every metric README.md lists ("Metrics").

The request metrics are Litestar's (`PrometheusConfig` in api/app.py, labelled by route template); the
projections count their lag and quarantine (adapters/projections/); the backlogs are counted in the
database as the route is scraped and the pools read from the engines (adapters/metrics.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from litestar import Controller, Request, get
from litestar.datastructures import State
from litestar.response import Response
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from sqlalchemy.exc import SQLAlchemyError

from kaiten.adapters.metrics import POOLS, measure_backlogs
from kaiten.adapters.system import SystemClock
from kaiten.api.bootstrap import Services
from kaiten.api.dependencies import services_of

log = logging.getLogger("kaiten.metrics")


def watch_pools(services: Services) -> Callable[[], None]:
    """Report the services' pools (primary, replica) until the function returned is called."""
    engines = (("primary", services.engine), ("replica", services.read_engine))
    stops = [POOLS.watch(role, engine) for role, engine in engines if engine is not None]

    def unwatch() -> None:
        for stop in stops:
            stop()

    return unwatch


class MetricsController(Controller):
    path = "/metrics"
    include_in_schema = False

    @get()
    async def metrics(self, request: Request[object, object, State]) -> Response[bytes]:
        services = services_of(request.app.state)
        if services.engine is not None:
            try:
                await measure_backlogs(services.engine, SystemClock().now())
            except (OSError, SQLAlchemyError) as error:
                # The figures stay as last read; the rest of the page is this process's own.
                log.warning("backlogs not measured: %s", error)
        return Response(generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})
