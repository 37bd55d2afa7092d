"""A serving process keeps to its PostgreSQL connection budget (KAITEN_DB_CONNECTIONS), idle and under
load, and a request that finds every connection in use for too long answers a clean 503.

The real server's connections are counted in pg_stat_activity, on a database of the test's own (no
other process connects to it), from a connection to another database of the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from kaiten.adapters.database import APPLICATION_NAME, DEFAULT_CONNECTIONS, MIN_CONNECTIONS
from kaiten.adapters.notify import APPLICATION_NAME as LISTENER_NAME
from kaiten.api.app import create_app
from kaiten.api.bootstrap import bootstrap
from kaiten.api.settings import Settings, SettingsError
from tests import plain_http
from tests.app_client import AppClient
from tests.e2e.connections import Counter, conninfo
from tests.e2e.play import bearer, create
from tests.e2e.servers import ServerProcess

#: As the issue asks: many more commands at once than the budget has connections.
CONCURRENT = 50
#: The whole test, servers started and stopped included; past it the test fails rather than hangs.
TEST_SECONDS = 240


async def test_a_server_holds_at_most_its_budget_idle_and_under_50_concurrent_commands(
    own_postgres_url: str, _postgres_server: str, tmp_path: Path
) -> None:
    database = make_url(own_postgres_url).database
    assert database is not None
    server = ServerProcess(own_postgres_url, tmp_path / "server.log")
    try:
        async with (
            asyncio.timeout(TEST_SECONDS),
            # The counting connection is to the server's other database: it counts none of its own.
            await psycopg.AsyncConnection.connect(conninfo(_postgres_server), autocommit=True) as connection,
            plain_http.async_client(base_url=server.url, timeout=60) as client,
        ):
            await server.wait_ready(client)
            idle = Counter(connection, database)
            # Idle: the listener, the projections catching up, the scheduler and the webhook worker.
            async with idle.sampling():
                await asyncio.sleep(3)
            assert idle.samples > 10
            assert 1 <= idle.most <= DEFAULT_CONNECTIONS, idle.most
            assert LISTENER_NAME in idle.names

            loaded = Counter(connection, database)
            async with loaded.sampling():
                # 50 creations at once, then 50 commands at once, one in each game (the seat's first legal
                # command). People only: 50 games with bots at once would be refused (429 bots-busy) by a
                # server whose bots think in one worker.
                seats = [{"name": "Alice"}, {"name": "Bob"}]
                created = await asyncio.gather(
                    *(
                        client.post("/v1/games", json={"game": "sushi-go", "players": 2, "seats": seats})
                        for _ in range(CONCURRENT)
                    )
                )
                assert [answer.status_code for answer in created] == [201] * CONCURRENT, created[0].text
                games = [answer.json() for answer in created]
                tokens = [bearer(game["tokens"]["0"]) for game in games]
                legal = await asyncio.gather(
                    *(
                        client.get(f"/v1/games/{game['id']}/legal-commands", headers=token)
                        for game, token in zip(games, tokens, strict=True)
                    )
                )
                commands = [answer.json()["commands"][0] for answer in legal]
                sent = await asyncio.gather(
                    *(
                        client.post(f"/v1/games/{game['id']}/commands", json=command, headers=token)
                        for game, command, token in zip(games, commands, tokens, strict=True)
                    )
                )
                assert [answer.status_code for answer in sent] == [200] * CONCURRENT, [
                    answer.text for answer in sent if answer.status_code != 200
                ][:1]
            # More than one connection was in use at once (the counting saw the load), never more than
            # the budget.
            assert MIN_CONNECTIONS <= loaded.most <= DEFAULT_CONNECTIONS, loaded.most
            assert loaded.names <= {APPLICATION_NAME, LISTENER_NAME}, loaded.names
    finally:
        server.stop()
    print(f"connections: idle at most {idle.most}, under load at most {loaded.most} (budget {DEFAULT_CONNECTIONS})")


async def test_a_request_that_finds_every_connection_in_use_answers_503_database_busy(postgres_url: str) -> None:
    services = bootstrap(postgres_url, connections=MIN_CONNECTIONS, connection_wait=0.5)
    assert services.engine is not None
    engine = services.engine
    try:
        async with AppClient(app=create_app(services)) as client:
            game = await create(client, "sushi-go", 2)
            token = bearer(game["tokens"]["0"])
            command = (await client.get(f"/v1/games/{game['id']}/legal-commands", headers=token)).json()["commands"][0]
            # Every connection but the listening one taken, the engine's pool and the appends' own, for
            # longer than a request waits.
            appends = services.appends
            assert appends is not None
            assert engine.pool.size() + appends.size == MIN_CONNECTIONS - 1  # type: ignore[attr-defined]
            async with contextlib.AsyncExitStack() as held:
                for _ in range(engine.pool.size()):  # type: ignore[attr-defined]
                    await held.enter_async_context(engine.connect())
                sleeping = [asyncio.create_task(appends.run("SELECT pg_sleep(1.5)", {})) for _ in range(appends.size)]
                while appends.in_use < appends.size:
                    await asyncio.sleep(0.01)
                started = time.monotonic()
                busy = await client.post(f"/v1/games/{game['id']}/commands", json=command, headers=token)
                waited = time.monotonic() - started
                await asyncio.gather(*sleeping)
            assert busy.status_code == 503, busy.text
            assert busy.headers["content-type"].startswith("application/problem+json")
            assert busy.json()["code"] == "database-busy"
            assert busy.headers["retry-after"] == "1"
            # It waited for a connection before giving up.
            assert waited >= 0.5
            # Nothing was played: the same command is taken once connections are free again.
            again = await client.post(f"/v1/games/{game['id']}/commands", json=command, headers=token)
            assert again.status_code == 200, again.text
            assert again.json()["version"] == game["version"] + 1
    finally:
        await services.close()


@pytest.mark.parametrize("value", ["0", "2", "-1", "ten", "3.5"])
def test_a_budget_below_what_a_process_needs_is_refused_by_name(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAITEN_DB_CONNECTIONS", value)
    with pytest.raises(SettingsError, match=f"KAITEN_DB_CONNECTIONS must be .* at least {MIN_CONNECTIONS}"):
        Settings.from_env()


def test_the_budget_is_10_unless_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KAITEN_DB_CONNECTIONS", raising=False)
    assert Settings.from_env().db_connections == DEFAULT_CONNECTIONS == 10
    monkeypatch.setenv("KAITEN_DB_CONNECTIONS", str(MIN_CONNECTIONS))
    assert Settings.from_env().db_connections == MIN_CONNECTIONS


def test_a_direct_url_needs_postgresql_on_both_sides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "sqlite+aiosqlite:///kaiten.sqlite3")
    monkeypatch.setenv("KAITEN_DIRECT_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/kaiten")
    with pytest.raises(SettingsError, match="KAITEN_DIRECT_DATABASE_URL"):
        Settings.from_env()
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:6432/kaiten")
    settings = Settings.from_env()
    assert settings.direct_url == "postgresql+psycopg://postgres@127.0.0.1:5432/kaiten"
    monkeypatch.delenv("KAITEN_DIRECT_DATABASE_URL")
    assert Settings.from_env().direct_url == "postgresql+psycopg://postgres@127.0.0.1:6432/kaiten"
