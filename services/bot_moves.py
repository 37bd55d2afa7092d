"""Bots think off the request path and off the event loop.

A bot seat that a game awaits is owed a move. The append that leaves it owed gives the game a
deadline due at once (services/clocks.py `wake_at`), so the move is made like a turn clock's timeout:
the scheduler of some serving process claims the game (services/scheduler.py), the bot thinks in a
worker (a thread here; processes in a server, adapters/bot_workers.py), and the move is appended at
the version it was decided on. A process that dies while a bot thinks leaves the deadline due; another
claims it once the claim's lease runs out, and the version guard lets one move in, once.

A person's command therefore answers as soon as its own events are appended: the bots' moves follow
as their own appends, seen through the event stream, webhooks and reads like any other move.

Bots draw on their app's bot CPU quota (`BotLoad`), and a server refuses new games with bots while the
moves it owes pile up beyond what its workers can catch up with.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

import msgspec

from kaiten.domain import lobby
from kaiten.domain.catalog import get_game
from kaiten.domain.lobby import Table
from kaiten.services.quotas import QuotaExceeded

MINUTE = timedelta(minutes=1)
#: Bot moves owed at once, per worker, beyond which a server refuses new games with bots (429).
OWED_PER_WORKER = 16
#: When a server owes too many bot moves, a client may try a new game again after this.
BUSY_RETRY_SECONDS = 5


class BotChoice(msgspec.Struct, frozen=True):
    """A bot's command, and the CPU time it took to choose it."""

    command: Any
    cpu_seconds: float


def think(game_id: str, table: Table[Any], seat: int, version: int) -> BotChoice:
    """The seat's bot chooses its command, as the game stands after `version` events (run in a worker)."""
    started = time.thread_time()
    chance = lobby.seat_chance(table, version, seat)
    command = lobby.bot_command(get_game(game_id), table, seat, chance)
    return BotChoice(command=command, cpu_seconds=time.thread_time() - started)


def owed_seats(table: Table[Any]) -> list[int]:
    """The bot seats the game awaits now (several at once in the simultaneous-pick games)."""
    if table.status != "active":
        return []
    game = get_game(table.game)
    return [seat for seat in lobby.awaiting(game, table) if table.seats[seat].player is not None]


class ThreadThinker:
    """Bots think in threads: off the event loop, sharing the process's interpreter (tests, embedded
    use). A server thinks in processes (adapters/bot_workers.py)."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="kaiten-bot")

    async def choose(self, game_id: str, table: Table[Any], seat: int, version: int) -> BotChoice:
        return await asyncio.get_running_loop().run_in_executor(self._pool, think, game_id, table, seat, version)

    async def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class BotLoad:
    """How much thinking the bots of each app did in the last minute (in this process, as requests per
    minute are counted), and whether a server owes more moves than its workers can catch up with."""

    def __init__(
        self,
        workers: int,
        now: Callable[[], datetime],
        owed: Callable[[], Awaitable[int]] | None = None,
        quota_of: Callable[[str], Awaitable[int | None]] | None = None,
    ) -> None:
        self.max_owed = OWED_PER_WORKER * workers
        self._now = now
        self._owed = owed
        self._quota_of = quota_of
        self._spent: dict[str, deque[tuple[datetime, float]]] = {}

    def spend(self, app_id: str, cpu_seconds: float) -> None:
        self._spent.setdefault(app_id, deque()).append((self._now(), cpu_seconds))

    async def exhausted_until(self, app_id: str) -> datetime | None:
        """When the app's bots may think again, if they spent their minute's CPU quota; else None."""
        if self._quota_of is None:
            return None
        quota = await self._quota_of(app_id)
        if quota is None:
            return None
        spent = self._spent.get(app_id)
        if not spent:
            return None
        window_start = self._now() - MINUTE
        while spent and spent[0][0] <= window_start:
            spent.popleft()
        if sum(seconds for _, seconds in spent) < quota:
            return None
        return spent[0][0] + MINUTE

    async def before_bot_game(self, app_id: str) -> None:
        """Refuse a new game with bots when its app's bots spent their CPU quota, or the server owes
        more bot moves than it can soon make (429, with when to try again)."""
        until = await self.exhausted_until(app_id)
        if until is not None:
            retry = int((until - self._now()).total_seconds()) + 1
            raise QuotaExceeded("bot-cpu-seconds-per-minute", "this app's bots used their CPU time this minute", retry)
        if self._owed is not None and await self._owed() >= self.max_owed:
            raise QuotaExceeded("bots-busy", "the server's bots have too many moves to make now", BUSY_RETRY_SECONDS)
