"""The delivery worker every serving process runs: claims due webhook deliveries, POSTs them, records
each attempt, and schedules the next one after a failure.

Each webhook gets its deliveries in version order: only its oldest pending delivery is ever claimed,
so a failing one holds the later ones back until it is delivered or given up. A failure is retried
after an exponential backoff with full jitter (the `backoff` library's), for `RETRY_FOR` after the
delivery was queued; then it is given up (`failed`) and the next one goes. A worker wakes on each
append it hears of, and polls for retries that fall due.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import backoff

from kaiten.services.failures import RepeatedFailures
from kaiten.services.ports import (
    DELIVERIES_QUEUED,
    Clock,
    DeliveryAttempt,
    DueDelivery,
    StreamNotifier,
    WebhookSender,
    WebhookStore,
)
from kaiten.services.webhooks import body_signature, signature

log = logging.getLogger("kaiten.webhooks")

RETRY_FOR = timedelta(hours=24)
#: The first retry comes within this; each next one within twice the one before, up to the cap.
FIRST_RETRY_SECONDS = 1.0
MAX_RETRY_SECONDS = 3600.0
#: How long a claimed delivery stays with the worker that claimed it (well past a send's timeout):
#: one that died with it loses it then, and another sends it again.
LEASE = timedelta(seconds=30)
POLL_SECONDS = 0.5
BATCH = 20
#: Delivered and given-up deliveries are kept this long for `listWebhookDeliveries`, then forgotten
#: (looked for once every `PURGE_EVERY`, `PURGE_BATCH` at a time so no transaction grows large).
KEEP_FOR = timedelta(days=30)
PURGE_EVERY = timedelta(hours=1)
PURGE_BATCH = 1000


def retry_delay(failed_attempts: int, first: float = FIRST_RETRY_SECONDS, cap: float = MAX_RETRY_SECONDS) -> float:
    """Seconds before the next attempt after `failed_attempts` (≥ 1) failures: full jitter over an
    exponential `first * 2**(failed_attempts - 1)`, capped."""
    delays = backoff.expo(factor=first, max_value=cap)
    next(delays)  # the generator's priming step
    ceiling = next(itertools.islice(delays, failed_attempts - 1, None))
    return backoff.full_jitter(ceiling)


class DeliveryWorker:
    def __init__(
        self,
        webhooks: WebhookStore,
        sender: WebhookSender,
        clock: Clock,
        notifier: StreamNotifier | None = None,
        *,
        first_retry_seconds: float = FIRST_RETRY_SECONDS,
        poll_seconds: float = POLL_SECONDS,
        keep_for: timedelta = KEEP_FOR,
    ) -> None:
        self.webhooks = webhooks
        self.sender = sender
        self.clock = clock
        self.notifier = notifier
        self.first_retry_seconds = first_retry_seconds
        self.poll_seconds = poll_seconds
        self.keep_for = keep_for
        self._next_purge = clock.now()
        self._wake = asyncio.Event()

    async def deliver_due(self) -> int:
        """Claim and send what is due now, batch after batch; the number of attempts made."""
        made = 0
        while True:
            now = self.clock.now()
            claimed = await self.webhooks.claim(now, now + LEASE, BATCH)
            if not claimed:
                return made
            await asyncio.gather(*(self._attempt(delivery) for delivery in claimed))
            made += len(claimed)

    async def purge_finished(self) -> int:
        """Forget the deliveries finished more than `keep_for` ago; how many. Runs at most once every
        `PURGE_EVERY` (every process has a worker: one purge an hour each is plenty)."""
        now = self.clock.now()
        if now < self._next_purge:
            return 0
        self._next_purge = now + PURGE_EVERY
        forgotten = 0
        while (batch := await self.webhooks.purge(now - self.keep_for, PURGE_BATCH)) > 0:
            forgotten += batch
        if forgotten:
            log.info("forgot %d webhook deliveries finished before %s", forgotten, now - self.keep_for)
        return forgotten

    async def _attempt(self, delivery: DueDelivery) -> None:
        number = delivery.attempts + 1
        sent_at = self.clock.now()
        delivery_id = str(delivery.delivery_id)
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "kaiten-webhooks",
            "Kaiten-Signature": signature(delivery.secret, int(sent_at.timestamp()), delivery_id, delivery.body),
            "X-Kaiten-Signature": body_signature(delivery.secret, delivery.body),
            "X-Kaiten-Delivery": delivery_id,
            "X-Kaiten-Attempt": str(number),
        }
        result = await self.sender.send(delivery.url, delivery.body, headers)
        attempt = DeliveryAttempt(
            attempt=number,
            attempted_at=sent_at,
            status_code=result.status_code,
            latency_ms=result.latency_ms,
            error=result.error,
            answer=result.answer,
        )
        if result.status_code is not None and 200 <= result.status_code < 300:
            await self.webhooks.record(delivery.delivery_id, attempt, "delivered", None)
            return
        retry_at = self.clock.now() + timedelta(seconds=retry_delay(number, self.first_retry_seconds))
        if retry_at > delivery.created_at + RETRY_FOR:
            log.warning("webhook delivery %s given up after %d attempts", delivery.delivery_id, number)
            await self.webhooks.record(delivery.delivery_id, attempt, "failed", None)
        else:
            await self.webhooks.record(delivery.delivery_id, attempt, "pending", retry_at)

    async def run(self) -> None:
        """Deliver until cancelled; a failing round (database away) is logged and tried again."""
        failures = RepeatedFailures(log, "webhook deliveries")
        while True:
            try:
                await self.deliver_due()
                await self.purge_finished()
            except Exception as error:
                failures.failed(error)
            else:
                failures.succeeded()
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation that
            # comes as the wait ends, and the worker would then never stop.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll_seconds):
                    await self._wake.wait()
            self._wake.clear()

    async def _listen(self) -> None:
        assert self.notifier is not None
        async with self.notifier.subscribe_to(DELIVERIES_QUEUED.stream_id) as notices:
            async for _notice in notices:
                self._wake.set()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        tasks = [asyncio.create_task(self.run())]
        if self.notifier is not None:
            tasks.append(asyncio.create_task(self._listen()))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await self.sender.close()
