"""Projection rebuild throughput from PostgreSQL, and projection lag under the API benchmark's load.

    .venv/bin/python -m bench.projections [--database-url postgresql+psycopg://postgres@127.0.0.1:5432/postgres]
                                          [--games 2000] [--clients 16] [--seconds 10]

1. Rebuild: fills a fresh database with finished games of every game of the catalog at its largest
   table (one in ten of them played by people with a player_id, against bots, so that ratings move),
   then rebuilds each projection from the whole log, and prints the log's events per second
   (target: at least 20,000) and the peak of Python's allocations during each rebuild.
2. Lag: serves the API in one uvicorn process, which runs the projections in the background (woken
   by LISTEN/NOTIFY), loads it with bench/api.py's command clients, samples every projection's lag
   (events not applied yet, age of the oldest) every 50 ms, and prints its median, p99 and maximum.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
import tracemalloc

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bench.api import SEATS, command_client, fresh_database, load, planned, summary
from bench.servers import KAITEN_APP, serving
from kaiten.adapters.database import create_engine
from kaiten.adapters.people import SqlPeople
from kaiten.adapters.projections.log import Lag
from kaiten.adapters.projections.rebuild import rebuild
from kaiten.adapters.projections.registry import build_projections
from kaiten.adapters.projections.runner import ProjectionRunner
from kaiten.adapters.schema import events
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.domain.catalog import GAMES
from kaiten.services.commands import Act, CreateGame, GetTable, ListLegalCommands, NewSeat
from kaiten.services.games import Games
from tests.bots import bots_move

#: Concurrent writers filling the log.
WRITERS = 8
#: Bots that decide in microseconds: the log is what is measured, and searches would take hours to fill it.
QUICK_BOTS = ("random", "greedy")
PEOPLE = [f"player-{number}" for number in range(50)]
LAG_SAMPLE_SECONDS = 0.05


async def play_people_game(games: Games, game_id: str, rng: random.Random) -> str:
    """Two or three people with a player_id and bots, playing random legal commands to the end; its id."""
    game = GAMES[game_id]
    people = rng.sample(PEOPLE, rng.randint(2, min(3, game.max_players)))
    seats = tuple(NewSeat(name=person, player_id=person) for person in people)
    seats += (NewSeat(bot="random"),) * (game.max_players - len(seats))
    created = await games.create(CreateGame(game_id, game.max_players, None, rng.randrange(2**32), seats))
    while True:
        await bots_move(games, created.id)
        table = await games.view(GetTable(created.id))
        if table.status == "finished":
            return created.id
        token = created.tokens[str(rng.choice([seat for seat in table.awaiting if str(seat) in created.tokens]))]
        legal = await games.legal_commands(ListLegalCommands(created.id, token))
        await games.act(Act(created.id, token, msgspec.json.encode(rng.choice(legal.commands))))


async def fill(engine: AsyncEngine, count: int) -> None:
    games = Games(SqlEventStore(engine), SystemClock(), SecureIds(), people=SqlPeople(engine))
    catalog = sorted(GAMES)
    numbers = iter(range(count))

    async def writer(seed: int) -> None:
        rng = random.Random(seed)
        for number in numbers:
            game = GAMES[catalog[number % len(catalog)]]
            if number % 10 == 9:
                await play_people_game(games, game.id, rng)
            else:
                bots = tuple(NewSeat(bot=rng.choice(QUICK_BOTS)) for _ in range(game.max_players))
                created = await games.create(CreateGame(game.id, game.max_players, None, number, bots))
                await bots_move(games, created.id)

    await asyncio.gather(*(writer(seed) for seed in range(WRITERS)))


async def log_length(engine: AsyncEngine) -> int:
    async with engine.connect() as connection:
        return (await connection.execute(sa.select(sa.func.count()).select_from(events))).scalar_one()


async def bench_rebuild(url: str, games: int) -> None:
    engine = create_engine(url)
    try:
        started = time.perf_counter()
        await fill(engine, games)
        length = await log_length(engine)
        print(f"log: {games} finished games, {length:,} events (filled in {time.perf_counter() - started:.0f} s)")
        total = 0.0
        for projection in build_projections(engine.dialect.name):
            tracemalloc.start()
            await rebuild(engine, projection)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            # A second rebuild without tracemalloc, which slows Python down, gives the throughput.
            started = time.perf_counter()
            await rebuild(engine, projection)
            elapsed = time.perf_counter() - started
            total += elapsed
            print(
                f"rebuild {projection.name:<10} {length / elapsed:10,.0f} events/s  ({elapsed:.2f} s, "
                f"peak Python allocations {peak / 2**20:.1f} MiB)"
            )
        print(f"rebuild all projections {length / total:10,.0f} events/s   (target ≥ 20,000 for each)")
    finally:
        await engine.dispose()


async def sample_lag(runners: list[ProjectionRunner], samples: dict[str, list[Lag]], stop: asyncio.Event) -> None:
    while not stop.is_set():
        for runner in runners:
            samples[runner.name].append(await runner.lag())
        await asyncio.sleep(LAG_SAMPLE_SECONDS)


async def bench_lag(admin_url: str, clients: int, seconds: float) -> None:
    commands = (await planned("sushi-go", SEATS)).commands
    url = await fresh_database(admin_url, "kaiten_bench_lag")
    engine = create_engine(url)
    runners = [ProjectionRunner(engine, projection) for projection in build_projections(engine.dialect.name)]
    samples: dict[str, list[Lag]] = {runner.name: [] for runner in runners}
    try:
        with serving(KAITEN_APP, 8703, url):
            await load(clients, 1, command_client(8703, commands, []))  # warm up
            stop = asyncio.Event()
            sampler = asyncio.create_task(sample_lag(runners, samples, stop))
            rate, latencies = await load(clients, seconds, command_client(8703, commands, []))
            stop.set()
            await sampler
        print(f"{clients} clients, {seconds:.0f} s, PostgreSQL, one uvicorn process running the projections")
        print(summary("full command path", rate, latencies))
        for name, lags in samples.items():
            ages = sorted(lag.seconds * 1000 for lag in lags)
            behind = sorted(lag.events for lag in lags)
            p99 = int(len(lags) * 0.99)
            print(
                f"lag {name:<10} age of the oldest unapplied event: median {statistics.median(ages):5.0f} ms, "
                f"p99 {ages[p99]:5.0f} ms, max {ages[-1]:5.0f} ms;  events behind: median "
                f"{statistics.median(behind):.0f}, p99 {behind[p99]}, max {behind[-1]}  ({len(lags)} samples)"
            )
    finally:
        await engine.dispose()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()

    await bench_rebuild(await fresh_database(args.database_url, "kaiten_bench_rebuild"), args.games)
    await bench_lag(args.database_url, args.clients, args.seconds)


if __name__ == "__main__":
    asyncio.run(main())
