"""The OPTIONS answer of a path that two handlers of one controller share.

Litestar's own OPTIONS answer for a path keeps the methods of the handler registered first (`POST`
alone where a `GET` shares the path), so such a path answers for itself, with every method it takes.
"""

from __future__ import annotations

from typing import Any

from litestar import Response, route
from litestar.handlers import HTTPRouteHandler


def options_allowing(*methods: str, path: str = "/") -> HTTPRouteHandler:
    """A controller's OPTIONS handler at `path` (its own by default), answering 204 with `Allow: <methods>`."""
    allow = ", ".join(sorted({*methods, "OPTIONS"}))

    @route(path, http_method=["OPTIONS"], include_in_schema=False, status_code=204)
    async def allowed(self: Any) -> Response[None]:
        return Response(None, status_code=204, headers={"Allow": allow})

    return allowed
