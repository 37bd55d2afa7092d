"""The admin API (/v1/admin/apps, api/routes/admin.py): absent without KAITEN_ADMIN_KEY, open to that
key alone with it, and answering as the OpenAPI document says; across two `kaiten serve` processes on
one PostgreSQL database, a revoked or expired key stops working on both within a second."""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import jsonschema_rs
import msgspec
import pytest

from kaiten.api.app import create_app
from kaiten.api.bootstrap import Services
from kaiten.api.settings import MIN_ADMIN_KEY, Settings, SettingsError
from kaiten.services.ports import Quotas
from tests import plain_http
from tests.app_client import AppClient
from tests.e2e.play import finished
from tests.e2e.servers import ServerProcess
from tests.e2e.serving import serving

Client = AppClient

DOCUMENT: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "openapi" / "openapi.json").read_text(encoding="utf-8")
)
ADMIN = "/v1/admin/apps"
ADMIN_KEY = "test-admin-api-key-0123456789-abcdefghij"
#: Every operation of the admin API the document lists: (method, path template, operationId).
OPERATIONS = [
    (method.upper(), path, operation["operationId"])
    for path, item in DOCUMENT["paths"].items()
    if path.startswith(ADMIN)
    for method, operation in item.items()
]
#: A body each operation takes (the path's app, `{name}`, need not exist).
BODIES: dict[str, Any] = {
    "createApp": {"name": "{name}"},
    "setAppQuotas": {"games_per_hour": 1},
    "rotateAppKey": {"grace_seconds": 0},
}
KEY = re.compile(r"^kaiten_app_([0-9a-f]{16})_[A-Za-z0-9_-]{20,100}$")
BOTS_GAME = {"game": "sushi-go", "players": 2, "seats": [{"bot": "random"}, {"bot": "greedy"}]}
#: A game a key creates again and again: of people, so that no bot owes the servers a move after it.
PEOPLE_GAME = {"game": "sushi-go", "players": 2, "seats": [{"name": "Ann"}, {"name": "Bo"}]}
#: How long a serving process trusts what it read of a key (services/apps.py KEYS_SECONDS).
KEYS_SECONDS = 0.5
POLL_SECONDS = 0.05


def test_the_document_lists_the_admin_operations() -> None:
    assert sorted(operation for _, _, operation in OPERATIONS) == sorted(
        ["createApp", "listApps", "getApp", "setAppQuotas", "rotateAppKey", "revokeAppKeys"]
    )


@cache
def _validator(schema: str) -> Any:
    return jsonschema_rs.validator_for({**json.loads(schema), "components": DOCUMENT["components"]})


def documented(response: httpx.Response, method: str, path: str) -> Any:
    """The answer's body, once checked against what the document says the operation answers: its
    status listed, its media type, its body valid against the schema, a problem's code listed."""
    operation = DOCUMENT["paths"][path][method.lower()]
    listed = operation["responses"].get(str(response.status_code))
    assert listed is not None, f"{method} {path} answered {response.status_code}, unlisted: {response.text}"
    media = response.headers["content-type"].split(";")[0].strip()
    assert media in listed["content"], f"{method} {path} {response.status_code} answered {media}"
    body = response.json()
    schema = json.dumps(listed["content"][media]["schema"], sort_keys=True)
    errors = [str(error) for error in _validator(schema).iter_errors(body)]
    assert errors == [], f"{method} {path} {response.status_code}: {errors}"
    if "x-problem-codes" in listed:
        assert body["code"] in listed["x-problem-codes"], f"{method} {path}: {body}"
    return body


def unique_name(prefix: str = "shop") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


ADMIN_HEADERS = bearer(ADMIN_KEY)


def requests_of(name: str) -> Iterator[tuple[str, str, str, Any]]:
    """Each admin operation as a request about the app `name`: method, template, URL, body."""
    for method, path, operation in OPERATIONS:
        body = BODIES.get(operation)
        if body is not None:
            body = json.loads(json.dumps(body).replace("{name}", name))
        yield method, path, path.replace("{name}", name), body


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    """A server's services that need app keys (KAITEN_AUTH=keys), on a fresh database."""
    async with serving(database_url, open_app=None) as built:
        yield built


def client_of(services: Services, admin_key: str | None) -> Client:
    return AppClient(app=create_app(services, Settings(open=False, admin_key=admin_key)))


async def test_without_an_admin_key_every_admin_route_is_a_path_that_does_not_exist(services: Services) -> None:
    app_key = (await services.apps.create(unique_name("other"))).key
    name = unique_name()
    async with client_of(services, None) as client:
        for method, path, url, body in requests_of(name):
            unknown = await client.request(method, f"{ADMIN}-nothing/{name}", json=body)
            assert unknown.status_code == 404
            for headers in ({}, ADMIN_HEADERS, bearer(app_key)):
                answer = await client.request(method, url, json=body, headers=headers)
                assert answer.status_code == 404, f"{method} {url}: {answer.text}"
                problem = documented(answer, method, path)
                assert problem["instance"] == url
                # The same problem as any path the server does not have (but for where it was asked).
                expected = {key: value for key, value in unknown.json().items() if key not in ("instance", "detail")}
                assert {key: value for key, value in problem.items() if key not in ("instance", "detail")} == expected
                assert problem.keys() == unknown.json().keys()
                assert answer.headers["content-type"] == unknown.headers["content-type"]
    # Nothing was made.
    assert name not in [app.name for app in (await services.apps.list()).apps]


async def test_a_missing_or_wrong_admin_key_is_refused(services: Services) -> None:
    app_key = (await services.apps.create(unique_name("other"))).key
    name = unique_name()
    wrong = [
        {},
        bearer(ADMIN_KEY[:-1]),
        bearer(ADMIN_KEY + "x"),
        bearer(ADMIN_KEY.upper()),
        {"Authorization": f"Basic {ADMIN_KEY}"},
        {"Authorization": ADMIN_KEY},
        # An app key is not the admin key: apps cannot administer apps.
        bearer(app_key),
    ]
    async with client_of(services, ADMIN_KEY) as client:
        for method, path, url, body in requests_of(name):
            for headers in wrong:
                answer = await client.request(method, url, json=body, headers=headers)
                assert answer.status_code == 401, f"{method} {url} {headers}: {answer.text}"
                assert documented(answer, method, path)["code"] == "invalid-admin-key"
                assert answer.headers["www-authenticate"] == "Bearer"
    assert name not in [app.name for app in (await services.apps.list()).apps]


async def test_the_admin_api_creates_lists_limits_rotates_and_revokes_apps(services: Services) -> None:
    name = unique_name()
    async with client_of(services, ADMIN_KEY) as client:

        async def admin(method: str, path: str, body: Any = None, status: int = 200) -> Any:
            url = path.replace("{name}", name)
            answer = await client.request(method, url, json=body, headers=ADMIN_HEADERS)
            assert answer.status_code == status, f"{method} {url}: {answer.text}"
            return documented(answer, method, path)

        async def create_game(key: str) -> str | None:
            """The new game's id; None when the key is refused."""
            answer = await client.post("/v1/games", json=BOTS_GAME, headers=bearer(key))
            assert answer.status_code in (201, 401), answer.text
            if answer.status_code == 401:
                assert answer.json()["code"] == "invalid-app-key"
                return None
            game_id: str = answer.json()["id"]
            return game_id

        async def creates_a_game(key: str) -> bool:
            game_id = await create_game(key)
            if game_id is not None:
                # Its bots play it to the end in the background: until then it counts as open.
                await finished(client, game_id)
            return game_id is not None

        # Create: the app and its first key, shown only now.
        before = datetime.now(UTC)
        created = await admin("POST", ADMIN, {"name": name, "quotas": {"games_per_hour": 50}}, status=201)
        key = created["key"]
        match = KEY.match(key)
        assert match is not None, key
        app = created["app"]
        assert app["name"] == name and app["quotas"] == msgspec.to_builtins(Quotas(games_per_hour=50))
        assert [(k["id"], k["expires_at"], k["revoked_at"]) for k in app["keys"]] == [(match.group(1), None, None)]
        assert before - timedelta(seconds=5) < parse(app["created_at"]) < datetime.now(UTC) + timedelta(seconds=5)
        assert await creates_a_game(key)
        # The admin key is not an app key: it makes nothing on a server that needs keys.
        refused = await client.post("/v1/games", json=BOTS_GAME, headers=ADMIN_HEADERS)
        assert refused.status_code == 401 and refused.json()["code"] == "app-key-required"

        # What is refused, as the document says.
        assert (await admin("POST", ADMIN, {"name": name}, status=409))["code"] == "app-exists"
        assert (await admin("POST", ADMIN, {"name": "no spaces"}, status=422))["code"] == "invalid-app-name"
        assert (await admin("POST", ADMIN, {"name": name, "owner": "me"}, status=400))["code"] == "malformed-request"
        assert (await admin("POST", ADMIN, {"name": ""}, status=400))["code"] == "malformed-request"
        unknown_app: list[tuple[str, str, dict[str, Any] | None]] = [
            ("GET", f"{ADMIN}/{{name}}", None),
            ("PATCH", f"{ADMIN}/{{name}}/quotas", {}),
            ("POST", f"{ADMIN}/{{name}}/rotate", {}),
            ("POST", f"{ADMIN}/{{name}}/revoke", None),
        ]
        for method, operation_path, body in unknown_app:
            url = operation_path.replace("{name}", f"nobody-{name}")
            answer = await client.request(method, url, json=body, headers=ADMIN_HEADERS)
            assert answer.status_code == 404, answer.text
            assert documented(answer, method, operation_path)["code"] == "app-not-found"

        # List and get: the app and its keys' ids, never a key.
        listed = await client.get(ADMIN, headers=ADMIN_HEADERS)
        apps = {entry["name"]: entry for entry in documented(listed, "GET", ADMIN)["apps"]}
        assert apps[name] == app and "built-in" in apps
        assert key not in listed.text
        assert await admin("GET", f"{ADMIN}/{{name}}") == app

        # Quotas: the body names the quotas to change, each null for no limit; the others stay.
        quotas = {"games_per_hour": 300, "open_games": 2, "imports_per_hour": None}
        limited = await admin("PATCH", f"{ADMIN}/{{name}}/quotas", quotas)
        assert limited == {**app, "quotas": msgspec.to_builtins(Quotas(games_per_hour=300, open_games=2))}
        assert await admin("GET", f"{ADMIN}/{{name}}") == limited
        more = await admin("PATCH", f"{ADMIN}/{{name}}/quotas", {"requests_per_minute": 60})
        assert more["quotas"] == {**limited["quotas"], "requests_per_minute": 60}
        limited = await admin("PATCH", f"{ADMIN}/{{name}}/quotas", {"requests_per_minute": None})
        bad_bodies = ({"open_games": "many"}, {"games_per_hour": 1.5}, {"games_per_minute": 1}, {"open_games": -1})
        for bad in bad_bodies:
            answer = await admin("PATCH", f"{ADMIN}/{{name}}/quotas", bad, status=400)
            assert answer["code"] == "malformed-request", bad
        assert await admin("GET", f"{ADMIN}/{{name}}") == limited

        # Rotate: a new key; the old one works for the grace period.
        rotated_at = datetime.now(UTC)
        rotated = await admin("POST", f"{ADMIN}/{{name}}/rotate", {"grace_seconds": 2}, status=201)
        new_key = rotated["key"]
        assert KEY.match(new_key) and new_key != key
        old, new = rotated["app"]["keys"]
        assert old["id"] == match.group(1) and new["id"] == KEY.match(new_key).group(1)  # type: ignore[union-attr]
        grace_ends = parse(old["expires_at"])
        assert rotated_at + timedelta(seconds=2) <= grace_ends < datetime.now(UTC) + timedelta(seconds=2)
        assert new["expires_at"] is None and old["revoked_at"] is None
        assert await creates_a_game(key) and await creates_a_game(new_key)
        # Without a body's grace_seconds: a day.
        default = await admin("POST", f"{ADMIN}/{{name}}/rotate", {}, status=201)
        day = parse(default["app"]["keys"][1]["expires_at"]) - datetime.now(UTC)
        assert timedelta(hours=23, minutes=59) < day <= timedelta(days=1)
        # The old key's grace is not lengthened by a later rotation.
        assert default["app"]["keys"][0]["expires_at"] == old["expires_at"]
        too_long = {"grace_seconds": 31 * 86400}
        assert (await admin("POST", f"{ADMIN}/{{name}}/rotate", too_long, status=400))["code"] == "malformed-request"
        negative = {"grace_seconds": -1}
        assert (await admin("POST", f"{ADMIN}/{{name}}/rotate", negative, status=400))["code"] == "malformed-request"

        # Revoke: every key stops working (within the time a process trusts what it read of a key).
        revoked = await admin("POST", f"{ADMIN}/{{name}}/revoke")
        assert len(revoked["keys"]) == 3 and all(k["revoked_at"] is not None for k in revoked["keys"])
        assert await admin("GET", f"{ADMIN}/{{name}}") == revoked
        deadline = time.monotonic() + KEYS_SECONDS + 2
        while (game_id := await create_game(new_key)) is not None:
            assert time.monotonic() < deadline, "a revoked key still creates games"
            # The game is open until its bots played it out (not the key's time): the quota allows 2.
            playing = time.monotonic()
            await finished(client, game_id)
            deadline += time.monotonic() - playing
            await asyncio.sleep(POLL_SECONDS)
        assert not await creates_a_game(default["key"])
        assert not await creates_a_game(key)


def parse(text: str) -> datetime:
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    assert parsed.tzinfo is not None, text
    return parsed


@pytest.mark.parametrize("value", ["short", "x" * (MIN_ADMIN_KEY - 1), "with a space " + "x" * MIN_ADMIN_KEY])
def test_an_admin_key_too_short_or_with_spaces_is_refused_at_start(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("KAITEN_ADMIN_KEY", value)
    with pytest.raises(SettingsError, match="KAITEN_ADMIN_KEY"):
        Settings.from_env()


def test_an_empty_admin_key_means_no_admin_api(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAITEN_ADMIN_KEY", "")
    assert Settings.from_env().admin_key is None
    monkeypatch.setenv("KAITEN_ADMIN_KEY", ADMIN_KEY)
    assert Settings.from_env().admin_key == ADMIN_KEY


# --- two serving processes on one PostgreSQL database -------------------------------------------------


@pytest.fixture
async def two_servers(own_postgres_url: str, tmp_path: Path) -> AsyncIterator[list[ServerProcess]]:
    """Two `kaiten serve` processes that need app keys and serve the admin API, both ready."""
    environment = {"KAITEN_AUTH": "keys", "KAITEN_ADMIN_KEY": ADMIN_KEY}
    servers = [ServerProcess(own_postgres_url, tmp_path / f"server-{n}.log", environment=environment) for n in (0, 1)]
    try:
        async with plain_http.async_client() as client:
            await asyncio.gather(*(server.wait_ready(client) for server in servers))
        yield servers
    finally:
        for server in servers:
            server.kill()


async def works_on(client: httpx.AsyncClient, server: ServerProcess, key: str) -> bool:
    """Whether the key creates a game on that server now (else it is refused as not working)."""
    answer = await client.post(f"{server.url}/v1/games", json=PEOPLE_GAME, headers=bearer(key))
    assert answer.status_code in (201, 401), answer.text
    if answer.status_code == 401:
        assert answer.json()["code"] == "invalid-app-key", answer.text
    return answer.status_code == 201


async def use_until_refused(
    client: httpx.AsyncClient, server: ServerProcess, key: str, uses: list[tuple[datetime, datetime, bool]]
) -> None:
    """Uses the key on the server every POLL_SECONDS until it is refused: (sent, answered, worked)."""
    while True:
        sent = datetime.now(UTC)
        worked = await works_on(client, server, key)
        uses.append((sent, datetime.now(UTC), worked))
        if not worked:
            return
        await asyncio.sleep(POLL_SECONDS)


async def test_a_key_revoked_on_one_process_stops_working_on_the_other_within_a_second(
    two_servers: list[ServerProcess],
) -> None:
    first, second = two_servers
    name = unique_name()
    async with plain_http.async_client(timeout=30) as client:
        created = await client.post(f"{first.url}{ADMIN}", json={"name": name}, headers=ADMIN_HEADERS)
        key = documented(created, "POST", ADMIN)["key"]
        # The admin key is not an app key, on a real server either.
        refused = await client.post(f"{second.url}/v1/games", json=BOTS_GAME, headers=ADMIN_HEADERS)
        assert refused.status_code == 401 and refused.json()["code"] == "app-key-required"
        # The second process has read the key just now: it trusts what it read for a while.
        assert await works_on(client, first, key) and await works_on(client, second, key)

        answer = await client.post(f"{first.url}{ADMIN}/{name}/revoke", headers=ADMIN_HEADERS)
        revoked_at = time.monotonic()
        assert all(k["revoked_at"] for k in documented(answer, "POST", f"{ADMIN}/{{name}}/revoke")["keys"])
        async with asyncio.timeout(5):
            # Polled every 50 ms; a request checked later than KEYS_SECONDS after the revocation (so
            # one sent later) is refused.
            while True:
                sent = time.monotonic()
                if not await works_on(client, second, key):
                    break
                assert sent - revoked_at < KEYS_SECONDS, f"the revoked key worked {sent - revoked_at:.2f}s later"
                await asyncio.sleep(POLL_SECONDS)
        elapsed = time.monotonic() - revoked_at
        assert elapsed < 1.0, f"the other process took {elapsed:.2f}s to refuse a revoked key"
        assert not await works_on(client, first, key)


async def test_a_rotated_key_works_on_both_processes_until_its_grace_ends_then_on_neither(
    two_servers: list[ServerProcess],
) -> None:
    first, second = two_servers
    name = unique_name()
    async with plain_http.async_client(timeout=30) as client:
        created = await client.post(f"{second.url}{ADMIN}", json={"name": name}, headers=ADMIN_HEADERS)
        key = documented(created, "POST", ADMIN)["key"]
        assert await works_on(client, first, key) and await works_on(client, second, key)

        # The old key is used on both processes all along, from before the rotation until refused.
        uses: dict[str, list[tuple[datetime, datetime, bool]]] = {first.url: [], second.url: []}
        using = [asyncio.create_task(use_until_refused(client, s, key, uses[s.url])) for s in two_servers]
        try:
            answer = await client.post(
                f"{first.url}{ADMIN}/{name}/rotate", json={"grace_seconds": 2}, headers=ADMIN_HEADERS
            )
            rotated = documented(answer, "POST", f"{ADMIN}/{{name}}/rotate")
            answered = datetime.now(UTC)
            new_key = rotated["key"]
            grace_ends = parse(rotated["app"]["keys"][0]["expires_at"])
            assert await works_on(client, first, new_key) and await works_on(client, second, new_key)
            async with asyncio.timeout(15):
                await asyncio.gather(*using)
        finally:
            for task in using:
                task.cancel()
        for url, used in uses.items():
            # Each success was checked before the grace ended (so sent before it), the refusal after it.
            assert all(sent < grace_ends for sent, _, worked in used if worked), f"{url} after the grace: {used}"
            assert not used[-1][2] and used[-1][1] >= grace_ends, f"{url} refused the old key in its grace: {used}"
            # Seen working once the process could no longer trust a read from before the rotation.
            trusted_until = answered + timedelta(seconds=KEYS_SECONDS)
            assert any(worked and sent >= trusted_until for sent, _, worked in used), f"{url}: {used}"
        assert await works_on(client, first, new_key) and await works_on(client, second, new_key)
