"""The app's response class: a route's plain JSON answer sent as two ASGI messages, nothing between.

Litestar turns every value a route returns into a `Response`, then an `ASGIResponse`, whose headers
are kept in a `MutableScopeHeaders` (each name decoded to be compared as the two it sets are added)
and whose sending goes through its start, body and after-response steps. For the answer most routes
give (a JSON body, no cookies, headers or background work of the route's own) that cost a person's
command 55 k instructions (3.4%, bench/README.md). `JsonAnswers` sends exactly what `ASGIResponse`
would: the same body, rendered by Litestar's own `render` with the same encoders, then the
`content-type` and `content-length` headers in the same order. Any other answer takes Litestar's way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from litestar.enums import MediaType
from litestar.response import Response
from litestar.serialization import get_serializer
from litestar.status_codes import HTTP_200_OK, HTTP_204_NO_CONTENT, HTTP_304_NOT_MODIFIED

if TYPE_CHECKING:
    from litestar import Litestar, Request
    from litestar.background_tasks import BackgroundTask, BackgroundTasks
    from litestar.datastructures import Cookie
    from litestar.response.base import ASGIResponse
    from litestar.types import Receive, Scope, Send, TypeEncodersMap

_JSON = MediaType.JSON.value
_CONTENT_TYPE = (b"content-type", _JSON.encode())


class JsonAnswer:
    """A JSON body with its status, as an ASGI app."""

    __slots__ = ("body", "status")

    def __init__(self, status: int, body: bytes) -> None:
        self.status = status
        self.body = body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = [_CONTENT_TYPE, (b"content-length", str(len(self.body)).encode())]
        await send({"type": "http.response.start", "status": self.status, "headers": headers})
        await send({"type": "http.response.body", "body": self.body, "more_body": False})


class JsonAnswers(Response[Any]):
    def to_asgi_response(
        self,
        app: Litestar | None,
        request: Request[Any, Any, Any],
        *,
        background: BackgroundTask | BackgroundTasks | None = None,
        cookies: Iterable[Cookie] | None = None,
        encoded_headers: Iterable[tuple[bytes, bytes]] | None = None,
        headers: dict[str, str] | None = None,
        is_head_response: bool = False,
        media_type: MediaType | str | None = None,
        status_code: int | None = None,
        type_encoders: TypeEncodersMap | None = None,
    ) -> ASGIResponse:
        status = self.status_code or status_code or HTTP_200_OK
        plain = (
            app is None
            and not (self.background or background or self.cookies or cookies or self.headers or headers)
            and encoded_headers is None
            and not is_head_response
            and (self.media_type or media_type or _JSON) == _JSON
            and status >= HTTP_200_OK
            and status not in (HTTP_204_NO_CONTENT, HTTP_304_NOT_MODIFIED)
        )
        if not plain:
            return super().to_asgi_response(
                app,
                request,
                background=background,
                cookies=cookies,
                encoded_headers=encoded_headers,
                headers=headers,
                is_head_response=is_head_response,
                media_type=media_type,
                status_code=status_code,
                type_encoders=type_encoders,
            )
        encoders = {**type_encoders, **self.response_type_encoders} if type_encoders else self.response_type_encoders
        body = self.render(self.content, _JSON, get_serializer(encoders))
        # Sent as an ASGIResponse would be: every caller of this method only calls what it returns.
        return JsonAnswer(status, body)  # type: ignore[return-value]
