"""What caches may do with the API's answers: keep them for the caller alone, and per credential.

Almost every answer under /v1 depends on who asks: a seat sees its own hand, an app its own games, a
private game answers only those who hold its credential. So every such answer says
`Cache-Control: private` (unless its route said otherwise, as a stream does) and
`Vary: Authorization, Origin`. This wraps the whole application, CORS included: Litestar's CORS sets
`Vary: Origin` in place of what the route said, and a cache that then keys on the origin alone hands
one token's answer to another (api/conditional.py makes the entity tags differ per viewer too).
"""

from __future__ import annotations

from litestar.datastructures import MutableScopeHeaders
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

#: What a caller-dependent answer varies with: the credential, and the page's origin (CORS).
VARY = ("Authorization", "Origin")


class PrivateAnswers:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP or not scope["path"].startswith("/v1/"):
            await self.app(scope, receive, send)
            return

        async def send_private(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableScopeHeaders.from_message(message)
                named = [name.strip() for value in headers.getall("vary", []) for name in value.split(",")]
                wanted = [*VARY, *(name for name in named if name and name.lower() not in {"authorization", "origin"})]
                headers["Vary"] = ", ".join(wanted)
                if "cache-control" not in headers:
                    headers["Cache-Control"] = "private"
            await send(message)

        await self.app(scope, receive, send_private)
