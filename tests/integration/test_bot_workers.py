"""Bots think in worker processes (adapters/bot_workers.py): a worker that dies costs one attempt of
a move, which the scheduler makes again, and the pool is whole again for the next."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
import weakref
from collections.abc import AsyncIterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from kaiten.adapters.bot_workers import WORKER_NICENESS, ProcessThinker, RequestsInFlight, lower_priority
from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.domain.sushi_go.game import SUSHI_GO
from kaiten.services.commands import CreateGame, GetTable, NewSeat
from kaiten.services.errors import ServiceError
from kaiten.services.games import Games
from tests.unit.bot_games import new_table


@pytest.fixture
async def games() -> AsyncIterator[Games]:
    thinker = ProcessThinker(1)
    try:
        yield Games(InMemoryEventStore(), SystemClock(), SecureIds(), people=InMemoryPeople(), bots=thinker)
    finally:
        await thinker.close()


async def test_a_killed_worker_fails_one_attempt_and_the_move_is_made_on_the_next(games: Games) -> None:
    created = await games.create(CreateGame("sushi-go", 2, None, 5, [NewSeat(bot="greedy"), NewSeat(bot="random")]))
    assert (await games.wake(created.id)).fired
    version = (await games.view(GetTable(created.id))).version

    workers = multiprocessing.active_children()
    assert workers, "the bots thought in a worker process"
    for worker in workers:
        assert worker.pid is not None
        os.kill(worker.pid, signal.SIGKILL)
    with pytest.raises(ServiceError) as lost:
        await games.wake(created.id)
    assert (lost.value.kind, lost.value.code) == ("unavailable", "bot-worker-lost")
    assert (await games.view(GetTable(created.id))).version == version, "nothing was appended"

    assert (await games.wake(created.id)).fired, "a new worker made the move"
    assert (await games.view(GetTable(created.id))).version > version


async def test_workers_think_at_a_lower_cpu_priority_than_their_server(games: Games) -> None:
    """Busy workers must not take the cores from the server's requests (bench/bots.py measures it)."""
    created = await games.create(CreateGame("sushi-go", 2, None, 5, [NewSeat(bot="greedy"), NewSeat(bot="random")]))
    assert (await games.wake(created.id)).fired, "a worker made a move, so it has started"

    assert os.sched_getscheduler(0) == os.SCHED_OTHER
    workers = [worker.pid for worker in multiprocessing.active_children() if worker.pid is not None]
    assert workers
    assert {os.sched_getscheduler(pid) for pid in workers} == {os.SCHED_IDLE}


def priority_without_an_idle_class(answer: Any) -> None:
    """In a forked child: `lower_priority` where `os` has no idle scheduling class (as on macOS)."""
    del os.SCHED_IDLE
    lower_priority()
    answer.put((os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0)))


def test_without_an_idle_class_a_worker_runs_at_a_lower_niceness() -> None:
    context = multiprocessing.get_context("fork")
    answer = context.Queue()
    child = context.Process(target=priority_without_an_idle_class, args=(answer,))
    child.start()
    policy, niceness = answer.get(timeout=30)
    child.join(30)
    assert policy == os.SCHED_OTHER
    assert niceness == min(19, os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICENESS)


def touch_then_sleep(path: str, seconds: float) -> None:
    """A long move: it says it has begun (a file), then thinks for `seconds`."""
    Path(path).touch()
    time.sleep(seconds)


async def thinking_for_a_minute(tmp_path: Path) -> tuple[ProcessThinker, asyncio.Future[None]]:
    """A pool of one worker that has begun a minute-long move, and that move."""
    thinker = ProcessThinker(1)
    begun = tmp_path / "begun"
    running = asyncio.get_running_loop().run_in_executor(thinker._pool, touch_then_sleep, str(begun), 60)
    async with asyncio.timeout(30):
        while not begun.exists():
            await asyncio.sleep(0.05)
    return thinker, running


async def test_closing_ends_a_worker_in_the_middle_of_a_move_at_once(tmp_path: Path) -> None:
    """A stopping server does not wait out a search (or a worker still starting): the move is made
    again by whichever server claims the game next."""
    thinker, running = await thinking_for_a_minute(tmp_path)
    workers = multiprocessing.active_children()
    assert workers
    await asyncio.wait_for(thinker.close(), timeout=20)
    assert not any(worker.is_alive() for worker in workers)
    with pytest.raises(BrokenProcessPool):
        await running


async def test_closing_frees_the_pools_queues_before_it_returns(tmp_path: Path) -> None:
    """The pool's queues hold its semaphores until they are freed: a server that dies of its stop
    signal right after closing (uvicorn raises it again) must not leave them to the resource tracker,
    which warned on the server's log."""
    thinker, running = await thinking_for_a_minute(tmp_path)
    queues = [weakref.ref(thinker._pool._call_queue), weakref.ref(thinker._pool._result_queue)]
    await asyncio.wait_for(thinker.close(), timeout=20)
    assert [queue() for queue in queues] == [None, None], "a queue, and its semaphores, outlived close()"
    with pytest.raises(BrokenProcessPool):
        await running


async def test_a_move_cut_short_by_closing_starts_no_workers_again() -> None:
    """A bot's move under way when its server stops is lost with its worker, and no new pool is made
    for it: workers spawned while the server exits found the pool's semaphores gone and wrote
    tracebacks on the server's log (FileNotFoundError in `SemLock._rebuild`)."""
    thinker = ProcessThinker(1)
    table, events = new_table(SUSHI_GO, 5, ["mcts:strong", "mcts:strong"])
    await thinker.choose("sushi-go", table, 0, len(events))  # the worker has started
    choosing = asyncio.ensure_future(thinker.choose("sushi-go", table, 0, len(events)))
    await asyncio.sleep(0.2)  # the search is under way: mcts:strong thinks for longer
    assert not choosing.done()
    await asyncio.wait_for(thinker.close(), timeout=20)
    with pytest.raises(ServiceError) as lost:
        await choosing
    assert lost.value.code == "bot-worker-lost"
    assert multiprocessing.active_children() == [], "closing started workers again"
    with pytest.raises(ServiceError) as closed:
        await thinker.choose("sushi-go", table, 0, len(events))
    assert (closed.value.kind, closed.value.code) == ("unavailable", "bot-workers-closed")
    assert multiprocessing.active_children() == []


async def test_a_workers_search_pauses_while_its_server_answers_a_request() -> None:
    in_flight = RequestsInFlight()
    thinker = ProcessThinker(1, in_flight)
    table, events = new_table(SUSHI_GO, 5, ["mcts", "mcts"])
    try:
        await thinker.choose("sushi-go", table, 0, len(events))  # the worker has started
        in_flight.started()  # a request whose answer never starts
        started = time.monotonic()
        held = await thinker.choose("sushi-go", table, 0, len(events))
        elapsed = time.monotonic() - started
        in_flight.answered()
    finally:
        await thinker.close()
    # Paused about as long as it thought, never longer: twice its CPU time, give or take an iteration.
    assert elapsed >= 1.6 * held.cpu_seconds > 0
