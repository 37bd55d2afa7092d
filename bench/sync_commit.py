"""What a synchronous standby costs an append, side by side in one run.

Starts a pg_auto_failover formation (tests/auto_failover.py: a monitor, a primary and its synchronous
standby on loopback, in temporary folders, fsync on), then sends people's commands (one append each,
a game created when one ends) from concurrent clients through kaiten's services over the formation's
URL, in alternating windows, with each session's `synchronous_commit`:

- `on`: what pg_auto_failover sets (with `synchronous_standby_names = 'ANY 1 (pgautofailover_standby_2)'`):
  a commit is acknowledged once the standby has flushed it too, so a promoted standby holds it;
- `local`: the primary's own flush only, as without a synchronous standby (a commit acknowledged just
  before the primary is lost may be missing from the promoted standby);
- `remote_apply`: the standby has also replayed it (a read there sees it at once).

It prints appends per second for each, their ratio to `local`, the p50/p99 latency of a command, and
the load average (the standby, the monitor and the clients share the machine):

    .venv/bin/python -m bench.sync_commit [--clients 8] [--windows 4] [--seconds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections import defaultdict

import msgspec
from sqlalchemy.engine import make_url

from kaiten.adapters.migrate import upgrade_sync
from kaiten.api.bootstrap import Services, bootstrap
from kaiten.services.commands import Act, CreateGame, ListLegalCommands, NewSeat
from tests.auto_failover import Formation, formation, missing

MODES = ("on", "local", "remote_apply")
PEOPLE = (NewSeat(name="ann"), NewSeat(name="bob"))


def with_commit_level(url: str, level: str) -> str:
    parsed = make_url(url).update_query_dict({"options": f"-c synchronous_commit={level}"})
    return parsed.render_as_string(hide_password=False)


class Client:
    """Plays one game of two people at a time, both seats in turn; a finished game is replaced."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.game_id: str | None = None
        self.tokens: dict[str, str] = {}
        self.turn = 0

    async def append_once(self, services: Services) -> None:
        if self.game_id is None:
            created = await services.games.create(CreateGame("sushi-go", 2, None, self.number, PEOPLE))
            self.game_id, self.tokens = created.id, dict(created.tokens)
            return
        token = self.tokens[str(self.turn % 2)]
        legal = await services.games.legal_commands(ListLegalCommands(self.game_id, token))
        if not legal.commands:  # over, or the other seat is awaited alone
            self.turn += 1
            token = self.tokens[str(self.turn % 2)]
            legal = await services.games.legal_commands(ListLegalCommands(self.game_id, token))
            if not legal.commands:
                self.game_id = None
                return await self.append_once(services)
        await services.games.act(Act(self.game_id, token, msgspec.json.encode(legal.commands[0])))
        self.turn += 1


async def window(services: Services, clients: list[Client], seconds: float) -> list[float]:
    """Each client appends as fast as it is answered for `seconds`; every append's latency."""
    latencies: list[float] = []
    end = time.perf_counter() + seconds

    async def loop(client: Client) -> None:
        while time.perf_counter() < end:
            start = time.perf_counter()
            await client.append_once(services)
            latencies.append(time.perf_counter() - start)

    await asyncio.gather(*(loop(client) for client in clients))
    return latencies


async def run(made: Formation, clients: int, windows: int, seconds: float) -> None:
    url = made.url()
    await asyncio.to_thread(upgrade_sync, url)
    services = {mode: bootstrap(with_commit_level(url, mode)) for mode in MODES}
    players = {mode: [Client(n) for n in range(clients)] for mode in MODES}
    try:
        for mode in MODES:  # warm the pools, the caches and the first games
            await window(services[mode], players[mode], 0.5)
        appended: dict[str, int] = defaultdict(int)
        latencies: dict[str, list[float]] = defaultdict(list)
        loads = []
        for number in range(windows):
            # Alternate the order too, so that no mode always follows the same one.
            for mode in MODES if number % 2 == 0 else tuple(reversed(MODES)):
                took = await window(services[mode], players[mode], seconds)
                appended[mode] += len(took)
                latencies[mode].extend(took)
            loads.append(os.getloadavg()[0])
        span = windows * seconds
        print(f"{clients} clients, {windows} windows of {seconds:.0f} s per mode; load average {loads}")
        print(f"{'synchronous_commit':20} {'appends/s':>10} {'vs local':>9} {'p50 ms':>8} {'p99 ms':>8}")
        local_rate = appended["local"] / span
        for mode in MODES:
            ordered = sorted(latencies[mode])
            p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
            rate = appended[mode] / span
            print(
                f"{mode:20} {rate:>10.0f} {rate / local_rate:>9.2f} "
                f"{statistics.median(ordered) * 1000:>8.1f} {p99 * 1000:>8.1f}"
            )
    finally:
        for built in services.values():
            await built.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--windows", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    options = parser.parse_args()
    reason = missing()
    if reason is not None:
        raise SystemExit(f"cannot start a formation: {reason}")
    with formation() as made:
        asyncio.run(run(made, options.clients, options.windows, options.seconds))


if __name__ == "__main__":
    main()
