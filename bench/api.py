"""Commands per second and latency of the full command path against a one-INSERT Litestar endpoint.

Both servers run side by side in this one run, on the same PostgreSQL, each as one uvicorn process,
loaded by the same 16 concurrent clients; the figure that matters is the ratio of their throughputs.

    .venv/bin/python -m bench.api [--database-url postgresql+psycopg://postgres@127.0.0.1:5432/postgres]
                                  [--clients 16] [--seconds 10]

Each client plays 4-player Sushi Go! games (one person, three bots: every command also runs the
bots, reveals and deals) by replaying a command sequence worked out in process beforehand for the
same seed, so no read request is mixed into the measured commands.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import msgspec
import psycopg

from adapters.memory_store import InMemoryEventStore
from adapters.migrate import upgrade
from adapters.system import SecureIds, SystemClock
from services.commands import Act, CreateGame, NewSeat
from services.games import Games

ROOT = Path(__file__).resolve().parents[1]
SEED = 20261130
SEATS = [{"name": "bench"}, {"bot": "greedy"}, {"bot": "random"}, {"bot": "random"}]

#: One client's loop: send requests until the deadline, appending each one's latency.
Client = Callable[[httpx.AsyncClient, float, list[float]], Awaitable[None]]


async def planned_commands() -> list[bytes]:
    """The person's commands of one seeded game, found by playing it in process."""
    games = Games(InMemoryEventStore(), SystemClock(), SecureIds())
    seats = [msgspec.convert(seat, NewSeat) for seat in SEATS]
    game = await games.create(CreateGame("sushi-go", 4, None, SEED, seats))
    token = game.tokens["0"]
    bodies = []
    while (await games.view(game.id, None)).status != "finished":
        legal = await games.legal_commands(game.id, token)
        body = msgspec.json.encode(legal.commands[-1])
        await games.act(Act(game.id, token, body))
        bodies.append(body)
    return bodies


async def fresh_database(admin_url: str, name: str) -> str:
    """Drop and create `name` on the server of `admin_url`; the URL of the new database."""
    plain = admin_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    base = admin_url.rsplit("/", 1)[0]
    url = f"{base}/{name}"
    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as connection:
        connection.execute("CREATE TABLE bench_pings (id bigserial PRIMARY KEY, stream_id text, data jsonb)")
    await upgrade(url)
    return url


@contextmanager
def server(app: str, port: int, database_url: str) -> Iterator[subprocess.Popen[bytes]]:
    env = {**os.environ, "DATABASE_URL": database_url}
    command = [sys.executable, "-m", "uvicorn", app, "--port", str(port), "--log-level", "warning", "--no-access-log"]
    process = subprocess.Popen(command, cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=0.5)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        yield process
    finally:
        process.terminate()
        process.wait(10)


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def load(clients: int, seconds: float, one_client: Client) -> tuple[float, list[float]]:
    """Run `clients` loops until the deadline; their request latencies, and requests per second."""
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        deadline = time.monotonic() + seconds
        started = time.monotonic()
        await asyncio.gather(*(one_client(http, deadline, latencies) for _ in range(clients)))
        elapsed = time.monotonic() - started
    return len(latencies) / elapsed, latencies


async def timed(request: Awaitable[httpx.Response], latencies: list[float]) -> httpx.Response:
    started = time.perf_counter()
    response = await request
    latencies.append(time.perf_counter() - started)
    if response.status_code >= 400:
        raise RuntimeError(f"{response.status_code}: {response.text}")
    return response


def command_client(
    port: int, bodies: list[bytes]
) -> Callable[[httpx.AsyncClient, float, list[float]], Awaitable[None]]:
    base = f"http://127.0.0.1:{port}"

    async def play(http: httpx.AsyncClient, deadline: float, latencies: list[float]) -> None:
        while time.monotonic() < deadline:
            created = await http.post(
                f"{base}/v1/games", json={"game": "sushi-go", "players": 4, "seed": SEED, "seats": SEATS}
            )
            game = created.json()
            headers = {"Authorization": f"Bearer {game['tokens']['0']}", "content-type": "application/json"}
            for body in bodies:
                if time.monotonic() >= deadline:
                    return
                await timed(
                    http.post(f"{base}/v1/games/{game['id']}/commands", content=body, headers=headers), latencies
                )

    return play


def ping_client(port: int) -> Client:
    url = f"http://127.0.0.1:{port}/ping"

    async def ping(http: httpx.AsyncClient, deadline: float, latencies: list[float]) -> None:
        while time.monotonic() < deadline:
            await timed(http.post(url, json={"type": "Ping"}), latencies)

    return ping


def summary(name: str, rate: float, latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    return f"{name:<22} {rate:8.1f} req/s   p50 {p50:6.1f} ms   p99 {p99:6.1f} ms   ({len(ordered)} requests)"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    bodies = await planned_commands()
    url = await fresh_database(args.database_url, "kaiten_bench")
    with server("bench.minimal_app:app", 8701, url) as minimal, server("api.asgi:app", 8702, url) as full:
        await load(args.clients, 1, ping_client(8701))  # warm both up
        await load(args.clients, 1, command_client(8702, bodies))
        # The two loads take turns in short windows, so the machine's drift (other work, a noisy
        # neighbour) falls on both alike instead of on whichever ran second.
        window = args.seconds / args.rounds
        ping_rate, ping_latencies = 0.0, []
        command_rate, command_latencies = 0.0, []
        for _ in range(args.rounds):
            rate, latencies = await load(args.clients, window, ping_client(8701))
            ping_rate, ping_latencies = ping_rate + rate / args.rounds, ping_latencies + latencies
            rate, latencies = await load(args.clients, window, command_client(8702, bodies))
            command_rate, command_latencies = command_rate + rate / args.rounds, command_latencies + latencies
        print(
            f"{args.clients} clients, {args.seconds:.0f} s each in {args.rounds} alternating windows, "
            "PostgreSQL, one uvicorn process per server"
        )
        print(summary("minimal INSERT", ping_rate, ping_latencies))
        print(summary("full command path", command_rate, command_latencies))
        print(f"ratio (full / minimal throughput): {command_rate / ping_rate:.2f}   (target ≥ 0.50)")
        print(f"server RSS after the run: full {rss_mib(full.pid):.0f} MiB, minimal {rss_mib(minimal.pid):.0f} MiB")


if __name__ == "__main__":
    asyncio.run(main())
