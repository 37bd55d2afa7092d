"""Commands per second and latency of the full command path against two yardsticks, the cost of reads
by the length of the log, and uvicorn against granian (and N workers).

The yardsticks (bench/minimal_app.py) and the full app under each server compared run side by side in
this one run, on the same PostgreSQL, loaded by the same 16 concurrent clients in alternating windows;
the figures that matter are the ratios. The yardsticks are served by the first server of `--servers`
(`--yardsticks-server` names another): served alike, a yardstick and the app differ by their paths
alone. Served by another server, they would differ by the servers too, and by the clients: these
clients spend more CPU a request against granian than against uvicorn for the same endpoint (their
connection pool checks each idle connection at every request, and how many are idle depends on how
the server answers), and on two cores the clients' CPU is two fifths of the machine's work.

The one-INSERT endpoint is issue 26's yardstick. The same-writes endpoint makes each of the commands'
appends through kaiten's own store, and nothing else a command does: against it, the ratio is what the
command path costs beyond its own writes, and its own ratio to the one-INSERT endpoint is what those
writes cost against one INSERT. The yardsticks write a database of their own, so that no
serving process of the full app hears their appends' notices or projects their streams.

    .venv/bin/python -m bench.api [--database-url postgresql+psycopg://postgres@127.0.0.1:5432/postgres]
                                  [--clients 16] [--seconds 10] [--servers uvicorn,granian,uvicorn:2]
                                  [--reads 100] [--before PATH] [--yardsticks-server uvicorn]

Each client plays 4-player Sushi Go! games of four people (a person's command alone: bots move in
appends of their own, off the request path, which would load the server beside the commands) by
replaying a command sequence worked out in process beforehand for the same seed, each command sent
with its seat's token, so no read request is mixed into the measured commands. Every fourth command
of a turn also reveals the picks, and the last of a round scores it and deals the next. The games a
window plays are created before it (a client that runs out creates one more), so that the window
holds commands alone, as the one-INSERT endpoint's holds INSERTs alone (and the same-writes
endpoint's streams are created before its window too).

The reads are timed one at a time, round robin: `/health`, then the table, the legal commands, an
events page and a replay of a short and of a long game of Sushi Go Party! at 8 players (eight
people; the longest logs the catalog makes). `--before PATH` also serves another checkout's code
(say, main's, from `git archive main | tar -x -C PATH`) under the same servers, in the same
alternating windows: a before-and-after side by side in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec
import psycopg

from bench.servers import ROOT, ServerKind, app_of, postgres_cpu_seconds, serving, tree_cpu_seconds, tree_rss_mib
from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.migrate import upgrade
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.services.commands import Act, CreateGame, GetTable, ListLegalCommands, NewSeat
from kaiten.services.games import Games
from kaiten.services.ports import FeedItem, GameSummary, NewEvent, OutboxMessage, StoredEvent

SEED = 20261130
#: With the seed, the deal the bench chose: the server deals exactly as the plan worked out in process.
SALT = "6b616974656e2062656e636820646561"
SEATS = [{"name": f"bench {seat}"} for seat in range(4)]
GAME = {"game": "sushi-go", "players": 4, "seed": SEED, "salt": SALT, "seats": SEATS}
LONG_SEATS = [{"name": f"bench {seat}"} for seat in range(8)]
SHORT_LOG = 40

#: One client's loop: send requests until the deadline, appending each one's latency.
Client = Callable[[httpx.AsyncClient, float, list[float]], Awaitable[None]]


@dataclass(frozen=True)
class Served:
    """The app of one checkout under one server."""

    name: str
    server: ServerKind
    root: Path

    def __str__(self) -> str:
        return self.name


@dataclass
class Spent:
    """CPU seconds a load cost each part of the machine: the server under load, every PostgreSQL
    process, and this process (the clients)."""

    server: float = 0.0
    postgres: float = 0.0
    clients: float = 0.0

    @classmethod
    def now(cls, server_pid: int) -> Spent:
        return cls(tree_cpu_seconds(server_pid), postgres_cpu_seconds(), time.process_time())

    def __add__(self, other: Spent) -> Spent:
        return Spent(self.server + other.server, self.postgres + other.postgres, self.clients + other.clients)

    def __sub__(self, other: Spent) -> Spent:
        return Spent(self.server - other.server, self.postgres - other.postgres, self.clients - other.clients)

    def per_request_ms(self, requests: int) -> tuple[float, float, float, float]:
        """Server, PostgreSQL, clients and all three: milliseconds of CPU a request."""
        parts = (1000 * self.server / requests, 1000 * self.postgres / requests, 1000 * self.clients / requests)
        return (*parts, sum(parts))


@dataclass(frozen=True)
class Append:
    """One append's arguments as the services made it: what the store writes for it."""

    expected_version: int
    events: tuple[NewEvent, ...]
    summary: GameSummary | None
    outbox: tuple[OutboxMessage, ...]
    feed: tuple[FeedItem, ...]


class RecordingStore(InMemoryEventStore):
    """An in-memory store that keeps every append's arguments, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.appends: list[Append] = []

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        summary: GameSummary | None = None,
        idempotency_key: str | None = None,
        outbox: Sequence[OutboxMessage] = (),
        feed: Sequence[FeedItem] = (),
    ) -> list[StoredEvent]:
        self.appends.append(Append(expected_version, tuple(events), summary, tuple(outbox), tuple(feed)))
        return await super().append(stream_id, expected_version, events, summary, idempotency_key, outbox, feed)


@dataclass(frozen=True)
class Plan:
    """The people's commands of one seeded game (each with its seat), the version after each, and the
    game's appends: `appends[:created]` its creation's, then the play's (one a command at a table of
    people)."""

    game: str
    seats: list[dict[str, Any]]
    commands: list[tuple[str, bytes]]
    versions: list[int]
    appends: list[Append]
    created: int


async def planned(game: str, seats: list[dict[str, Any]]) -> Plan:
    """The people's commands of one seeded game, found by playing it in process (bots, if seated, move
    when woken, as a serving process's scheduler would make them move)."""
    store = RecordingStore()
    games = Games(store, SystemClock(), SecureIds(), people=InMemoryPeople())
    new_seats = tuple(msgspec.convert(seat, NewSeat) for seat in seats)
    created = await games.create(CreateGame(game, len(seats), None, SEED, new_seats, salt=bytes.fromhex(SALT)))
    creation = len(store.appends)
    commands, versions = [], []
    while (await games.view(GetTable(created.id))).status != "finished":
        await games.wake(created.id)
        for seat, token in created.tokens.items():
            legal = await games.legal_commands(ListLegalCommands(created.id, token))
            if legal.commands:
                body = msgspec.json.encode(legal.commands[-1])
                versions.append((await games.act(Act(created.id, token, body))).version)
                commands.append((seat, body))
    return Plan(game, seats, commands, versions, store.appends, creation)


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


@dataclass
class Measured:
    """One load's figures over every window it ran in."""

    name: str
    rounds: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    cpu: Spent = field(default_factory=Spent)

    @property
    def rate(self) -> float:
        """Requests per second, the mean of the windows'."""
        return statistics.fmean(self.rounds)

    def per_request_ms(self) -> tuple[float, float, float, float]:
        return self.cpu.per_request_ms(len(self.latencies))

    async def window(self, server_pid: int, clients: int, seconds: float, client: Client) -> None:
        before = Spent.now(server_pid)
        rate, latencies = await load(clients, seconds, client)
        self.cpu += Spent.now(server_pid) - before
        self.rounds.append(rate)
        self.latencies += latencies


def load_average() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


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


async def create_games(port: int, count: int, clients: int) -> list[dict[str, Any]]:
    """`count` games of four people created before a window, `clients` at a time: the window then times
    a person's command alone, not the creations its clients would otherwise make between games."""
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        created = await asyncio.gather(
            *(http.post(f"http://127.0.0.1:{port}/v1/games", json=GAME) for _ in range(count))
        )
    return [response.raise_for_status().json() for response in created]


def command_client(
    port: int, commands: list[tuple[str, bytes]], ready: list[dict[str, Any]]
) -> Callable[[httpx.AsyncClient, float, list[float]], Awaitable[None]]:
    """Clients that play the games of `ready` (created before the window), then games they create."""
    base = f"http://127.0.0.1:{port}"

    async def play(http: httpx.AsyncClient, deadline: float, latencies: list[float]) -> None:
        while time.monotonic() < deadline:
            game = ready.pop() if ready else (await http.post(f"{base}/v1/games", json=GAME)).json()
            headers = {
                seat: {"Authorization": f"Bearer {token}", "content-type": "application/json"}
                for seat, token in game["tokens"].items()
            }
            for seat, body in commands:
                if time.monotonic() >= deadline:
                    return
                await timed(
                    http.post(f"{base}/v1/games/{game['id']}/commands", content=body, headers=headers[seat]),
                    latencies,
                )

    return play


async def appended_stream(http: httpx.AsyncClient, url: str, plan: Plan) -> str:
    """A new stream holding the plan's creation, written through the same-writes yardstick at `url`."""
    stream_id = str(uuid.uuid4())
    for step in range(plan.created):
        (await http.post(url, json={"stream_id": stream_id, "step": step})).raise_for_status()
    return stream_id


async def create_streams(port: int, plan: Plan, count: int, clients: int) -> list[str]:
    """`count` streams created before a window, `clients` at a time, as the command windows' games are."""
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        url = f"http://127.0.0.1:{port}/append"
        return list(await asyncio.gather(*(appended_stream(http, url, plan) for _ in range(count))))


def append_client(port: int, plan: Plan, ready: list[str]) -> Client:
    """Clients that make the writes of the plan's commands, one append a request, on the streams of
    `ready`, then on streams they create."""
    url = f"http://127.0.0.1:{port}/append"

    async def append(http: httpx.AsyncClient, deadline: float, latencies: list[float]) -> None:
        while time.monotonic() < deadline:
            stream_id = ready.pop() if ready else await appended_stream(http, url, plan)
            for step in range(plan.created, len(plan.appends)):
                if time.monotonic() >= deadline:
                    return
                await timed(http.post(url, json={"stream_id": stream_id, "step": step}), latencies)

    return append


def ping_client(port: int) -> Client:
    url = f"http://127.0.0.1:{port}/ping"

    async def ping(http: httpx.AsyncClient, deadline: float, latencies: list[float]) -> None:
        while time.monotonic() < deadline:
            await timed(http.post(url, json={"type": "Ping"}), latencies)

    return ping


def round_ratios(commands: list[float], inserts: list[float]) -> str:
    """Each round's rate ratio, and their spread: the machine's speed drifts from window to window (on a
    shared host a plain loop's time moved by half from one second to the next), and a ratio whose rounds
    spread wider than the gap to its target cannot say on which side of it the command path is."""
    ratios = sorted(command / insert for command, insert in zip(commands, inserts, strict=True))
    listed = " ".join(f"{ratio:.2f}" for ratio in ratios)
    return f"by round, sorted: {listed} (median {statistics.median(ratios):.2f}, spread {ratios[-1] - ratios[0]:.2f})"


def p50_ms(latencies: list[float]) -> float:
    return statistics.median(latencies) * 1000


def summary(name: str, rate: float, latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    return (
        f"{name:<22} {rate:8.1f} req/s   p50 {p50_ms(ordered):6.1f} ms   p99 {p99:6.1f} ms   ({len(ordered)} requests)"
    )


async def played(http: httpx.AsyncClient, base: str, plan: Plan, commands: int) -> tuple[str, str, int]:
    """A game of the plan with its first `commands` commands sent: its id, the person's token, its version."""
    game_body = {"game": plan.game, "players": len(plan.seats), "seed": SEED, "salt": SALT, "seats": plan.seats}
    created = await http.post(f"{base}/v1/games", json=game_body)
    created.raise_for_status()
    game = created.json()
    for seat, body in plan.commands[:commands]:
        headers = {"Authorization": f"Bearer {game['tokens'][seat]}", "content-type": "application/json"}
        sent = await http.post(f"{base}/v1/games/{game['id']}/commands", content=body, headers=headers)
        if sent.status_code >= 400:
            raise RuntimeError(f"{sent.status_code}: {sent.text}")
    return game["id"], game["tokens"]["0"], plan.versions[commands - 1]


async def read_requests(port: int, plan: Plan) -> dict[str, tuple[str, dict[str, str]]]:
    """The reads to time on one server, by name: paths and headers, about a short and a long game."""
    base = f"http://127.0.0.1:{port}"
    short = next(index for index, version in enumerate(plan.versions, start=1) if version >= SHORT_LOG)
    requests: dict[str, tuple[str, dict[str, str]]] = {"/health": (f"{base}/health", {})}
    async with httpx.AsyncClient(timeout=30) as http:
        # The last command would end the game: the long game stays active, like the short one.
        for commands in (short, len(plan.commands) - 1):
            game_id, token, version = await played(http, base, plan, commands)
            seat = {"Authorization": f"Bearer {token}"}
            game = f"{base}/v1/games/{game_id}"
            requests[f"table {version}"] = (game, seat)
            requests[f"legal {version}"] = (f"{game}/legal-commands", seat)
            requests[f"events {version}"] = (f"{game}/events?after={version - 20}&limit=20", seat)
            requests[f"replay {version}"] = (f"{game}/replay?at={version - 5}", seat)
    return requests


async def reads(ports: dict[Served, int], plan: Plan, rounds: int) -> dict[Served, dict[str, list[float]]]:
    """Latencies of each read on each server, one request at a time, round robin over all of them."""
    requests = {kind: await read_requests(port, plan) for kind, port in ports.items()}
    latencies = {kind: {name: list[float]() for name in named} for kind, named in requests.items()}
    async with httpx.AsyncClient(timeout=30) as http:
        for _ in range(rounds):
            for kind, named in requests.items():
                for name, (url, headers) in named.items():
                    await timed(http.get(url, headers=headers), latencies[kind][name])
    return latencies


def yardsticks_served_by(named: str | None, servers: Sequence[ServerKind]) -> ServerKind:
    """The server named for the yardsticks, else the first server the app is measured under (one
    process: the yardsticks are one app each)."""
    return ServerKind.parse(named) if named else ServerKind(servers[0].name)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10, help="of commands, per server")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--servers", default="uvicorn,granian", help="e.g. uvicorn,granian,uvicorn:2,granian:2")
    parser.add_argument("--reads", type=int, default=100, help="requests of each read, per server")
    parser.add_argument("--before", type=Path, help="another checkout, served beside this one")
    parser.add_argument(
        "--yardsticks-server",
        help="the server of the yardsticks (default: the first of --servers; issue 26 measured granian against "
        "yardsticks under uvicorn)",
    )
    args = parser.parse_args()
    roots = {"": ROOT} if args.before is None else {"": ROOT, "before ": args.before}
    server_kinds = [ServerKind.parse(text) for text in args.servers.split(",")]
    kinds = [Served(f"{label}{kind}", kind, root) for label, root in roots.items() for kind in server_kinds]

    plan = await planned("sushi-go", SEATS)
    commands = plan.commands
    long_plan = await planned("sushi-go-party", LONG_SEATS)
    url = await fresh_database(args.database_url, "kaiten_bench")
    # The yardsticks write a database of their own: in kaiten's, every append of theirs would wake the
    # serving processes' listeners and projections, whose work would slow the yardsticks' windows.
    yardsticks_url = await fresh_database(args.database_url, "kaiten_bench_yardsticks")
    ports = {kind: 8702 + number for number, kind in enumerate(kinds)}
    with ExitStack() as servers:
        yardsticks_server = yardsticks_served_by(args.yardsticks_server, server_kinds)
        minimal = servers.enter_context(serving("bench.minimal_app:app", 8701, yardsticks_url, yardsticks_server))
        full = {
            kind: servers.enter_context(serving(app_of(kind.root), port, url, kind.server, kind.root))
            for kind, port in ports.items()
        }
        # Reads first: after the command load, the catch-up projections of every server would still
        # be working through its events, in the same processes.
        read_latencies = await reads(ports, long_plan, args.reads)
        await load(args.clients, 1, ping_client(8701))  # warm up
        # Each window's games are created before it, as many as the warm-up's rate would play in it.
        warm_writes = (await load(args.clients, 1, append_client(8701, plan, [])))[0]
        warm_rates = {
            kind: (await load(args.clients, 1, command_client(port, commands, [])))[0] for kind, port in ports.items()
        }

        # The loads take turns in short windows, so the machine's drift (other work, a noisy
        # neighbour) falls on all alike instead of on whichever ran last.
        window: float = args.seconds / args.rounds

        def needed(rate: float) -> int:
            return math.ceil(1.5 * rate * window / len(commands)) + int(args.clients)

        one_insert, same_writes = Measured("minimal INSERT"), Measured("same writes")
        measured = {kind: Measured(f"commands {kind}") for kind in kinds}
        for _ in range(args.rounds):
            await one_insert.window(minimal.pid, args.clients, window, ping_client(8701))
            streams = await create_streams(8701, plan, needed(warm_writes), args.clients)
            await same_writes.window(minimal.pid, args.clients, window, append_client(8701, plan, streams))
            for kind, port in ports.items():
                ready = await create_games(port, needed(warm_rates[kind]), args.clients)
                await measured[kind].window(full[kind].pid, args.clients, window, command_client(port, commands, ready))

        print(f"{args.clients} clients, {args.seconds:.0f} s each in {args.rounds} alternating windows, PostgreSQL")
        print(f"{load_average()} (the commands' figures mean little unless the machine was idle before)")
        print(summary(f"minimal INSERT {yardsticks_server}", one_insert.rate, one_insert.latencies))
        print(summary(f"same writes {yardsticks_server}", same_writes.rate, same_writes.latencies))
        for kind in kinds:
            print(summary(f"commands {kind}", measured[kind].rate, measured[kind].latencies))
        # A path that makes a command's writes and nothing else, against one INSERT.
        print(
            f"ratio same writes / minimal INSERT: {same_writes.rate / one_insert.rate:.2f}   "
            "(a command's writes alone against one INSERT)"
        )
        print(f"   {round_ratios(same_writes.rounds, one_insert.rounds)}")
        for kind in kinds:
            print(
                f"ratio commands {kind} / minimal INSERT: {measured[kind].rate / one_insert.rate:.2f}   (target ≥ 0.90)"
            )
            print(f"   {round_ratios(measured[kind].rounds, one_insert.rounds)}")
            print(
                f"ratio commands {kind} / same writes: {measured[kind].rate / same_writes.rate:.2f}   "
                "(what the path costs beyond its own writes)"
            )
            print(f"   {round_ratios(measured[kind].rounds, same_writes.rounds)}")
        # The server's own CPU time per request, which the rest of the machine's load moves far less.
        insert_ms = one_insert.per_request_ms()[0]
        print(f"server CPU per request: minimal INSERT {insert_ms:.2f} ms", end="")
        for load_measured in (same_writes, *measured.values()):
            ms = load_measured.per_request_ms()[0]
            print(f"   {load_measured.name} {ms:.2f} ms ({ms / insert_ms:.2f} x)", end="")
        print()
        # With every core busy, the rates divide the machine's CPU: their ratio is about the inverse
        # of the CPU a request costs in all, whichever part spends it.
        print("CPU per request, ms: server + PostgreSQL + the clients (this process) = in all")
        for load_measured in (one_insert, same_writes, *measured.values()):
            server, postgres, clients, total = load_measured.per_request_ms()
            print(f"   {load_measured.name:<22} {server:.2f} + {postgres:.2f} + {clients:.2f} = {total:.2f}")
        for kind in kinds:
            p50 = {name: p50_ms(latencies) for name, latencies in read_latencies[kind].items()}
            print(f"reads through {kind}, p50 of {args.reads} each, one at a time:")
            print("   " + "   ".join(f"{name} {ms:.2f} ms" for name, ms in p50.items()))
            names = list(p50)
            health, (short, long) = p50["/health"], (names[1], names[5])
            print(
                f"   ratio {long} / {short}: {p50[long] / p50[short]:.2f} (target ≤ 1.2)   "
                f"{short} / /health: {p50[short] / health:.2f}   {long} / /health: {p50[long] / health:.2f} "
                "(target ≤ 3)"
            )
        rss = "   ".join(f"{kind} {tree_rss_mib(process.pid):.0f} MiB" for kind, process in full.items())
        print(f"server RSS after the run: {rss}   minimal {tree_rss_mib(minimal.pid):.0f} MiB")


if __name__ == "__main__":
    asyncio.run(main())
