"""The Prometheus metrics route (`/metrics`), whose every metric README.md lists ("Metrics").

The request metrics are Litestar's (`PrometheusConfig` in api/app.py, labelled by route template,
counted by `RouteMetrics`); the projections count their lag and quarantine (adapters/projections/);
the backlogs are counted in the database as the route is scraped and the pools read from the engines
(adapters/metrics.py)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from litestar import Controller, Request, get
from litestar.datastructures import State
from litestar.enums import ScopeType
from litestar.plugins.prometheus import PrometheusConfig, PrometheusMiddleware
from litestar.response import Response
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from prometheus_client.metrics import Counter, Gauge, Histogram
from sqlalchemy.exc import SQLAlchemyError

from kaiten.adapters.metrics import POOLS, measure_backlogs
from kaiten.adapters.system import SystemClock
from kaiten.api.bootstrap import Services
from kaiten.api.dependencies import services_of

log = logging.getLogger("kaiten.metrics")


class RouteMetrics(PrometheusMiddleware):
    """Litestar's request metrics, the same series with the same values, each looked up once.

    Litestar's own middleware builds a `Request` and parses its URL, then looks every series up by its
    labels (a lock and a tuple each) four times a request: 5% of a person's command's instructions. The
    labels are always the method, the route's template, the status and the app's name here (no extra
    labels, exemplars or excluded methods, which this middleware refuses)."""

    def __init__(self, app: ASGIApp, config: PrometheusConfig) -> None:
        if config.labels or config.exemplars or config.excluded_http_methods or not config.group_path:
            raise ValueError("RouteMetrics counts by route template alone, without extra labels or exemplars")
        super().__init__(app, config)
        self._in_progress: dict[tuple[str, str], Gauge] = {}
        self._answered: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}

    def _labels(self, method: str, path: str, status: int) -> dict[str, str | int | float]:
        return {"method": method, "path": path, "status_code": status, "app_name": self._config.app_name}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = scope["method"] if scope["type"] == ScopeType.HTTP else scope["type"]
        path = scope["path_template"]
        started = time.perf_counter()
        # As Litestar's: a request that raises instead of answering counts as a 200 that took no time.
        status, duration = 200, 0.0

        async def timed_send(message: Message) -> None:
            nonlocal status, duration
            if message["type"] == "http.response.start":
                status = message["status"]
            if message["type"] == "http.response.body":
                duration = time.perf_counter() - started
            await send(message)

        in_progress = self._in_progress.get((method, path))
        if in_progress is None:
            labels = self._labels(method, path, 200)
            in_progress = self._in_progress[method, path] = self.requests_in_progress(labels).labels(*labels.values())
        in_progress.inc()
        try:
            await self.app(scope, receive, timed_send)
        finally:
            in_progress.dec()
            answered = self._answered.get((method, path, status))
            if answered is None:
                labels = self._labels(method, path, status)
                values = labels.values()
                answered = self._answered[method, path, status] = (
                    self.request_count(labels).labels(*values),
                    self.request_time(labels).labels(*values),
                )
            if status >= HTTP_500_INTERNAL_SERVER_ERROR:
                # Looked up only then: the errors' series appear with the first 5xx, as Litestar's do.
                labels = self._labels(method, path, status)
                self.requests_error_count(labels).labels(*labels.values()).inc()
            count, timing = answered
            count.inc()
            timing.observe(duration)


def watch_pools(services: Services) -> Callable[[], None]:
    """Report the services' pools (primary, replica, the appends' connections) until the function
    returned is called."""
    pools = (("primary", services.engine), ("replica", services.read_engine), ("appends", services.appends))
    stops = [POOLS.watch(role, pool) for role, pool in pools if pool is not None]

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
