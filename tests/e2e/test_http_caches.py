"""A real HTTP cache in front of a real server never answers one viewer with another's view.

hishel keeps answers as RFC 9111 says a browser's cache (private) or a proxy's (shared) may. The
server answers a page of another origin (CORS on): that is where `Vary: Authorization` was once
replaced by `Vary: Origin`, and a browser's cache revalidated one seat's stored view with the
version-only entity tag every viewer shared, then showed it to another seat.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import hishel
import pytest
from hishel.httpx import CacheClient

from tests import plain_http
from tests.e2e.servers import OPEN, ServerProcess

ORIGIN = "http://front-end.test"


@pytest.fixture
async def server(tmp_path: Path) -> Any:
    environment = {**OPEN, "KAITEN_CORS_ORIGINS": ORIGIN}
    process = ServerProcess(
        f"sqlite+aiosqlite:///{tmp_path / 'kaiten.sqlite3'}", tmp_path / "server.log", environment=environment
    )
    try:
        async with plain_http.async_client() as client:
            await process.wait_ready(client)
        yield process
    finally:
        process.stop()


def cache(url: str, path: Path, shared: bool) -> CacheClient:
    storage = hishel.SqliteStorage(database_path=path)
    return CacheClient(
        base_url=url, storage=storage, rfc=hishel.CacheOptions(shared=shared), headers={"Origin": ORIGIN}
    )


def new_game(url: str) -> dict[str, Any]:
    body = {"game": "sushi-go", "players": 2, "seats": [{"name": "Ann"}, {"name": "Bob"}]}
    created: dict[str, Any] = plain_http.post(f"{url}/v1/games", json=body, headers={"Origin": ORIGIN}).json()
    return created


def seat(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("shared", [False, True], ids=["browser", "proxy"])
async def test_each_token_gets_its_own_view_through_a_cache(
    server: ServerProcess, tmp_path: Path, shared: bool
) -> None:
    game = new_game(server.url)
    table = f"/v1/games/{game['id']}"
    direct = {n: plain_http.get(f"{server.url}{table}", headers=seat(game["tokens"][str(n)])).json() for n in (0, 1)}
    assert direct[0]["state"]["hand"] != direct[1]["state"]["hand"]
    with cache(server.url, tmp_path / "cache.sqlite3", shared) as browser:
        # Twice round: the second time, every read finds the first ones stored.
        for _ in range(2):
            for n in (0, 1):
                answer = browser.get(table, headers=seat(game["tokens"][str(n)]))
                assert answer.status_code == 200
                view = answer.json()
                assert (view["viewer"]["seat"], view["state"]["hand"]) == (n, direct[n]["state"]["hand"])
                assert answer.extensions["caching"]["stored"] is not shared, "a proxy keeps no private answer"
            spectator = browser.get(table).json()
            assert (spectator["viewer"]["seat"], spectator["state"]["hand"]) == (None, [])
        for n in (0, 1):
            for path in ("/legal-commands", "/events"):
                mine = browser.get(f"{table}{path}", headers=seat(game["tokens"][str(n)]))
                theirs = plain_http.get(f"{server.url}{table}{path}", headers=seat(game["tokens"][str(n)]))
                assert mine.json() == theirs.json()
