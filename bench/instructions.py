"""Instructions a request costs in the serving process, counted by callgrind: a person's command
through kaiten's whole app beside bench/api.py's two yardsticks (one INSERT; the same writes through
kaiten's own store), with their ratios.

A count of instructions is the same from run to run (within 1%), where a rate or a CPU time on a
shared machine moves by 5 to 20% between two runs of the same code: it shows what a change to the
command path buys even when that is a few per cent, which bench/api.py cannot. It counts this process's own work
in user space alone: not PostgreSQL's, not the kernel's (system calls), not the HTTP server's (the
requests go straight to the ASGI apps, in process, as an HTTP server would hand them over). So it
says where the command path's own work goes; bench/api.py says what a client gets.

    .venv/bin/python -m bench.instructions [--requests 300] [--clients 8] [--before PATH]
                                           [--database-url postgresql+psycopg://postgres@127.0.0.1:5432/postgres]

Each endpoint is driven in a child process under `valgrind --tool=callgrind --instr-atstart=no`
(Debian's `valgrind`): `--clients` concurrent loops send requests straight to the app, as
bench/api.py's clients do over HTTP (the same planned game of four people, each command with its
seat's token; the yardsticks' requests alike). After `--warm` requests the child turns callgrind's
instrumentation on (`callgrind_control -i on`), counts `--requests` more, and turns it off. kaiten's
app runs without its background work (projections, webhook deliveries, the deadlines' scheduler):
under callgrind a request takes about fifty times as long, so loops that wake each second would be
counted fifty times over against each request. The listener that relays the appends' notices runs,
as each command's notice is its own work. `--before PATH` counts another checkout's command path
too (the yardsticks are this checkout's), for a before-and-after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

from bench.api import GAME, SEATS, fresh_database, planned
from bench.servers import ROOT
from kaiten.api.app import create_app
from kaiten.api.bootstrap import bootstrap
from kaiten.api.logging_setup import configure_logging
from kaiten.api.settings import Settings

#: An ASGI app, as kaiten's and the yardsticks' are called.
App = Callable[..., Coroutine[Any, Any, None]]
#: One request: path, body, headers.
Request = tuple[str, bytes, list[tuple[bytes, bytes]]]

ENDPOINTS = ("insert", "same-writes", "commands")
JSON_BODY = (b"content-type", b"application/json")


async def call(app: App, path: str, body: bytes, headers: list[tuple[bytes, bytes]]) -> tuple[int, bytes]:
    """One POST handed to the app as an HTTP server hands it over; its status and body."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"content-length", str(len(body)).encode()), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    received = asyncio.Event()
    answer: dict[str, Any] = {"body": b""}

    async def receive() -> dict[str, Any]:
        if received.is_set():
            await asyncio.Future()  # the client never leaves
        received.set()
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return answer["status"], answer["body"]


async def lifespan(app: App) -> tuple[asyncio.Queue[dict[str, Any]], asyncio.Task[None]]:
    """The app started as a server starts it; the queue that stops it, and its task."""
    to_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    from_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    task = asyncio.create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, to_app.get, from_app.put)
    )
    await to_app.put({"type": "lifespan.startup"})
    started = await from_app.get()
    if started["type"] != "lifespan.startup.complete":
        raise RuntimeError(f"the app did not start: {started}")
    return to_app, task


async def checked(app: App, request: Request) -> bytes:
    status, body = await call(app, *request)
    if status >= 300:
        raise RuntimeError(f"{request[0]} answered {status}: {body.decode()}")
    return body


def kaiten_app(database_url: str) -> App:
    """kaiten's app as `kaiten serve` makes it, without its background loops (see the module's text)."""
    settings = Settings.from_env()
    return create_app(services=bootstrap(database_url, cached_tables=settings.table_cache), settings=settings)


async def requests_of(endpoint: str, app: App, requests: int, clients: int) -> list[list[Request]]:
    """Each game's (or stream's) requests, in the order one client sends them: enough games for
    `requests` requests, with a game begun and left by each client when it is told to stop."""
    plan = await planned("sushi-go", SEATS)
    games = requests // len(plan.commands) + 2 * clients + 1
    if endpoint == "insert":
        return [[("/ping", b"{}", [JSON_BODY])] * len(plan.commands) for _ in range(games)]
    if endpoint == "same-writes":
        streams = []
        for number in range(games):
            stream = f"00000000-0000-4000-8000-{number:012d}"
            steps = [
                ("/append", json.dumps({"stream_id": stream, "step": step}).encode(), [JSON_BODY])
                for step in range(len(plan.appends))
            ]
            for request in steps[: plan.created]:
                await checked(app, request)
            streams.append(steps[plan.created :])
        return streams
    tables = []
    for _ in range(games):
        game = json.loads(await checked(app, ("/v1/games", json.dumps(GAME).encode(), [JSON_BODY])))
        seats = {
            seat: [(b"authorization", f"Bearer {token}".encode()), JSON_BODY] for seat, token in game["tokens"].items()
        }
        tables.append([(f"/v1/games/{game['id']}/commands", body, seats[seat]) for seat, body in plan.commands])
    return tables


async def callgrind(instrument: bool) -> None:
    """Instrumentation on or off in this process, which runs under callgrind."""
    control = await asyncio.create_subprocess_exec(
        "callgrind_control", "-i", "on" if instrument else "off", str(os.getpid()), stdout=subprocess.DEVNULL
    )
    if await control.wait() != 0:
        raise RuntimeError("callgrind_control failed: is this process running under callgrind?")


def app_of(endpoint: str, database_url: str) -> App:
    if endpoint == "commands":
        return kaiten_app(database_url)
    os.environ["DATABASE_URL"] = database_url  # the yardsticks' app reads it as it starts
    # Imported here: a child counting another checkout's commands (`--before`) finds that checkout's
    # `kaiten`, which this checkout's yardsticks may need more of than it has.
    from bench.minimal_app import app as yardsticks

    return yardsticks


async def drive(
    endpoint: str,
    app: App,
    warm: int,
    counted: int,
    clients: int,
    instrument: Callable[[bool], Awaitable[None]] = callgrind,
) -> int:
    """Send `warm` requests, then `counted` more between `instrument(True)` and `instrument(False)`;
    how many were sent between."""
    stop, task = await lifespan(app)
    games = await requests_of(endpoint, app, warm + counted, clients)
    sent = 0

    async def client(until: int) -> None:
        nonlocal sent
        while sent < until and games:
            for request in games.pop():
                if sent >= until:
                    return
                await checked(app, request)
                sent += 1

    await asyncio.gather(*(client(warm) for _ in range(clients)))
    before = sent
    await instrument(True)
    await asyncio.gather(*(client(warm + counted) for _ in range(clients)))
    await instrument(False)
    await stop.put({"type": "lifespan.shutdown"})
    await task
    return sent - before


def count(endpoint: str, root: Path, database_url: str, arguments: argparse.Namespace) -> float:
    """Instructions a request of `endpoint` costs, the app's code taken from the checkout at `root`."""
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "callgrind.out"
        command = [
            *("valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={output}"),
            *(sys.executable, "-m", "bench.instructions", "--drive", endpoint, "--database-url", database_url),
            *(
                "--warm",
                str(arguments.warm),
                "--requests",
                str(arguments.requests),
                "--clients",
                str(arguments.clients),
            ),
        ]
        # The checkout's `kaiten` package alone, found first; this checkout's bench (an older one may lack it).
        (Path(folder) / "kaiten").symlink_to(root / "kaiten")
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join([folder, str(ROOT)]), "KAITEN_AUTH": "open"}
        # Run from that folder: `-m` puts the working directory first on the path.
        done = subprocess.run(command, env=environment, cwd=folder, capture_output=True, text=True, check=False)
        sent = re.search(r"^counted (\d+)$", done.stdout, re.MULTILINE)
        if done.returncode != 0 or sent is None:
            raise RuntimeError(f"{endpoint} failed under callgrind:\n{done.stderr[-3000:]}")
        totals = re.search(r"^totals: (\d+)$", output.read_text(), re.MULTILINE)
        if totals is None:
            raise RuntimeError(f"no totals in {output}")
        return int(totals.group(1)) / int(sent.group(1))


async def driven(arguments: argparse.Namespace) -> int:
    # As `kaiten serve` logs: a JSON line for each request.
    configure_logging(Settings.from_env().log_level)
    app = app_of(arguments.drive, arguments.database_url)
    return await drive(arguments.drive, app, arguments.warm, arguments.requests, arguments.clients)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--requests", type=int, default=300, help="requests counted, for each endpoint")
    parser.add_argument("--warm", type=int, default=80, help="requests sent before counting")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--before", type=Path, help="another checkout, whose command path is counted too")
    parser.add_argument("--drive", choices=ENDPOINTS, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.drive is not None:
        print(f"counted {asyncio.run(driven(arguments))}")
        return
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.exit("this bench needs callgrind: apt-get install -y valgrind")
    yardsticks = asyncio.run(fresh_database(arguments.database_url, "kaiten_bench_yardsticks"))
    kaiten = asyncio.run(fresh_database(arguments.database_url, "kaiten_bench"))
    counts = {
        "one INSERT": count("insert", ROOT, yardsticks, arguments),
        "same writes": count("same-writes", ROOT, yardsticks, arguments),
        "commands": count("commands", ROOT, kaiten, arguments),
    }
    if arguments.before is not None:
        counts["commands before"] = count("commands", arguments.before.resolve(), kaiten, arguments)
    print(
        f"instructions a request, {arguments.requests} requests counted from {arguments.clients} clients, in process:"
    )
    for name, instructions in counts.items():
        print(f"   {name:16s} {instructions / 1000:8.0f} k")
    insert, writes = counts["one INSERT"], counts["same writes"]
    for name in [name for name in counts if name.startswith("commands")]:
        # Requests per instruction, as bench/api.py's ratios are of requests per second.
        cost = counts[name]
        print(f"ratio {name} / one INSERT: {insert / cost:.2f}   {name} / same writes: {writes / cost:.2f}")
    print(f"ratio same writes / one INSERT: {insert / writes:.2f}")


if __name__ == "__main__":
    main()
