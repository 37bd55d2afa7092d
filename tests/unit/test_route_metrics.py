"""`RouteMetrics` exposes what Litestar's own Prometheus middleware exposes: the same series, with
the same counts, for answers, server errors and requests that raise past it."""

from __future__ import annotations

import re
from typing import Annotated

from litestar import Litestar, get
from litestar.exceptions import HTTPException
from litestar.params import PathParameter
from litestar.plugins.prometheus import PrometheusConfig, PrometheusMiddleware
from litestar.testing import TestClient
from litestar.types import ASGIApp, Receive, Scope, Send
from prometheus_client import REGISTRY, generate_latest

from kaiten.api.metrics import RouteMetrics


@get("/things/{thing_id:str}")
async def thing(thing_id: Annotated[str, PathParameter()]) -> dict[str, str]:
    if thing_id == "broken":
        raise HTTPException(status_code=503, detail="down")
    if thing_id == "missing":
        raise HTTPException(status_code=404, detail="no such thing")
    return {"id": thing_id}


def refusing(app: ASGIApp) -> ASGIApp:
    """Raises past the metrics for one path, as the rate limiter does."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["path"].endswith("/refused"):
            raise HTTPException(status_code=429, detail="slow down")
        await app(scope, receive, send)

    return middleware


def exposed(prefix: str, middleware: type[PrometheusMiddleware]) -> list[str]:
    """The app's series after the same requests, its prefix taken out, durations left out. The
    series are then taken out of the process's registry, which a server test in the same test
    worker scrapes whole (tests/e2e/test_metrics.py)."""
    config = PrometheusConfig(app_name="things", prefix=prefix, group_path=True, middleware_class=middleware)
    app = Litestar([thing], middleware=[config.middleware, refusing])
    try:
        with TestClient(app) as client:
            for thing_id in ("a", "b", "a", "broken", "missing", "refused"):
                client.get(f"/things/{thing_id}")
        lines = generate_latest(REGISTRY).decode().splitlines()
    finally:
        # Litestar keeps each series made by name, for every app of the process.
        for name in [name for name in PrometheusMiddleware._metrics if name.startswith(f"{prefix}_")]:
            REGISTRY.unregister(PrometheusMiddleware._metrics.pop(name))
    ours = [line.replace(prefix, "PREFIX") for line in lines if re.match(rf"(# \w+ )?{prefix}_", line)]
    return [line for line in ours if "_created" not in line and "_sum" not in line and "_bucket" not in line]


def test_route_metrics_expose_what_litestars_middleware_exposes() -> None:
    theirs = exposed("litestars", PrometheusMiddleware)
    assert any('status_code="503"' in line for line in theirs)
    assert exposed("routes", RouteMetrics) == theirs
    left = [
        line
        for line in generate_latest(REGISTRY).decode().splitlines()
        if re.match(r"(# \w+ )?(litestars|routes)_", line)
    ]
    assert not left, "the test's series are still exposed"
