"""`kaiten serve` processes for the tests that need real servers: several at once, killed, restarted."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx

#: Starting takes a second or two (interpreter, migrations check, LISTEN); stopping at most the
#: server's graceful shutdown period. Past these, a server is broken and the test says so.
START_SECONDS = 60
STOP_SECONDS = 30
#: Most tests play as a newcomer does, on a server that takes no keys (an app key's tests say so).
OPEN = {"KAITEN_AUTH": "open"}
#: A server's bots think in one worker process unless a test says otherwise: each worker imports the
#: server's code as it starts, and the machine runs several tests' servers at once.
ONE_BOT_WORKER = {"KAITEN_BOT_WORKERS": "1"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    def __init__(
        self,
        database_url: str,
        log: Path,
        port: int | None = None,
        options: Sequence[str] = (),
        environment: Mapping[str, str] = OPEN,
    ) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        with log.open("wb") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kaiten.api.cli", "serve", "--port", str(self.port), *options],
                env={**os.environ, **ONE_BOT_WORKER, **environment, "DATABASE_URL": database_url},
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

    def kill(self) -> None:
        """SIGKILL: the process dies at once, in the middle of whatever it was doing."""
        self.process.kill()
        self.process.wait()

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
