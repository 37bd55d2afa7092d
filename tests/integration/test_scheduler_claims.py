"""Two serving processes' schedulers on one database: a game is acted on by one process at a time,
whatever appends the other makes meanwhile (issue 26 §2)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

from kaiten.adapters.database import create_engine
from kaiten.adapters.deadlines import SqlDeadlines
from kaiten.adapters.people import SqlPeople
from kaiten.adapters.sql_store import SqlEventStore
from kaiten.adapters.system import SecureIds
from kaiten.services.bot_moves import BotLoad
from kaiten.services.commands import CreateGame, NewSeat
from kaiten.services.games import Games
from kaiten.services.scheduler import Scheduler
from tests.bots import FixedClock, HeldThinker, pick_beside_the_held_search

#: Long enough for a second search to begin if a claim let it: each process looks again when nudged.
WATCH_SECONDS = 0.5


@asynccontextmanager
async def serving_process(url: str, thinker: HeldThinker, clock: FixedClock) -> AsyncIterator[Games]:
    """A process's use cases and its running scheduler, on a connection pool of its own."""
    engine = create_engine(url)
    store = SqlEventStore(engine, clock=clock)
    games = Games(store, clock, SecureIds(), people=SqlPeople(engine), bots=thinker, bot_load=BotLoad(1, clock.now))
    scheduler = Scheduler(SqlDeadlines(engine), games, clock, interval_seconds=0.05)
    games.on_bots_owed = scheduler.nudge
    try:
        async with scheduler.running():
            yield games
    finally:
        await engine.dispose()


async def test_a_persons_pick_on_another_process_starts_no_second_search(own_database_url: str) -> None:
    """The pick's append makes the game due at once (its bot still owes a move) while the first process's
    bot thinks: the other process, which made that append and was nudged by it, does not claim the game."""
    clock, thinker = FixedClock(), HeldThinker()
    async with AsyncExitStack() as processes:
        first = await processes.enter_async_context(serving_process(own_database_url, thinker, clock))
        created = await first.create(CreateGame("sushi-go", 2, None, 7, [NewSeat(name="Ann"), NewSeat(bot="greedy")]))
        async with asyncio.timeout(10):
            while not thinker.under_way:
                await asyncio.sleep(0.005)
        other = await processes.enter_async_context(serving_process(own_database_url, thinker, clock))
        # The first search's choice stands; the next turn's is made by either process.
        await pick_beside_the_held_search(thinker, other, created, watch=WATCH_SECONDS)
