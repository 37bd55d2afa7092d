"""Bots off the request path, measured side by side in one run on `kaiten serve`:

1. `/health` and a table's `GET`: p50 and p99 on an idle server, then while `--games` games of
   `mcts:strong` bots only play in the background (the reproduction of the issue: one such game used
   to hold the server for 106 s), and their ratio (target: p99 within 2 x idle);
2. a person's command: p50 and p99 at a table with an `mcts:strong` bot beside one with a `random` bot,
   commands alternating between the two, on a fresh server (target: the same), and the p50 ratio's
   95% bootstrap interval (an interval that holds 1: the two cannot be told apart by this many).

    .venv/bin/python -m bench.bots [--reads 300] [--games 8] [--commands 60] [--workers N] [--database-url URL]

`--workers` sets the server's `KAITEN_BOT_WORKERS` (default: one per core, as served by default);
`--commands 0` leaves out the second part. The load average is printed beside every figure: run it
on an idle machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.e2e.servers import OPEN, ServerProcess

#: Reads wait at most this long: a read stuck behind a bot fails the bench rather than hanging it.
TIMEOUT_SECONDS = 30


def load_average() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def percentile(latencies: list[float], fraction: float) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000


def median_ratio_interval(
    numerator: list[float], denominator: list[float], draws: int = 2000, seed: int = 0
) -> tuple[float, float]:
    """The 95% bootstrap interval of median(numerator) / median(denominator): a ratio whose interval
    holds 1 cannot be told from 1 by this many requests."""
    draw = random.Random(seed).choices
    ratios = sorted(
        statistics.median(draw(numerator, k=len(numerator))) / statistics.median(draw(denominator, k=len(denominator)))
        for _ in range(draws)
    )
    return ratios[int(0.025 * draws)], ratios[int(0.975 * draws) - 1]


def figures(latencies: list[float]) -> str:
    return f"p50 {percentile(latencies, 0.5):7.2f} ms  p99 {percentile(latencies, 0.99):7.2f} ms"


@asynccontextmanager
async def server(database_url: str, log: Path, workers: int) -> AsyncIterator[httpx.AsyncClient]:
    environment = {**OPEN, "KAITEN_LOG_LEVEL": "WARNING", "KAITEN_BOT_WORKERS": str(workers)}
    process = ServerProcess(database_url, log, environment=environment)
    try:
        async with httpx.AsyncClient(base_url=process.url, timeout=TIMEOUT_SECONDS) as client:
            await process.wait_ready(client)
            yield client
    finally:
        process.stop()


async def create(client: httpx.AsyncClient, seats: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    body = {"game": "sushi-go", "players": len(seats), "seats": seats, "seed": seed}
    response = await client.post("/v1/games", json=body)
    response.raise_for_status()
    created: dict[str, Any] = response.json()
    return created


async def read_latencies(client: httpx.AsyncClient, path: str, count: int) -> list[float]:
    latencies = []
    for _ in range(count):
        started = time.perf_counter()
        (await client.get(path)).raise_for_status()
        latencies.append(time.perf_counter() - started)
    return latencies


async def reads_beside_bots(database_url: str, work: Path, reads: int, games: int, workers: int) -> None:
    async with server(database_url, work / "reads.log", workers) as client:
        table = await create(client, [{"name": "Ann"}, {"name": "Bo"}], seed=1)
        paths = {"/health": "/health", "GET table": f"/v1/games/{table['id']}"}
        idle = {name: await read_latencies(client, path, reads) for name, path in paths.items()}
        print(f"idle server                          ({load_average()})")
        for name, latencies in idle.items():
            print(f"  {name:<10} {figures(latencies)}")

        bots_games = [await create(client, [{"bot": "mcts:strong"}] * 2, seed=10 + n) for n in range(games)]
        busy = {name: await read_latencies(client, path, reads) for name, path in paths.items()}
        still = [(await client.get(f"/v1/games/{game['id']}")).json()["status"] for game in bots_games]
        print(f"{games} mcts:strong games playing ({still.count('active')} still active after) ({load_average()})")
        for name, latencies in busy.items():
            ratio = percentile(latencies, 0.99) / percentile(idle[name], 0.99)
            print(f"  {name:<10} {figures(latencies)}  p99 / idle p99 {ratio:5.2f} (target <= 2)")


async def person_commands(client: httpx.AsyncClient, game: dict[str, Any], latencies: list[float]) -> bool:
    """Send the person's (seat 0) first legal command once the game awaits it; whether it goes on."""
    headers = {"Authorization": f"Bearer {game['tokens']['0']}"}
    while True:
        legal = (await client.get(f"/v1/games/{game['id']}/legal-commands", headers=headers)).json()
        if legal["commands"]:
            break
        table = (await client.get(f"/v1/games/{game['id']}")).json()
        if table["status"] != "active":
            return False
        await asyncio.sleep(0.005)
    started = time.perf_counter()
    sent = await client.post(f"/v1/games/{game['id']}/commands", json=legal["commands"][0], headers=headers)
    latencies.append(time.perf_counter() - started)
    sent.raise_for_status()
    return True


async def commands_beside_bots(database_url: str, work: Path, commands: int, workers: int) -> None:
    async with server(database_url, work / "commands.log", workers) as client:
        latencies: dict[str, list[float]] = {"mcts:strong": [], "random": []}
        games = {bot: await create(client, [{"name": "Ann"}, {"bot": bot}], seed=3) for bot in latencies}
        for _ in range(commands):
            for bot, game in games.items():
                if not await person_commands(client, game, latencies[bot]):
                    games[bot] = game = await create(client, [{"name": "Ann"}, {"bot": bot}], seed=3)
                    await person_commands(client, game, latencies[bot])
        print(f"a person's command, {commands} at each table ({load_average()})")
        for bot, measured in latencies.items():
            print(f"  beside {bot:<12} {figures(measured)}")
        ratio = statistics.median(latencies["mcts:strong"]) / statistics.median(latencies["random"])
        low, high = median_ratio_interval(latencies["mcts:strong"], latencies["random"])
        print(f"  p50 beside mcts:strong / beside random {ratio:5.2f} (95% interval {low:.2f} to {high:.2f}; target 1)")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--commands", type=int, default=60, help="0: reads only")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="KAITEN_BOT_WORKERS (default: cores)")
    parser.add_argument("--database-url", help="default: a SQLite file in a temporary folder")
    options = parser.parse_args()
    print(f"{os.cpu_count()} cores, {options.workers} bot workers, Python {sys.version.split()[0]}, {load_average()}")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        url = options.database_url or f"sqlite:///{work / 'reads.sqlite3'}"
        await reads_beside_bots(url, work, options.reads, options.games, options.workers)
        if options.commands:
            url = options.database_url or f"sqlite:///{work / 'commands.sqlite3'}"
            await commands_beside_bots(url, work, options.commands, options.workers)


if __name__ == "__main__":
    asyncio.run(main())
