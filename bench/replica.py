"""What a read replica takes off the primary, and what the routing costs, side by side in one run.

Starts a PostgreSQL primary and a streaming replica of it (tests/replication.py: temporary folders,
free ports, the Debian binaries), then reads the same games through services over the primary alone
and through services with the replica, interleaved, and prints for each kind of read the statements
it sent to each database and its p50 latency as a ratio of the primary alone. Last, the replication
lag seen by a reader: from a command's answer to its version readable on the replica.

    .venv/bin/python -m bench.replica [--reads 200] [--appends 50]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.migrate import upgrade_sync
from kaiten.api.bootstrap import Services, bootstrap
from kaiten.services.commands import Act, CreateGame, GetTable, ListEvents, ListLegalCommands, NewSeat
from tests.projecting import settle_all
from tests.replication import Pair, postgres_bin, streaming_pair

Read = Callable[[Services], Awaitable[Any]]
MAX_APPENDS = 50


async def history_page(services: Services) -> Any:
    assert services.history is not None
    return await services.history.matches(limit=20)


def count_statements(counts: Counter[str], name: str, engine: AsyncEngine | None) -> None:
    assert engine is not None

    def counted(*_: Any) -> None:
        counts[name] += 1

    event.listen(engine.sync_engine, "before_cursor_execute", counted)


async def p50_ms(read: Read, services: Services, times: int) -> float:
    took = []
    for _ in range(times):
        start = time.perf_counter()
        await read(services)
        took.append(time.perf_counter() - start)
    return statistics.median(took) * 1000


async def act_first_legal(services: Services, game_id: str, token: str) -> int:
    legal = await services.games.legal_commands(ListLegalCommands(game_id, token))
    outcome = await services.games.act(Act(game_id, token, msgspec.json.encode(legal.commands[0])))
    return outcome.version


async def run(pair: Pair, database: str, reads: int, appends: int) -> None:
    primary_url, replica_url = pair.primary.url(database), pair.replica.url(database)
    alone = bootstrap(primary_url)
    routed = bootstrap(primary_url, read_database_url=replica_url)
    counts: Counter[str] = Counter()
    count_statements(counts, "alone", alone.engine)
    count_statements(counts, "primary", routed.engine)
    count_statements(counts, "replica", routed.read_engine)
    try:
        bots = (NewSeat(bot="random"), NewSeat(bot="random"))
        finished = await alone.games.create(CreateGame("sushi-go", 2, None, 1, bots))
        people = (NewSeat(name="ann"), NewSeat(name="bob"))
        running = await alone.games.create(CreateGame("sushi-go", 2, None, 2, people))
        version = running.version
        for _ in range(5):
            version = await act_first_legal(alone, running.id, running.tokens["0"])
            version = await act_first_legal(alone, running.id, running.tokens["1"])
        await settle_all(alone.projection_runners)
        await asyncio.to_thread(pair.caught_up)

        kinds: dict[str, Read] = {
            "finished game's table": lambda s: s.games.view(GetTable(finished.id)),
            "finished game's events": lambda s: s.games.events(ListEvents(finished.id, after=0, limit=500)),
            "running game's table, no version named": lambda s: s.games.view(GetTable(running.id)),
            "running game's table, min_version": lambda s: s.games.view(GetTable(running.id, seen=version)),
            "match history page": history_page,
        }
        print(f"{'read':42} {'primary alone':>14} {'with replica: primary':>22} {'replica':>8} {'p50 ratio':>10}")
        for name, read in kinds.items():
            await read(alone), await read(routed)  # warm the pools and caches
            counts.clear()
            await read(alone), await read(routed)
            statements = dict(counts)
            alone_ms = await p50_ms(read, alone, reads)
            routed_ms = await p50_ms(read, routed, reads)
            print(
                f"{name:42} {statements.get('alone', 0):>14} {statements.get('primary', 0):>22} "
                f"{statements.get('replica', 0):>8} {routed_ms / alone_ms:>10.2f}"
            )

        lags = []
        replica_engine = routed.read_engine
        assert replica_engine is not None
        query = sa.text("SELECT max(version) FROM events WHERE stream_id = :stream_id")
        # A game of its own, whose 2 x 30 picks leave room for MAX_APPENDS commands.
        fresh = await alone.games.create(CreateGame("sushi-go", 2, None, 3, people))
        async with replica_engine.connect() as connection:
            for index in range(appends):
                version = await act_first_legal(alone, fresh.id, fresh.tokens[str(index % 2)])
                answered = time.perf_counter()
                while (await connection.execute(query, {"stream_id": fresh.id})).scalar() != version:
                    await connection.rollback()
                lags.append((time.perf_counter() - answered) * 1000)
                await connection.rollback()
        lags.sort()
        print(
            f"replication lag after a command's answer: p50 {statistics.median(lags):.2f} ms, "
            f"max {lags[-1]:.2f} ms over {appends} commands"
        )
    finally:
        await alone.close()
        await routed.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--appends", type=int, default=40, choices=range(1, MAX_APPENDS + 1), metavar="1..50")
    args = parser.parse_args()
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise SystemExit("no PostgreSQL binaries under /usr/lib/postgresql/*/bin")
    with streaming_pair(bin_dir) as pair:
        pair.execute(pair.primary, "CREATE DATABASE kaiten")
        upgrade_sync(pair.primary.url("kaiten"))
        asyncio.run(run(pair, "kaiten", args.reads, args.appends))


if __name__ == "__main__":
    main()
