"""Webhooks and their outbox in the database (the appends write the deliveries: adapters/sql_statements.py).

Any serving process claims due deliveries: on PostgreSQL the claim locks the rows it takes with
`FOR UPDATE SKIP LOCKED`, so two workers never take the same one, and marks them claimed for a while
(the lease) so that nobody takes them while they are being sent; a worker that dies loses its lease
when it runs out, and the delivery is sent again by another (at least once). SQLite has one process.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import for_writes
from kaiten.adapters.schema import webhook_attempts, webhook_deliveries, webhook_events, webhooks
from kaiten.services.ports import DeliveryAttempt, DeliveryRecord, DueDelivery, WebhookRecord

_deliveries = webhook_deliveries.alias("deliveries")
_earlier = webhook_deliveries.alias("earlier")


def _claim_statement() -> sa.Update:
    # The oldest pending delivery of each webhook only: a webhook hears of a game in version order.
    head = ~sa.exists().where(
        _earlier.c.webhook_id == _deliveries.c.webhook_id,
        _earlier.c.status == "pending",
        _earlier.c.version < _deliveries.c.version,
    )
    due = (
        sa.select(_deliveries.c.delivery_id)
        .where(
            _deliveries.c.status == "pending",
            _deliveries.c.next_attempt_at <= sa.bindparam("now"),
            sa.or_(_deliveries.c.claimed_until.is_(None), _deliveries.c.claimed_until <= sa.bindparam("now")),
            head,
        )
        .order_by(_deliveries.c.next_attempt_at)
        .limit(sa.bindparam("limit"))
        .with_for_update(skip_locked=True)
    )
    return (
        sa.update(webhook_deliveries)
        .where(webhook_deliveries.c.delivery_id.in_(due.scalar_subquery()))
        .values(claimed_until=sa.bindparam("until"))
        .returning(
            webhook_deliveries.c.delivery_id,
            webhook_deliveries.c.webhook_id,
            webhook_deliveries.c.body,
            webhook_deliveries.c.attempts,
            webhook_deliveries.c.created_at,
        )
    )


class SqlWebhookStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._writer = for_writes(engine)
        self._claim = _claim_statement()

    async def add(self, webhook: WebhookRecord, secret: str) -> None:
        async with self._writer.begin() as connection:
            await connection.execute(
                sa.insert(webhooks).values(
                    webhook_id=webhook.webhook_id,
                    game_id=webhook.game_id,
                    seat=webhook.seat,
                    url=webhook.url,
                    secret=secret,
                    created_at=webhook.created_at,
                )
            )
            await connection.execute(
                sa.insert(webhook_events),
                [
                    {"game_id": webhook.game_id, "event": event, "webhook_id": webhook.webhook_id}
                    for event in webhook.events
                ],
            )

    async def get(self, webhook_id: str) -> WebhookRecord | None:
        found = await self._records(webhooks.c.webhook_id == webhook_id)
        return found[0] if found else None

    async def of_seat(self, game_id: str, seat: int | None) -> list[WebhookRecord]:
        registrant = webhooks.c.seat.is_(None) if seat is None else webhooks.c.seat == seat
        return await self._records(webhooks.c.game_id == game_id, registrant)

    async def _records(self, *where: sa.ColumnElement[bool]) -> list[WebhookRecord]:
        """The webhooks that match, oldest first, each with the events it hears of."""
        query = sa.select(webhooks).where(*where).order_by(webhooks.c.created_at, webhooks.c.webhook_id)
        async with self._engine.connect() as connection:
            rows = (await connection.execute(query)).all()
            ids = [row.webhook_id for row in rows]
            subscribed = sa.select(webhook_events.c.webhook_id, webhook_events.c.event).where(
                webhook_events.c.webhook_id.in_(ids)
            )
            events: dict[str, list[str]] = {}
            for webhook_id, event in (await connection.execute(subscribed)).all():
                events.setdefault(webhook_id, []).append(event)
        return [
            WebhookRecord(
                webhook_id=row.webhook_id,
                game_id=row.game_id,
                seat=row.seat,
                url=row.url,
                events=sorted(events.get(row.webhook_id, [])),
                created_at=row.created_at,
            )
            for row in rows
        ]

    async def remove(self, webhook_id: str) -> None:
        async with self._writer.begin() as connection:
            deliveries = sa.select(webhook_deliveries.c.delivery_id).where(
                webhook_deliveries.c.webhook_id == webhook_id
            )
            await connection.execute(sa.delete(webhook_attempts).where(webhook_attempts.c.delivery_id.in_(deliveries)))
            for table in (webhook_deliveries, webhook_events, webhooks):
                await connection.execute(sa.delete(table).where(table.c.webhook_id == webhook_id))

    async def deliveries(self, webhook_id: str, after: int, limit: int) -> list[DeliveryRecord]:
        query = (
            sa.select(webhook_deliveries)
            .where(webhook_deliveries.c.webhook_id == webhook_id, webhook_deliveries.c.version > after)
            .order_by(webhook_deliveries.c.version)
            .limit(limit)
        )
        async with self._engine.connect() as connection:
            rows = (await connection.execute(query)).all()
            ids = [row.delivery_id for row in rows]
            attempts_query = (
                sa.select(webhook_attempts)
                .where(webhook_attempts.c.delivery_id.in_(ids))
                .order_by(webhook_attempts.c.delivery_id, webhook_attempts.c.attempt)
            )
            attempts: dict[int, list[DeliveryAttempt]] = {}
            for attempt in (await connection.execute(attempts_query)).all():
                attempts.setdefault(attempt.delivery_id, []).append(
                    DeliveryAttempt(
                        attempt=attempt.attempt,
                        attempted_at=attempt.attempted_at,
                        status_code=attempt.status_code,
                        latency_ms=attempt.latency_ms,
                        error=attempt.error,
                        answer=attempt.answer,
                    )
                )
        return [
            DeliveryRecord(
                delivery_id=row.delivery_id,
                version=row.version,
                event=row.event,
                status=row.status,
                attempts=attempts.get(row.delivery_id, []),
                created_at=row.created_at,
                next_attempt_at=row.next_attempt_at if row.status == "pending" else None,
                finished_at=row.finished_at,
            )
            for row in rows
        ]

    async def claim(self, now: datetime, until: datetime, limit: int) -> list[DueDelivery]:
        async with self._writer.begin() as connection:
            claimed = (await connection.execute(self._claim, {"now": now, "until": until, "limit": limit})).all()
            hook_ids = {row.webhook_id for row in claimed}
            targets = {
                row.webhook_id: (row.url, row.secret)
                for row in await connection.execute(
                    sa.select(webhooks.c.webhook_id, webhooks.c.url, webhooks.c.secret).where(
                        webhooks.c.webhook_id.in_(hook_ids)
                    )
                )
            }
        return [
            DueDelivery(
                delivery_id=row.delivery_id,
                webhook_id=row.webhook_id,
                url=targets[row.webhook_id][0],
                secret=targets[row.webhook_id][1],
                body=row.body.encode(),
                attempts=row.attempts,
                created_at=row.created_at,
            )
            for row in claimed
            if row.webhook_id in targets
        ]

    async def record(
        self, delivery_id: int, attempt: DeliveryAttempt, status: str, next_attempt_at: datetime | None
    ) -> None:
        finished = None if status == "pending" else attempt.attempted_at
        changes: dict[str, object] = {
            "status": status,
            "attempts": attempt.attempt,
            "claimed_until": None,
            "finished_at": finished,
        }
        if next_attempt_at is not None:
            changes["next_attempt_at"] = next_attempt_at
        update = sa.update(webhook_deliveries).where(webhook_deliveries.c.delivery_id == delivery_id).values(**changes)
        async with self._writer.begin() as connection:
            # A delivery whose webhook was removed while it was being sent is gone: nothing to keep.
            if (await connection.execute(update.returning(webhook_deliveries.c.delivery_id))).first() is None:
                return
            await connection.execute(
                sa.insert(webhook_attempts).values(delivery_id=delivery_id, **_attempt_columns(attempt))
            )

    async def purge(self, finished_before: datetime, limit: int) -> int:
        done = (
            sa.select(webhook_deliveries.c.delivery_id)
            .where(webhook_deliveries.c.status != "pending", webhook_deliveries.c.finished_at < finished_before)
            .limit(limit)
        )
        async with self._writer.begin() as connection:
            ids = list((await connection.execute(done)).scalars())
            if ids:
                await connection.execute(sa.delete(webhook_attempts).where(webhook_attempts.c.delivery_id.in_(ids)))
                await connection.execute(sa.delete(webhook_deliveries).where(webhook_deliveries.c.delivery_id.in_(ids)))
        return len(ids)


def _attempt_columns(attempt: DeliveryAttempt) -> dict[str, object]:
    return {
        "attempt": attempt.attempt,
        "attempted_at": attempt.attempted_at,
        "status_code": attempt.status_code,
        "latency_ms": attempt.latency_ms,
        "error": attempt.error,
        "answer": attempt.answer,
    }
