"""`JsonAnswers` sends what Litestar's own response class sends, message for message, and takes its
short way only for a plain JSON answer; the app's dependencies are read from its state when called."""

from __future__ import annotations

import datetime
import decimal
import uuid
from pathlib import PurePosixPath
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest
from litestar import Litestar, Request, get, post
from litestar.datastructures import Cookie, ResponseHeader
from litestar.response import Response
from litestar.types import Message

from kaiten.api.answers import JsonAnswer, JsonAnswers
from kaiten.api.app import create_app
from kaiten.api.settings import Settings


class Thing(msgspec.Struct):
    name: str
    sizes: list[int]
    at: datetime.datetime


def handlers() -> list[Any]:
    """The routes, made anew for each app: a route handler keeps the response class its first app
    resolved for it."""

    @get("/struct")
    async def a_struct() -> Thing:
        return Thing("nigiri", [1, 2], datetime.datetime(2026, 12, 6, 21, 0, tzinfo=datetime.UTC))

    @get("/dict")
    async def a_dict() -> dict[str, Any]:
        # Values msgspec encodes only through Litestar's encoders.
        return {"id": uuid.UUID(int=7), "price": decimal.Decimal("1.50"), "path": PurePosixPath("/a/b"), "é": "ü"}

    @post("/created")
    async def created() -> dict[str, int]:
        return {"version": 1}

    @get("/list")
    async def a_list() -> list[int]:
        return [1, 2, 3]

    @get("/with-headers", response_headers=[ResponseHeader(name="x-thing", value="1")])
    async def with_headers() -> dict[str, int]:
        return {"n": 1}

    @get("/with-cookie", response_cookies=[Cookie(key="k", value="v")])
    async def with_cookie() -> dict[str, int]:
        return {"n": 1}

    @get("/text", media_type="text/plain")
    async def text() -> str:
        return "plain"

    @post("/nothing", status_code=204)
    async def nothing() -> None:
        return None

    @get("/response")
    async def a_response() -> Response[dict[str, int]]:
        return Response({"n": 1}, headers={"etag": '"1"'})

    return [a_struct, a_dict, created, a_list, with_headers, with_cookie, text, nothing, a_response]


CASES = [
    ("GET", "/struct"),
    ("GET", "/dict"),
    ("POST", "/created"),
    ("GET", "/list"),
    ("GET", "/with-headers"),
    ("GET", "/with-cookie"),
    ("GET", "/text"),
    ("POST", "/nothing"),
    ("GET", "/response"),
    ("GET", "/no-such-route"),
]


async def sent(app: Litestar, method: str, path: str) -> list[Message]:
    """The ASGI messages the app sends for one request without a body."""
    messages: list[Message] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        messages.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"test")],
        "client": ("127.0.0.1", 1),
        "server": ("test", 80),
        "state": {},
    }
    await app(scope, receive, send)  # type: ignore[arg-type]
    return messages


@pytest.mark.parametrize(("method", "path"), CASES)
async def test_every_answer_is_sent_as_litestars_response_class_sends_it(method: str, path: str) -> None:
    ours = await sent(Litestar(handlers(), response_class=JsonAnswers), method, path)
    theirs = await sent(Litestar(handlers()), method, path)
    assert ours == theirs
    assert ours[0]["type"] == "http.response.start"


def request() -> Request[Any, Any, Any]:
    return Request({"type": "http", "method": "GET", "path": "/", "headers": [], "app": None})  # type: ignore[typeddict-item]


@pytest.mark.parametrize("content", [{"n": 1}, [1], Thing("x", [], datetime.datetime(2026, 1, 1))])
def test_a_plain_json_answer_takes_the_short_way(content: object) -> None:
    answer = JsonAnswers(content, media_type="application/json").to_asgi_response(None, request())
    assert isinstance(answer, JsonAnswer)
    assert msgspec.json.decode(answer.body) == msgspec.to_builtins(content)


@pytest.mark.parametrize(
    "response",
    [
        JsonAnswers({"n": 1}, headers={"etag": '"1"'}),
        JsonAnswers({"n": 1}, cookies=[Cookie(key="k", value="v")]),
        JsonAnswers({"n": 1}, media_type="application/problem+json"),
        JsonAnswers("text", media_type="text/plain"),
        JsonAnswers(None, status_code=204),
        JsonAnswers(None, status_code=304),
    ],
)
def test_any_other_answer_takes_litestars_way(response: JsonAnswers) -> None:
    assert not isinstance(response.to_asgi_response(None, request()), JsonAnswer)


def test_the_apps_dependencies_take_no_parameters_and_read_the_services_it_holds_when_called() -> None:
    app = create_app(settings=Settings.from_env())
    assert all(not provide.signature_model._fields for provide in app.dependencies.values())
    for games in ("the first services' use case", "the next ones'"):
        # Stand-ins for the services handed to the app (the tests hand each test's to one app).
        app.state.services = SimpleNamespace(games=games)
        assert app.dependencies["games"].dependency() == games
