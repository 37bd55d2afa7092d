"""Two `kaiten serve` processes on one PostgreSQL database: a command sent through one reaches a
stream of the other (LISTEN/NOTIFY), and a server stops while one of its streams is open.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest

from tests.e2e.play import bearer, create
from tests.e2e.sse import WAIT_SECONDS, open_stream

pytestmark = pytest.mark.postgres

#: Starting takes a second or two (interpreter, migrations check, LISTEN); stopping at most the
#: server's graceful shutdown period. Past these, a server is broken and the test says so.
START_SECONDS = 60
STOP_SECONDS = 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    def __init__(self, database_url: str, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        with log.open("wb") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "api.cli", "serve", "--port", str(self.port)],
                env={**os.environ, "DATABASE_URL": database_url},
                cwd=log.parent,
                stdout=output,
                stderr=subprocess.STDOUT,
            )

    async def wait_ready(self, client: httpx.AsyncClient) -> None:
        async with asyncio.timeout(START_SECONDS):
            while True:
                assert self.process.poll() is None, f"the server exited: {self.log.read_text()}"
                try:
                    if (await client.get(f"{self.url}/ready")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)

    def stop(self) -> int:
        """SIGTERM, as a process manager would; the exit code (uvicorn dies of the signal once stopped)."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"the server did not stop within {STOP_SECONDS}s: {self.log.read_text()}") from None


@contextmanager
def started(database_url: str, log_dir: Path, count: int) -> Iterator[list[ServerProcess]]:
    """`count` servers, started side by side, and always killed in the end."""
    with ExitStack() as stack:
        servers = []
        for number in range(count):
            server = ServerProcess(database_url, log_dir / f"server-{number}.log")
            stack.callback(server.process.kill)
            servers.append(server)
        yield servers


@pytest.fixture
async def servers(postgres_url: str, tmp_path: Path) -> AsyncIterator[list[ServerProcess]]:
    with started(postgres_url, tmp_path, 2) as servers:
        async with httpx.AsyncClient() as client:
            await asyncio.gather(*(server.wait_ready(client) for server in servers))
        yield servers


async def test_a_command_through_one_server_reaches_a_stream_of_the_other(servers: list[ServerProcess]) -> None:
    one, two = servers
    async with (
        httpx.AsyncClient(base_url=one.url, timeout=WAIT_SECONDS) as through_one,
        httpx.AsyncClient(base_url=two.url, timeout=WAIT_SECONDS) as through_two,
    ):
        game = await create(through_one, "sushi-go", 2, seats=[{"name": "Alice"}, {"bot": "greedy"}], seed=1)
        alice = bearer(game["tokens"]["0"])
        async with open_stream(through_two, game["id"], alice) as stream:
            # Caught up means subscribed: what follows can only come through NOTIFY from the other server.
            await stream.until_version(game["version"])
            legal = (await through_one.get(f"/v1/games/{game['id']}/legal-commands", headers=alice)).json()
            sent = await through_one.post(f"/v1/games/{game['id']}/commands", json=legal["commands"][0], headers=alice)
            assert sent.status_code == 200, sent.text
            live = await stream.until_version(sent.json()["version"])
            page = await through_two.get(f"/v1/games/{game['id']}/events?after={game['version']}", headers=alice)
            assert live == page.json()["events"]
            # A stream left open does not keep its server from stopping: the exit signal ends it cleanly,
            # rather than uvicorn cancelling it with an error once the graceful period is over.
            assert two.stop() in (0, -signal.SIGTERM)
            assert "Exception in ASGI application" not in two.log.read_text()
