"""A serving process's memory as its table cache fills: RSS after every step of games read.

    .venv/bin/python -m bench.table_cache [--games 14000] [--cache 10000] [--step 2000] [--clients 16]
                                          [--server uvicorn] [--database-url ...]

The games (4-player Sushi Go!, one person and three bots, dealt and started) are written to a fresh
PostgreSQL database in process; then one `kaiten serve`-like process (`KAITEN_TABLE_CACHE=--cache`)
is asked for each game's table once, which loads it into its cache. The RSS should grow until the
cache holds `--cache` tables and stay flat after (target ≤ 300 MiB with 10,000 tables).
"""

from __future__ import annotations

import argparse
import asyncio
import time

import httpx
import msgspec

from bench.api import SEATS, SEED, fresh_database
from bench.servers import KAITEN_APP, ServerKind, serving, tree_rss_mib
from kaiten.adapters.database import create_engine
from kaiten.adapters.people import SqlPeople
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.services.commands import CreateGame, NewSeat
from kaiten.services.games import Games

PORT = 8721


async def stored_games(url: str, count: int, clients: int) -> list[str]:
    """Ids of `count` new games written straight to the database."""
    engine = create_engine(url)
    games = Games(SqlEventStore(engine), SystemClock(), SecureIds(), people=SqlPeople(engine), cached_tables=0)
    seats = tuple(msgspec.convert(seat, NewSeat) for seat in SEATS)
    ids: list[str] = []

    async def create(share: int) -> None:
        for _ in range(share):
            ids.append((await games.create(CreateGame("sushi-go", 4, None, SEED, seats))).id)

    try:
        await asyncio.gather(*(create(count // clients + (n < count % clients)) for n in range(clients)))
    finally:
        await engine.dispose()
    return ids


async def read_all(ids: list[str], clients: int) -> None:
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{PORT}", limits=limits, timeout=60) as http:

        async def read(share: list[str]) -> None:
            for game_id in share:
                (await http.get(f"/v1/games/{game_id}")).raise_for_status()

        await asyncio.gather(*(read(ids[n::clients]) for n in range(clients)))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--games", type=int, default=14_000)
    parser.add_argument("--cache", type=int, default=10_000)
    parser.add_argument("--step", type=int, default=2_000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--server", default="uvicorn")
    args = parser.parse_args()

    url = await fresh_database(args.database_url, "kaiten_bench_cache")
    started = time.monotonic()
    ids = await stored_games(url, args.games, args.clients)
    print(f"{len(ids)} games stored in {time.monotonic() - started:.0f} s")
    environment = {"KAITEN_TABLE_CACHE": str(args.cache), "KAITEN_LOG_LEVEL": "WARNING"}
    with serving(KAITEN_APP, PORT, url, ServerKind.parse(args.server), env=environment) as server:
        print(f"{args.server}, KAITEN_TABLE_CACHE={args.cache}: RSS after reading each game's table once")
        print(f"{'games read':>10}  {'RSS MiB':>8}")
        print(f"{0:>10}  {tree_rss_mib(server.pid):>8.0f}")
        for start in range(0, len(ids), args.step):
            await read_all(ids[start : start + args.step], args.clients)
            print(f"{min(start + args.step, len(ids)):>10}  {tree_rss_mib(server.pid):>8.0f}")


if __name__ == "__main__":
    asyncio.run(main())
