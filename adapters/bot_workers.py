"""Bots think in worker processes: a search such as `mcts:strong` is seconds of CPU, which in the
serving process would hold the event loop and every request behind it (services/bot_moves.py).

A pool of `workers` processes (KAITEN_BOT_WORKERS, by default one per core) started with `spawn`: a
forked copy of a serving process would inherit its event loop, its database connections and the
threads behind them. A table goes to a worker and a command comes back, pickled (msgspec structs).
A worker that dies (killed, out of memory) breaks the pool: it is replaced, and the move is made
again later (the scheduler's claim on the game runs out).

A search also pauses between its iterations while its server answers a request that writes, such
as a person's command (`RequestsInFlight`, `PauseForRequests`). Beside a search on the other core,
a person's command took 13% longer at the median (6 to 23% in seven runs) than beside an idle
worker, though a worker yields its core at once: the two share the machine's caches
(bench/README.md, "A search that pauses for requests").
"""

from __future__ import annotations

import asyncio
import ctypes
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, cast

from kaiten.domain import mcts
from kaiten.domain.lobby import Table
from kaiten.services.bot_moves import BotChoice, think
from kaiten.services.errors import ServiceError

#: How often a worker looks whether its server is still there.
PARENT_CHECK_SECONDS = 1.0
#: How much lower a worker's CPU priority is than its server's where there is no idle scheduling class
#: (`lower_priority`).
WORKER_NICENESS = 10
#: How long a stopping server waits for the pool's manager thread once its workers are gone.
MANAGER_STOP_SECONDS = 5.0


#: The longest one pause lasts, and the most a search may pause beyond what it has thought lately:
#: under requests without end, a bot thinks at half speed at worst rather than stop.
PAUSE_CREDIT_SECONDS = 0.02
#: How often a paused search looks whether the answers have started.
PAUSE_STEP_SECONDS = 0.0005


class Counter(Protocol):
    value: int


class RequestsInFlight:
    """How many requests that write this serving process is answering, until each answer starts,
    counted by the request log (api/request_log.py) in memory the process's bot workers read."""

    def __init__(self) -> None:
        # One writer, the serving process's event loop, and readers that only look: no lock.
        # typeshed types the value as the ctypes object; it reads and writes an int.
        self.shared = cast(Counter, multiprocessing.get_context("spawn").Value(ctypes.c_int, 0, lock=False))

    def started(self) -> None:
        self.shared.value += 1

    def answered(self) -> None:
        self.shared.value -= 1


class PauseForRequests:
    """Between a search's iterations: wait while requests are in flight, for as long as the credit
    lasts. Thinking earns credit (CPU seconds, up to `PAUSE_CREDIT_SECONDS`) and pausing spends it,
    so a bot pauses at most as long as it thinks."""

    def __init__(
        self,
        in_flight: Counter,
        thought: Callable[[], float] = time.thread_time,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._in_flight = in_flight
        self._thought, self._now, self._sleep = thought, now, sleep
        self._credit = 0.0
        self._last_thought = thought()

    def __call__(self) -> None:
        thought = self._thought()
        self._credit = min(PAUSE_CREDIT_SECONDS, self._credit + thought - self._last_thought)
        self._last_thought = thought
        if self._in_flight.value <= 0 or self._credit <= 0:
            return
        started = self._now()
        until = started + self._credit
        while self._in_flight.value > 0 and self._now() < until:
            self._sleep(PAUSE_STEP_SECONDS)
        self._credit -= self._now() - started


class ProcessThinker:
    def __init__(self, workers: int, in_flight: RequestsInFlight | None = None) -> None:
        self.workers = workers
        self._in_flight = in_flight
        self._closed = False
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(os.getpid(), None if self._in_flight is None else self._in_flight.shared),
        )
        # Started now rather than at the first bot's move: a spawned worker imports the server's code
        # first, seconds on a busy machine, which a bot's first move (or a turn clock) should not wait.
        for _ in range(self.workers):
            pool.submit(os.getpid)
        return pool

    async def choose(self, game_id: str, table: Table[Any], seat: int, version: int) -> BotChoice:
        if self._closed:
            raise ServiceError("unavailable", "bot-workers-closed", "the server is stopping; its bots think no more")
        pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, think, game_id, table, seat, version)
        except BrokenProcessPool:
            # A pool closed under a move stays closed: workers spawned as the server exits would find
            # its semaphores gone (tracebacks on the server's log) and outlive it by their start.
            if self._pool is pool and not self._closed:
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new_pool()
            raise ServiceError(
                "unavailable", "bot-worker-lost", "a bot's worker died; its move is made again"
            ) from None

    async def close(self) -> None:
        self._closed = True
        await asyncio.to_thread(_stop, self._pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    """End the workers rather than wait for them: a search under way, or a worker still importing the
    server's code, held a stopping server for seconds (past granian's kill timeout on a busy machine,
    which then left the pool's semaphores behind). A move cut short is made again by whichever server
    next claims the game. (Python 3.14's `terminate_workers()` does the same.)

    Then the pool's manager thread is waited for: it holds the pool's queues, whose five semaphores are
    given back only once they are freed. A server that then died of the signal it stopped on (uvicorn
    raises it again) before that thread ended left them to the resource tracker, which warned on the
    server's log."""
    workers = list(pool._processes.values())
    # typeshed gives the attribute the wakeup's type; it is the pool's manager thread.
    manager = cast(threading.Thread | None, pool._executor_manager_thread)
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join()
    if manager is not None:
        # With every worker gone it ends at once (a broken pool); the bound is for a stuck feeder pipe.
        manager.join(MANAGER_STOP_SECONDS)


def _start_worker(parent: int, in_flight: Counter | None) -> None:
    lower_priority()
    _end_with_parent(parent)
    if in_flight is not None:
        mcts.between_iterations(PauseForRequests(in_flight))


def lower_priority() -> None:
    """Busy workers would otherwise take every core from the server: a request then waits behind a
    search's time slice (a table read's p99 tripled beside 8 `mcts:strong` games). On Linux a worker
    runs in the idle scheduling class: it gets a core only when no other task wants it, and every
    cycle the server leaves idle. A niceness of 10, as before, still gave it a tenth of a core the
    server wanted: beside a thinking `mcts:strong` bot a person's command took 8.4-9.1 ms at the
    median, 5.2-6.7 ms in the idle class (bench/bots.py, four runs each). Elsewhere (macOS) it runs at
    `WORKER_NICENESS`. On a machine whose every core is busy with other work the workers wait: a
    move that waits past the scheduler's lease is claimed again, and made once (the append's
    version guard)."""
    if hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    else:
        os.nice(WORKER_NICENESS)


def _end_with_parent(parent: int) -> None:
    """A worker ends when its server does, however it ended: a killed server's workers would otherwise
    wait for work forever (each holds the pool's queue open, so none of them sees it close)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="kaiten-bot-parent", daemon=True).start()
