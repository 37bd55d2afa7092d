"""The webhook outbox in the database: written by appends, claimed one head per webhook, leased."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import msgspec
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.sql_store import SqlEventStore
from kaiten.adapters.webhook_store import SqlWebhookStore
from kaiten.services.ports import (
    ConcurrencyConflict,
    DeliveryAttempt,
    DueDelivery,
    NewEvent,
    OutboxMessage,
    WebhookRecord,
)
from tests.integration.test_event_store_contract import summary

LEASE = timedelta(seconds=30)


def event() -> NewEvent:
    # A type no projection reads: the PostgreSQL test database is the whole session's.
    return NewEvent(type="OutboxTestEvent", data=b'{"type":"OutboxTestEvent"}')


def message(event_name: str, version: int) -> OutboxMessage:
    return OutboxMessage(event=event_name, version=version, body=f'{{"version":{version}}}'.encode())


def attempt(number: int, status_code: int | None) -> DeliveryAttempt:
    return DeliveryAttempt(
        attempt=number,
        attempted_at=datetime.now(UTC),
        status_code=status_code,
        latency_ms=3,
        error=None if status_code else "no answer",
        answer=None,
    )


class OneWebhook:
    """The store's claims as one webhook sees them (other tests' webhooks share the database)."""

    def __init__(self, store: SqlWebhookStore, webhook_id: str) -> None:
        self.store, self.webhook_id = store, webhook_id
        self.record, self.deliveries = store.record, store.deliveries

    async def claim(self, now: datetime, until: datetime, limit: int) -> list[DueDelivery]:
        return [item for item in await self.store.claim(now, until, limit) if item.webhook_id == self.webhook_id]


async def a_game_with_a_webhook(events: SqlEventStore, store: SqlWebhookStore) -> tuple[str, WebhookRecord]:
    """A new game (one event) and a webhook of its seat 0 that hears of turns."""
    game = str(uuid.uuid4())
    await events.append(game, 0, [event()])
    hook = WebhookRecord(str(uuid.uuid4()), game, 0, "http://127.0.0.1/x", ["turn"], datetime.now(UTC))
    await store.add(hook, "secret-of-sixteen-chars")
    return game, hook


async def test_appends_queue_deliveries_that_are_claimed_in_order_one_at_a_time(engine: AsyncEngine) -> None:
    events, store = SqlEventStore(engine), SqlWebhookStore(engine)
    game, hook = await a_game_with_a_webhook(events, store)
    webhooks = OneWebhook(store, hook.webhook_id)
    # Only the moments it subscribed to, and only with the events that were appended.
    await events.append(game, 1, [event()], outbox=[message("turn", 2)])
    await events.append(game, 2, [event()], outbox=[message("finished", 3)])
    await events.append(game, 3, [event()], outbox=[message("turn", 4)])
    now = datetime.now(UTC)
    (first,) = await webhooks.claim(now, now + LEASE, 1000)
    assert (first.body, first.url, first.secret) == (b'{"version":2}', hook.url, "secret-of-sixteen-chars")
    # Claimed: leased to its worker; and the next waits for it.
    assert await webhooks.claim(now, now + LEASE, 1000) == []
    # A worker that died with it loses it when the lease runs out: another sends it again.
    (again,) = await webhooks.claim(now + LEASE, now + 2 * LEASE, 1000)
    assert again.delivery_id == first.delivery_id
    await webhooks.record(first.delivery_id, attempt(1, 500), "pending", now + timedelta(seconds=5))
    assert await webhooks.claim(now + timedelta(seconds=1), now + LEASE, 1000) == []
    (retried,) = await webhooks.claim(now + timedelta(seconds=5), now + LEASE, 1000)
    assert retried.delivery_id == first.delivery_id and retried.attempts == 1
    await webhooks.record(first.delivery_id, attempt(2, 200), "delivered", None)
    (second,) = await webhooks.claim(now, now + LEASE, 1000)
    assert second.body == b'{"version":4}'
    shown = await webhooks.deliveries(hook.webhook_id, 0, 10)
    assert [(item.version, item.status) for item in shown] == [(2, "delivered"), (4, "pending")]
    assert [a.status_code for a in shown[0].attempts] == [500, 200]


async def test_one_append_keeps_the_summary_its_deadline_and_its_outbox(engine: AsyncEngine) -> None:
    events, webhooks = SqlEventStore(engine), SqlWebhookStore(engine)
    game, hook = await a_game_with_a_webhook(events, webhooks)
    due = datetime(2099, 1, 1, tzinfo=UTC)
    await events.append(game, 1, [event()], summary(game, 2, wake_at=due), outbox=[message("turn", 2)])
    assert (await events.summary(game)).wake_at == due  # type: ignore[union-attr]
    assert [item.version for item in await webhooks.deliveries(hook.webhook_id, 0, 10)] == [2]
    await webhooks.remove(hook.webhook_id)
    # No deadline left behind in the session's database.
    await events.append(game, 2, [event()], summary(game, 3, wake_at=None))


async def test_a_refused_append_queues_nothing(engine: AsyncEngine) -> None:
    events, webhooks = SqlEventStore(engine), SqlWebhookStore(engine)
    game, hook = await a_game_with_a_webhook(events, webhooks)
    with pytest.raises(ConcurrencyConflict):
        await events.append(game, 0, [event()], outbox=[message("turn", 1)])
    assert await webhooks.deliveries(hook.webhook_id, 0, 10) == []
    await webhooks.remove(hook.webhook_id)
    assert await webhooks.get(hook.webhook_id) is None


async def test_finished_deliveries_are_forgotten_once_kept_long_enough(engine: AsyncEngine) -> None:
    events, store = SqlEventStore(engine), SqlWebhookStore(engine)
    game, hook = await a_game_with_a_webhook(events, store)
    webhooks = OneWebhook(store, hook.webhook_id)
    for version in range(1, 5):
        await events.append(game, version, [event()], outbox=[message("turn", version + 1)])
    # Finished long ago (so no other test's deliveries in a shared database are as old): delivered,
    # given up, delivered; the fourth still pending.
    long_ago = datetime(2001, 1, 1, tzinfo=UTC)
    for number, (status_code, status) in enumerate([(200, "delivered"), (None, "failed"), (200, "delivered")]):
        (due,) = await webhooks.claim(datetime.now(UTC), datetime.now(UTC) + LEASE, 1000)
        finished = msgspec.structs.replace(attempt(1, status_code), attempted_at=long_ago + timedelta(days=number))
        await store.record(due.delivery_id, finished, status, None)
    assert await store.purge(long_ago, 1000) == 0, "nothing finished before then"
    assert await store.purge(long_ago + timedelta(days=1, hours=1), 1) == 1
    assert await store.purge(long_ago + timedelta(days=1, hours=1), 1000) == 1
    left = await store.deliveries(hook.webhook_id, 0, 10)
    assert [(item.version, item.status) for item in left] == [(4, "delivered"), (5, "pending")]
    assert [a.status_code for a in left[0].attempts] == [200]
    await store.remove(hook.webhook_id)
