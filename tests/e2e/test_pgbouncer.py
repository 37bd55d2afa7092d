"""kaiten behind PgBouncer in transaction pooling mode: two servers, games played through them.

A real pgbouncer (Debian's package) runs in a temporary folder on a free port in front of the tests'
PostgreSQL server. The servers' pools go through it (DATABASE_URL), while what needs a session of
its own, the LISTEN of adapters/notify.py and the migrations, goes to the server directly
(KAITEN_DIRECT_DATABASE_URL). Through a transaction pooler a session's prepared statement is looked
for on whichever server connection the next transaction gets: psycopg prepares none there.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
from sqlalchemy.engine import make_url

from kaiten.adapters.database import async_url
from kaiten.api.bootstrap import bootstrap
from kaiten.services.verification import verify_game
from tests import plain_http
from tests.e2e.connections import Counter, conninfo
from tests.e2e.play import MAX_COMMANDS, bearer, bots_owe_nothing
from tests.e2e.servers import OPEN, ServerProcess, free_port
from tests.e2e.sse import open_stream
from tests.loud_skips import skip_loudly

#: Where Debian puts it (/usr/sbin may be missing from a user's PATH).
PGBOUNCER = shutil.which("pgbouncer") or shutil.which("pgbouncer", path="/usr/sbin:/usr/local/sbin")
#: The PostgreSQL connections pgbouncer opens for the test's database, whatever the servers' pools.
POOL_SIZE = 4
START_SECONDS = 10
#: The whole test, servers started and stopped included; past it the test fails rather than hangs.
TEST_SECONDS = 300
#: How long after a game's end a live stream of the other server may still be sending its events.
FOLLOW_SECONDS = 10
#: How long a player waits for the bots' moves before the test says the game is stuck.
BOTS_SECONDS = 60

#: The games played, people and bots at each table: every game of the catalog.
TABLES: list[tuple[str, list[dict[str, Any]]]] = [
    ("sushi-go", [{"name": "Alice"}, {"name": "Bob"}, {"bot": "greedy"}]),
    ("sushi-go-party", [{"name": "Alice"}, {"bot": "random"}, {"name": "Carol"}]),
    ("spin-some-for-dim-sum", [{"name": "Alice"}, {"bot": "greedy"}]),
    ("dim-sum-derby", [{"name": "Alice"}, {"name": "Bob"}, {"bot": "random"}]),
    ("sushi-go", [{"bot": "greedy"}, {"bot": "random"}]),
]


@contextmanager
def pgbouncer(server_url: str) -> Iterator[int]:
    """A pgbouncer in transaction pooling mode in front of that PostgreSQL server; its port."""
    if PGBOUNCER is None:
        skip_loudly(
            "PgBouncer",
            "pgbouncer is not installed: apt-get install -y pgbouncer (Debian's package; .ci/run installs it)",
            "KAITEN_REQUIRE_POSTGRES",
        )
    server = async_url(server_url)
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="kaiten-pgbouncer-") as folder:
        # pgbouncer refuses to run as root: it then runs as another user, who must read its folder.
        os.chmod(folder, 0o755)
        users = Path(folder, "users.txt")
        users.write_text(f'"{server.username}" "{server.password or ""}"\n')
        config = Path(folder, "pgbouncer.ini")
        config.write_text(
            "\n".join(
                [
                    "[databases]",
                    f"* = host={server.host or '127.0.0.1'} port={server.port or 5432}",
                    "[pgbouncer]",
                    "listen_addr = 127.0.0.1",
                    f"listen_port = {port}",
                    "unix_socket_dir =",
                    "auth_type = trust",
                    f"auth_file = {users}",
                    "pool_mode = transaction",
                    f"default_pool_size = {POOL_SIZE}",
                    "max_client_conn = 200",
                    "",
                ]
            )
        )
        for path in (users, config):
            path.chmod(0o644)
        as_user = ["-u", _unprivileged_user()] if os.geteuid() == 0 else []
        log = Path(folder, "pgbouncer.log")
        with log.open("wb") as output:
            process = subprocess.Popen([PGBOUNCER, *as_user, str(config)], stdout=output, stderr=subprocess.STDOUT)
        try:
            _wait_listening(process, port, log)
            yield port
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _unprivileged_user() -> str:
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise AssertionError("pgbouncer will not run as root, and there is no postgres or nobody user to run it as")


def _wait_listening(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        assert process.poll() is None, f"pgbouncer exited: {log.read_text()}"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"pgbouncer did not listen within {START_SECONDS}s: {log.read_text()}")


async def _play(clients: list[httpx.AsyncClient], created: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Every person's commands, each through one server or the other, until the game is over."""
    game_id, tokens = created["id"], created["tokens"]
    table = created
    for sent in range(MAX_COMMANDS):
        client = clients[sent % len(clients)]
        if table["status"] != "active":
            return table
        people = [seat for seat in table["awaiting"] if str(seat) in tokens]
        if not people:
            # The bots move in the background, on either server.
            async with asyncio.timeout(BOTS_SECONDS):
                while not bots_owe_nothing(table):
                    await asyncio.sleep(0.05)
                    table = await _table(client, game_id)
            continue
        headers = bearer(tokens[str(rng.choice(people))])
        legal = await client.get(f"/v1/games/{game_id}/legal-commands", headers=headers)
        assert legal.status_code == 200, legal.text
        command = rng.choice(legal.json()["commands"])
        answer = await client.post(f"/v1/games/{game_id}/commands", json=command, headers=headers)
        # A bot may move between the two reads: then the command is refused, and the next one is read again.
        assert answer.status_code in (200, 409), answer.text
        table = await _table(client, game_id)
    raise AssertionError(f"game {game_id} did not finish within {MAX_COMMANDS} commands")


async def _table(client: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    answer = await client.get(f"/v1/games/{game_id}")
    assert answer.status_code == 200, answer.text
    table: dict[str, Any] = answer.json()
    return table


async def _watch(client: httpx.AsyncClient, game_id: str) -> list[int]:
    """The versions a live event stream of that server sends, until the game is over."""
    versions: list[int] = []
    async with open_stream(client, game_id) as stream:
        while (message := await stream.next()) is not None:
            if message.data is not None:
                versions.append(message.event()["version"])
    return versions


async def test_two_servers_play_games_through_pgbouncer_in_transaction_mode(
    own_postgres_url: str, _postgres_server: str, tmp_path: Path
) -> None:
    rng = random.Random(28)
    database = make_url(own_postgres_url).database
    assert database is not None
    with pgbouncer(_postgres_server) as port:
        pooled = make_url(own_postgres_url).set(host="127.0.0.1", port=port).render_as_string(hide_password=False)
        environment = {**OPEN, "KAITEN_DIRECT_DATABASE_URL": own_postgres_url}
        servers = [
            ServerProcess(pooled, tmp_path / f"server-{number}.log", environment=environment) for number in range(2)
        ]
        try:
            async with asyncio.timeout(TEST_SECONDS):
                clients = [plain_http.async_client(base_url=server.url, timeout=60) for server in servers]
                try:
                    for server, client in zip(servers, clients, strict=True):
                        await server.wait_ready(client)
                    games = []
                    for number, (game, seats) in enumerate(TABLES):
                        body = {"game": game, "players": len(seats), "seats": seats, "seed": number}
                        answer = await clients[number % 2].post("/v1/games", json=body)
                        assert answer.status_code == 201, answer.text
                        games.append(answer.json())
                    # The first game is followed live through the other server: its appends reach it only
                    # through LISTEN, which goes to PostgreSQL directly.
                    watched = asyncio.create_task(_watch(clients[1], games[0]["id"]))
                    async with (
                        await psycopg.AsyncConnection.connect(conninfo(_postgres_server), autocommit=True) as counting,
                    ):
                        seen = Counter(counting, database)
                        async with seen.sampling():
                            tables = await asyncio.gather(*(_play(clients, game, rng) for game in games))
                    # PostgreSQL saw pgbouncer's connections and each server's listening one, however many
                    # each server's pool opened to pgbouncer.
                    assert 2 <= seen.most <= POOL_SIZE + len(servers), seen.most
                    assert [table["status"] for table in tables] == ["finished"] * len(TABLES)
                    # Each append reached the other server as it was made: its stream ends with the game.
                    async with asyncio.timeout(FOLLOW_SECONDS):
                        versions = await watched
                    assert versions == list(range(1, tables[0]["version"] + 1))
                    # The catch-up projections, through the pooler too, list every game in the history.
                    async with asyncio.timeout(30):
                        while True:
                            listed = (await clients[1].get("/v1/games?status=finished&limit=50")).json()
                            finished = {row["id"] for row in listed["items"]}
                            if finished >= {game["id"] for game in games}:
                                break
                            await asyncio.sleep(0.2)
                finally:
                    for client in clients:
                        await client.aclose()
        finally:
            for server in servers:
                server.stop()
        # Every log replays to its stored table and passes an import's checks, read through the pooler.
        services = bootstrap(pooled, direct_database_url=own_postgres_url)
        try:
            for game in games:
                report = await verify_game(services.games.store, game["id"])
                assert report.status == "finished"
                assert (report.problem, report.drift) == (None, []), report
        finally:
            await services.close()
        for number in range(2):
            log = (tmp_path / f"server-{number}.log").read_text()
            assert "prepared statement" not in log, log
            assert '"level": "ERROR"' not in log, log
