"""Handing append notices to many subscribers in one process, each through a bounded queue of its own.

A subscriber that does not keep up (an SSE client reading slowly) must neither hold up the others nor
make its queue grow without bound: when its queue is full, what it holds is replaced by one RESYNC
notice, which tells it to read everything it follows again. The notifiers (adapters/notify.py) feed a
Fanout; everything here runs on one event loop.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from kaiten.services.ports import RESYNC, AppendNotice

#: Notices queued for one subscriber before it is told to resync instead. A subscriber normally takes
#: each notice as soon as it arrives; the bound only matters for one that is stuck.
DEFAULT_CAPACITY = 100


class Subscription:
    """One subscriber's queue of notices, read with `async for`; it ends when the subscription closes."""

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be >= 1, not {capacity}")
        self._capacity = capacity
        self._pending: deque[AppendNotice] = deque()
        self._wakeup = asyncio.Event()
        self._closed = False

    def offer(self, notice: AppendNotice) -> None:
        """Queue a notice without waiting: never blocks the notifier, whatever the subscriber does."""
        if self._closed:
            return
        if notice == RESYNC or len(self._pending) >= self._capacity:
            # RESYNC stands for every notice before it, so those are dropped: the queue stays bounded.
            self._pending.clear()
            notice = RESYNC
        self._pending.append(notice)
        self._wakeup.set()

    def close(self) -> None:
        self._closed = True
        self._wakeup.set()

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> AppendNotice:
        # Safe to cancel while waiting (a timeout around it): a notice leaves the queue only when returned.
        while not self._closed and not self._pending:
            self._wakeup.clear()
            await self._wakeup.wait()
        if self._closed:
            raise StopAsyncIteration
        return self._pending.popleft()


class Fanout:
    """The subscriptions of one process, to every stream or to one stream each."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self._capacity = capacity
        self._to_all: set[Subscription] = set()
        self._by_stream: dict[str, set[Subscription]] = {}

    def deliver(self, notice: AppendNotice) -> None:
        for subscription in self._to_all:
            subscription.offer(notice)
        if notice == RESYNC:
            for subscriptions in self._by_stream.values():
                for subscription in subscriptions:
                    subscription.offer(notice)
        else:
            for subscription in self._by_stream.get(notice.stream_id, ()):
                subscription.offer(notice)

    @asynccontextmanager
    async def subscribe(self, stream_id: str | None = None) -> AsyncIterator[Subscription]:
        """Notices delivered from now until the block exits: of every stream, or of `stream_id` only."""
        subscription = Subscription(self._capacity)
        subscribers = self._to_all if stream_id is None else self._by_stream.setdefault(stream_id, set())
        subscribers.add(subscription)
        try:
            yield subscription
        finally:
            subscription.close()
            subscribers.discard(subscription)
            if stream_id is not None and not subscribers:
                self._by_stream.pop(stream_id, None)

    def close_all(self) -> None:
        """End every subscription's iteration (the notifier stops); their blocks still unsubscribe them."""
        for subscription in self._to_all:
            subscription.close()
        for subscriptions in self._by_stream.values():
            for subscription in subscriptions:
                subscription.close()

    @property
    def subscribers(self) -> int:
        return len(self._to_all) + sum(len(subscriptions) for subscriptions in self._by_stream.values())
