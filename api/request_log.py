"""One JSON log line per request, and an `X-Request-ID` on every response.

It wraps the whole application (not one route's handler), so requests that match no route, or a
route but not its method, are logged too. Lines carry the route's template rather than the path,
the game id, and the seat the token matched, but never a token. The same middleware says how caches
may keep the answers under /v1 (api/caching.py): one wrapper around the application and one around
its `send` rather than two of each.
"""

from __future__ import annotations

import logging
import re
import time

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from kaiten.adapters.bot_workers import RequestsInFlight
from kaiten.adapters.system import random_uuid_hex
from kaiten.api.caching import is_private, private_headers
from kaiten.services.caller import caller_seat

log = logging.getLogger("kaiten.request")

#: A client's own request id is kept when it is a plain token of reasonable length.
_CLIENT_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


def request_id_of(scope: Scope) -> str:
    for name, value in scope["headers"]:
        if name == b"x-request-id":
            given = value.decode("latin-1")
            if _CLIENT_ID.match(given):
                return given
    return random_uuid_hex()


#: Requests that read: the bots do not pause for them, or a client polling a table would halve them.
_READS = frozenset({"GET", "HEAD", "OPTIONS"})


class RequestLog:
    """With `in_flight`, it also counts the requests that write (a person's command, a seat taken)
    while they wait for their answer to start, for the bot workers' searches to pause meanwhile
    (adapters/bot_workers.py)."""

    def __init__(self, app: ASGIApp, in_flight: RequestsInFlight | None = None) -> None:
        self.app = app
        self.in_flight = in_flight

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        request_id = request_id_of(scope)
        started = time.perf_counter()
        status = 500
        private = is_private(scope["path"])

        # Set while the request is counted: until its answer starts, or it fails before.
        counted = None if scope["method"] in _READS else self.in_flight
        if counted is not None:
            counted.started()

        async def send_with_id(message: Message) -> None:
            nonlocal status, counted
            if message["type"] == "http.response.start":
                if counted is not None:
                    counted.answered()
                    counted = None
                status = message["status"]
                headers = message.get("headers", ())
                message["headers"] = [
                    *(private_headers(headers) if private else headers),
                    (b"x-request-id", request_id.encode()),
                ]
            await send(message)

        seat = caller_seat.set(None)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if counted is not None:
                counted.answered()
            path_params = scope.get("path_params") or {}
            log.info(
                "%s %s %s",
                scope["method"],
                scope.get("path_template") or "(no route)",
                status,
                extra={
                    "request": {
                        "request_id": request_id,
                        "method": scope["method"],
                        "route": scope.get("path_template"),
                        "status": status,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                        "game_id": path_params.get("game_id"),
                        "seat": caller_seat.get(),
                    }
                },
            )
            caller_seat.reset(seat)
