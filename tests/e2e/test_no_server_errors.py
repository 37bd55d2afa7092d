"""Whatever a client sends, to any route, the answer is never a 5xx (and never a traceback).

Random bytes, random JSON and random query strings and headers go to every route and method of the
app, on SQLite and PostgreSQL, with real game ids and tokens mixed in so that requests reach past
the first checks. The stream route only ever gets a finished game (a running one streams forever).
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.routes import HTTPRoute

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.api.app import create_app
from kaiten.api.bootstrap import bootstrap_with_store
from tests.app_client import AppClient
from tests.e2e.play import bearer, create
from tests.e2e.serving import serving

#: Two logs recorded by kaiten 0.1.0 (tests/golden), whose mutations the import route gets.
GOLDEN_LOGS = [
    json.loads((Path(__file__).resolve().parents[1] / "golden" / name).read_text(encoding="utf-8"))
    for name in ("0.1.0-4363b1c/sushi-go-2p-bots.json", "0.1.0/spin-some-2p-humans.json")
]

#: Sorted: the app lists some routes in an order of its own, which pytest-xdist's workers must agree on.
ROUTES = sorted(
    (route.path, method)
    for route in create_app(bootstrap_with_store(InMemoryEventStore())).routes
    if isinstance(route, HTTPRoute)
    for method in route.methods
    if method not in ("OPTIONS", "HEAD")
)
STREAM_ROUTE = "/v1/games/{game_id:str}/events/stream"
QUERY_KEYS = ["after", "limit", "at", "min_version", "game", "status", "player_id", "cursor", "ticket"]
#: Numbers past what a stream holds, and past what Python reads (4,300 digits), bare and as tags.
HUGE = ["2147483648", "9" * 4301, "-1", "0x10"]
HEADER_TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40) | st.sampled_from(
    [*HUGE, *(f'"{number}"' for number in HUGE), f'W/"{HUGE[1]}"', f'"1-{"0" * 16}", "{HUGE[1]}"', "*"]
)
#: Values that broke servers before: NUL (PostgreSQL refuses it), huge numbers, paths, bidi, quotes.
NASTY = [
    "\x00",
    "a\x00b",
    "9" * 5000,
    "2147483648",
    "\u0661\u0662",
    "\u00b2",
    "http://[::1/",
    "-1",
    "0",
    "%",
    "../..",
    "\u202e",
    "null",
    "' OR 1=1 --",
    "\U0001f363",
]
ANY_TEXT = st.text(max_size=40) | st.sampled_from(NASTY)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=12,
)
#: Bodies shaped like the API's own, with random values, so that they get past the JSON decoder.
shaped = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["pick", "spin", "eat", "order", "pass"]) | ANY_TEXT,
        "cards": st.lists(st.integers() | ANY_TEXT, max_size=3),
        "game": st.sampled_from(["sushi-go", "dim-sum-derby"]) | ANY_TEXT,
        "players": st.integers(),
        "seed": st.integers(),
        "options": json_values,
        "seats": st.lists(st.dictionaries(st.sampled_from(["name", "bot", "player_id"]), ANY_TEXT), max_size=3),
        "name": ANY_TEXT,
        "bot": ANY_TEXT,
        "end_of_game": json_values,
        "url": st.sampled_from(["http://[::1/", "http://100.100.100.200/x", "http://h:99999/"]) | ANY_TEXT,
        "events": st.lists(st.sampled_from(["turn", "finished"]) | ANY_TEXT, max_size=2),
        "secret": ANY_TEXT,
        "salt": st.sampled_from(["zz", "0" * 32]) | ANY_TEXT,
    },
)


@st.composite
def logs(draw: st.DrawFn) -> bytes:
    """A real log of kaiten 0.1.0 with a few of its values replaced by random ones: past the first
    checks of an import, into the folding and the deciding again."""
    document = copy.deepcopy(draw(st.sampled_from(GOLDEN_LOGS)))
    events = document["events"]
    for _ in range(draw(st.integers(1, 3))):
        event = events[draw(st.integers(0, len(events) - 1))]
        data = event.get("data")
        where = data if isinstance(data, dict) and data and draw(st.booleans()) else event
        key = draw(st.sampled_from(sorted(where)))
        where[key] = draw(json_values)
    return msgspec.json.encode(document)


bodies = (
    st.none()
    | st.binary(max_size=200)
    | json_values.map(msgspec.json.encode)
    | shaped.map(msgspec.json.encode)
    | logs()
)


@st.composite
def requests(draw: st.DrawFn, path: str, method: str, games: dict[str, Any]) -> dict[str, Any]:
    ids = [games["finished"]] if path == STREAM_ROUTE else [games["running"], games["finished"]]
    game_id = draw(st.sampled_from(ids) | st.uuids().map(str) | ANY_TEXT | st.sampled_from(["sushi-go"]))
    url = path
    for name in ("game_id", "player_id", "game"):
        url = url.replace(f"{{{name}:str}}", quote(game_id, safe="") or "x")
    query = draw(st.dictionaries(st.sampled_from(QUERY_KEYS) | ANY_TEXT, ANY_TEXT | st.integers().map(str), max_size=4))
    headers = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "Authorization": st.sampled_from([bearer(games["token"])["Authorization"], "Bearer nope"])
                | HEADER_TEXT,
                "If-Match": HEADER_TEXT,
                "If-None-Match": HEADER_TEXT,
                "Idempotency-Key": HEADER_TEXT,
                "Last-Event-ID": HEADER_TEXT,
                "Content-Type": st.sampled_from(["application/json", "text/plain"]),
            },
        )
    )
    body = draw(bodies) if method in ("POST", "PUT", "PATCH") else None
    return {"method": method, "url": url, "params": query, "headers": headers, "content": body}


@pytest.fixture(
    scope="module",
    params=[
        pytest.param("sqlite", id="sqlite"),
        pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
    ],
)
def fuzzed_database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """One database a store for the whole module: every route is fuzzed against the same server, as a
    server meets them (a fresh database and app for each of some 120 routes took half the module's time)."""
    if request.param == "sqlite":
        copy: Callable[[Path], str] = request.getfixturevalue("sqlite_copy")
        return copy(tmp_path_factory.mktemp("fuzzed") / "kaiten.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture(scope="module")
async def client(fuzzed_database_url: str) -> AsyncIterator[AppClient]:
    async with serving(fuzzed_database_url) as built, AppClient(app=create_app(built)) as test_client:
        yield test_client


@pytest.fixture(scope="module")
async def games(client) -> dict[str, Any]:
    running = await create(client, "sushi-go", 2, seed=3)
    # A finished game of bots, imported: its bots moved when it was recorded. A game of bots created
    # here would wait for the server's bots, and be refused (429 bots-busy) while other tests' games
    # owe the session's shared database more bot moves than this server's bots may catch up with.
    imported = await client.post("/v1/games/import", json=GOLDEN_LOGS[0])
    assert imported.status_code in (200, 201), imported.text  # 200: imported by an earlier test already
    finished = imported.json()
    assert finished["status"] == "finished"
    return {"running": running["id"], "token": running["tokens"]["0"], "finished": finished["id"]}


@pytest.mark.parametrize(("path", "method"), ROUTES, ids=[f"{method} {path}" for path, method in ROUTES])
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], deadline=None)
@given(data=st.data())
async def test_no_request_gets_a_server_error(client, games, caplog, path, method, data):
    """Each route of the app (read from it, so a route added later is fuzzed without being listed)."""
    request = data.draw(requests(path, method, games))
    with caplog.at_level(logging.ERROR):
        response = await client.request(**request)
    assert response.status_code < 500, (request, response.text)
    if response.status_code >= 400 and not request["url"].startswith("/schema"):
        assert response.headers["content-type"].startswith("application/problem+json"), request
        assert response.json()["code"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], request
