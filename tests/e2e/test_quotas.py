"""Rate limits by principal and the apps' quotas: 429 with `Retry-After` and the quota's name in `code`.

Requests per minute are counted by each serving process (two processes admit twice the limit, as the
README says); the game quotas are counted in the database, so every process counts the same games.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from kaiten.api.app import create_app
from kaiten.api.bootstrap import Services
from kaiten.api.rate_limit import Limiter
from kaiten.api.settings import RateLimit, Settings
from kaiten.services.ports import Quotas
from tests import plain_http
from tests.app_client import AppClient
from tests.e2e.apps import app_headers, create_as, new_app_key
from tests.e2e.play import bearer, finished
from tests.e2e.servers import ServerProcess

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

Client = AppClient
PEOPLE = [{"name": "Ann"}, {"name": "Bo"}]
BOTS = [{"bot": "random"}, {"bot": "greedy"}]


@pytest.fixture
async def limited(closed_services: Services) -> AsyncIterator[Client]:
    """A server that needs keys, limiting each address or seat to 30 requests a minute."""
    settings = Settings(rate_limit=RateLimit(requests=30, per="minute"), open=False)
    # The limiter's sliding window weighs the requests of the minute before by how much of it is
    # still in the window: a test whose requests straddle a minute's end could send one more than the
    # limit. Its requests take a few seconds; they start early enough in a minute to end in it.
    into_the_minute = time.time() % 60
    if into_the_minute > 50:
        await asyncio.sleep(60.1 - into_the_minute)
    async with AppClient(app=create_app(closed_services, settings)) as client:
        yield client


def refused_for(response: httpx.Response, code: str) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["code"] == code
    assert 1 <= int(response.headers["Retry-After"]) <= 3601


async def test_made_up_credentials_buy_no_requests_of_their_own(limited: Client, closed_services: Services) -> None:
    """The issue's reproduction: after an address used its 30 a minute, junk Authorization values
    each got a bucket of their own (60 x 201). Now they count against the address, in one bucket."""
    for _ in range(30):
        assert (await limited.get("/v1/catalog")).status_code == 200
    for number in range(60):
        junk = await limited.get("/v1/catalog", headers={"Authorization": f"Bearer x{number}"})
        refused_for(junk, "rate-limited")
    unknown_key = {"Authorization": "Bearer kaiten_app_0123456789abcdef_" + "x" * 43}
    refused_for(await limited.get("/v1/catalog", headers=unknown_key), "rate-limited")
    limiter = next(m.kwargs["limiter"] for m in limited.app.middleware if "limiter" in getattr(m, "kwargs", {}))
    assert isinstance(limiter, Limiter)
    assert limiter.principals() == 1, "one address, one bucket, however many made-up secrets"


async def test_a_seat_counts_against_its_seat_and_an_app_against_its_app(
    limited: Client, closed_services: Services
) -> None:
    key = await new_app_key(closed_services, f"busy-{uuid.uuid4().hex[:8]}")
    game = await create_as(limited, app_headers(key), "sushi-go", PEOPLE)
    for _ in range(30):
        assert (await limited.get(f"/v1/games/{game['id']}", headers=bearer(game["tokens"]["0"]))).status_code == 200
    refused_for(await limited.get(f"/v1/games/{game['id']}", headers=bearer(game["tokens"]["0"])), "rate-limited")
    # The other seat, the address without a credential, and the app each have their own count.
    assert (await limited.get(f"/v1/games/{game['id']}", headers=bearer(game["tokens"]["1"]))).status_code == 200
    assert (await limited.get(f"/v1/games/{game['id']}")).status_code == 200
    assert (await limited.get(f"/v1/games/{game['id']}", headers=app_headers(key))).status_code == 200


async def test_an_apps_own_requests_per_minute(limited: Client, closed_services: Services) -> None:
    unique = uuid.uuid4().hex[:8]
    small = await new_app_key(closed_services, f"small-{unique}", Quotas(requests_per_minute=5))
    other = await new_app_key(closed_services, f"other-{unique}", Quotas(requests_per_minute=5))
    for _ in range(5):
        assert (await limited.get("/v1/games", headers=app_headers(small))).status_code == 200
    refused_for(await limited.get("/v1/games", headers=app_headers(small)), "requests-per-minute")
    assert (await limited.get("/v1/games", headers=app_headers(other))).status_code == 200
    assert (await limited.get("/v1/games")).status_code == 200, "the address is counted apart"


async def test_games_per_hour_and_open_games(closed_client: Client, closed_services: Services) -> None:
    unique = uuid.uuid4().hex[:8]
    hourly = app_headers(await new_app_key(closed_services, f"hourly-{unique}", Quotas(games_per_hour=2)))
    for _ in range(2):
        await create_as(closed_client, hourly, "sushi-go", BOTS)
    refused_for(await post_game(closed_client, hourly, BOTS), "games-per-hour")
    one_open = app_headers(await new_app_key(closed_services, f"one-open-{unique}", Quotas(open_games=1)))
    running = await create_as(closed_client, one_open, "sushi-go", PEOPLE)
    refused_for(await post_game(closed_client, one_open, PEOPLE), "open-games")
    # A game that is over leaves the quota: here, abandoned by everyone.
    for seat in ("0", "1"):
        resigned = await closed_client.post(
            f"/v1/games/{running['id']}/resign", headers=bearer(running["tokens"][seat])
        )
        assert resigned.status_code == 200, resigned.text
    await create_as(closed_client, one_open, "sushi-go", PEOPLE)


async def test_imports_per_hour_are_counted_apart_from_games(closed_client: Client, closed_services: Services) -> None:
    unique = uuid.uuid4().hex[:8]
    app = app_headers(
        await new_app_key(closed_services, f"importer-{unique}", Quotas(games_per_hour=1, imports_per_hour=1))
    )
    game = await create_as(closed_client, app, "sushi-go", BOTS)
    assert (await finished(closed_client, game["id"], app))["status"] == "finished"
    exported = (await closed_client.get(f"/v1/games/{game['id']}/export", headers=app)).json()
    assert (await closed_client.post("/v1/games/import", json=exported, headers=app)).status_code == 201
    # The same log again is the same game, and no new import: it counts against nothing.
    assert (await closed_client.post("/v1/games/import", json=exported, headers=app)).status_code == 200
    another = json.loads((GOLDEN / "0.1.0-4363b1c" / "sushi-go-2p-bots.json").read_text(encoding="utf-8"))
    refused_for(await closed_client.post("/v1/games/import", json=another, headers=app), "imports-per-hour")
    refused_for(await post_game(closed_client, app, BOTS), "games-per-hour")


async def post_game(client: Client, headers: dict[str, str], seats: list[dict[str, Any]]) -> httpx.Response:
    return await client.post(
        "/v1/games", json={"game": "sushi-go", "players": len(seats), "seats": seats}, headers=headers
    )


async def test_two_processes_count_game_quotas_together_and_requests_each(postgres_url: str, tmp_path: Path) -> None:
    """What the README states: game quotas hold across processes; requests per minute are per process."""
    keys = {"KAITEN_AUTH": "keys"}
    first = ServerProcess(postgres_url, tmp_path / "first.log", environment=keys)
    second = ServerProcess(postgres_url, tmp_path / "second.log", environment=keys)
    try:
        async with plain_http.async_client(timeout=30) as http:
            await asyncio.gather(first.wait_ready(http), second.wait_ready(http))
            name = f"shared-{uuid.uuid4().hex[:8]}"
            key = await cli_app_key(postgres_url, name, "--games-per-hour", "3", "--requests-per-minute", "8")
            app = app_headers(key)
            statuses = []
            for server in (first, second, first, second):
                answer = await http.post(
                    f"{server.url}/v1/games", json={"game": "sushi-go", "players": 2, "seats": BOTS}, headers=app
                )
                statuses.append((answer.status_code, answer.json().get("code")))
            assert statuses == [(201, None), (201, None), (201, None), (429, "games-per-hour")]
            # Two requests on each process so far: six more on each, then each refuses on its own.
            for server in (first, second):
                for _ in range(6):
                    assert (await http.get(f"{server.url}/v1/games", headers=app)).status_code == 200
                refused_for(await http.get(f"{server.url}/v1/games", headers=app), "requests-per-minute")
    finally:
        first.kill()
        second.kill()


async def cli_app_key(database_url: str, name: str, *quotas: str) -> str:
    """A new app's key, as an operator makes one: `kaiten apps create`."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "kaiten.api.cli",
        "apps",
        "create",
        name,
        *quotas,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "DATABASE_URL": database_url},
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, err.decode()
    return out.decode().strip()
