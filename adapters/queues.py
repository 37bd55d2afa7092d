"""The matchmaking queues' rows (services/matchmaking.py), on PostgreSQL and SQLite.

Matching a queue is one transaction that first takes its row's lock (`FOR UPDATE SKIP LOCKED` on
PostgreSQL: a process finding the queue locked leaves it to the one matching it), reads its waiting
entries, and writes its games with their entries `matched` (each only if it still waits). On SQLite
the transaction begins IMMEDIATE (adapters/database.py `for_writes`): it holds the database's one
write lock from its first read, so matchings, joins and leaves happen one after another. Either way a
waiting entry is matched once, and a leave that commits first keeps it out of every game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import for_reads, for_writes, insert_for
from kaiten.adapters.deadlines import claiming
from kaiten.adapters.schema import queue_entries, queue_matches, queues
from kaiten.services.ports import AlreadyQueued, QueueEntryRecord, QueueMatchRecord, QueuePlan

ENTRY_FIELDS = tuple(field for field in QueueEntryRecord.__struct_fields__)


def _entry(row: Any) -> QueueEntryRecord:
    return QueueEntryRecord(**{name: getattr(row, name) for name in ENTRY_FIELDS})


def _match(row: Any) -> QueueMatchRecord:
    return QueueMatchRecord(
        game_id=row.game_id,
        app_id=row.app_id,
        game=row.game,
        options=row.options,
        players=row.players,
        bots=tuple(msgspec.json.decode(row.bots, type=list[str])),
        created_at=row.created_at,
        created=row.due_at is None,
    )


class _NoLongerWaiting(Exception):
    pass


class SqlQueueStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = for_writes(engine)
        self._reader = for_reads(engine)
        self._dialect = engine.dialect.name
        self._claim = claiming(queue_matches.c.game_id, queue_matches.c.due_at)

    async def join(self, entry: QueueEntryRecord, options: str) -> QueueEntryRecord:
        upsert = (
            insert_for(self._dialect, queues)
            .values(
                app_id=entry.app_id, queue_key=entry.queue_key, game=entry.game, options=options, due_at=entry.joined_at
            )
            .on_conflict_do_update(
                index_elements=[queues.c.app_id, queues.c.queue_key], set_={"due_at": entry.joined_at}
            )
        )
        try:
            async with self._engine.begin() as connection:
                if (before := await self._joined_before(connection, entry)) is not None:
                    return before
                await connection.execute(sa.insert(queue_entries).values(msgspec.structs.asdict(entry)))
                # After the entry: a matching that holds the queue's lock now did not see it, and the
                # queue is due again once it commits.
                await connection.execute(upsert)
        except IntegrityError:
            # The same key sent at once by two requests: one of them kept the entry.
            async with self._reader.connect() as connection:
                if (before := await self._joined_before(connection, entry)) is not None:
                    return before
            raise AlreadyQueued() from None
        return entry

    async def _joined_before(self, connection: Any, entry: QueueEntryRecord) -> QueueEntryRecord | None:
        if entry.idempotency_key is None:
            return None
        query = sa.select(queue_entries).where(
            queue_entries.c.app_id == entry.app_id, queue_entries.c.idempotency_key == entry.idempotency_key
        )
        row = (await connection.execute(query)).first()
        return None if row is None else _entry(row)

    async def entry(self, app_id: str, entry_id: str) -> QueueEntryRecord | None:
        query = sa.select(queue_entries).where(queue_entries.c.entry_id == entry_id, queue_entries.c.app_id == app_id)
        async with self._reader.connect() as connection:
            row = (await connection.execute(query)).first()
        return None if row is None else _entry(row)

    async def shown(self, app_id: str, entry_id: str) -> tuple[QueueEntryRecord, str, bool] | None:
        pending = queue_matches.c.due_at.is_not(None).label("pending")
        query = (
            sa.select(queue_entries, queues.c.options, pending)
            .join(
                queues,
                sa.and_(queues.c.app_id == queue_entries.c.app_id, queues.c.queue_key == queue_entries.c.queue_key),
            )
            .outerjoin(queue_matches, queue_matches.c.game_id == queue_entries.c.game_id)
            .where(queue_entries.c.entry_id == entry_id, queue_entries.c.app_id == app_id)
        )
        async with self._reader.connect() as connection:
            row = (await connection.execute(query)).first()
        return None if row is None else (_entry(row), row.options, bool(row.pending))

    async def leave(self, app_id: str, entry_id: str) -> QueueEntryRecord | None:
        mine = sa.and_(queue_entries.c.entry_id == entry_id, queue_entries.c.app_id == app_id)
        async with self._engine.begin() as connection:
            await connection.execute(
                sa.update(queue_entries).where(mine, queue_entries.c.status == "waiting").values(status="left")
            )
            row = (await connection.execute(sa.select(queue_entries).where(mine))).first()
        return None if row is None else _entry(row)

    async def due_queues(self, now: datetime, limit: int) -> list[tuple[str, str]]:
        query = (
            sa.select(queues.c.app_id, queues.c.queue_key)
            .where(queues.c.due_at <= now)
            .order_by(queues.c.due_at)
            .limit(limit)
        )
        async with self._reader.connect() as connection:
            return [(app_id, key) for app_id, key in await connection.execute(query)]

    async def match(
        self,
        app_id: str,
        queue_key: str,
        now: datetime,
        lease: timedelta,
        plan: Callable[[Sequence[QueueEntryRecord]], QueuePlan],
    ) -> list[QueueMatchRecord] | None:
        this_queue = sa.and_(queues.c.app_id == app_id, queues.c.queue_key == queue_key)
        lock = sa.select(queues.c.options).where(this_queue).with_for_update(skip_locked=True)
        waiting = (
            sa.select(queue_entries)
            .where(
                queue_entries.c.app_id == app_id,
                queue_entries.c.queue_key == queue_key,
                queue_entries.c.status == "waiting",
            )
            .order_by(queue_entries.c.joined_at, queue_entries.c.entry_id)
            # A leave in flight commits first, and is seen; one that comes later waits and finds the
            # entry matched.
            .with_for_update()
        )
        try:
            return await self._match(app_id, queue_key, now, lease, plan, lock, waiting, this_queue)
        except _NoLongerWaiting:
            return None

    async def _match(
        self,
        app_id: str,
        queue_key: str,
        now: datetime,
        lease: timedelta,
        plan: Callable[[Sequence[QueueEntryRecord]], QueuePlan],
        lock: sa.Select[Any],
        waiting: sa.Select[Any],
        this_queue: sa.ColumnElement[bool],
    ) -> list[QueueMatchRecord] | None:
        async with self._engine.begin() as connection:
            queue = (await connection.execute(lock)).first()
            if queue is None:
                return None  # another process is matching it (or there is no such queue)
            entries = [_entry(row) for row in await connection.execute(waiting)]
            decided = plan(entries)
            formed = []
            for match, seats in decided.matches:
                for seat in seats:
                    matched = await connection.execute(
                        sa.update(queue_entries)
                        .where(queue_entries.c.entry_id == seat.entry_id, queue_entries.c.status == "waiting")
                        .values(status="matched", game_id=match.game_id, seat=seat.seat, seat_token=seat.token)
                    )
                    # Under the queue's and the entries' locks nothing else changed them: never seen,
                    # but if it were, nothing of this matching is kept (the queue stays due).
                    if matched.rowcount != 1:
                        raise _NoLongerWaiting()
                await connection.execute(
                    sa.insert(queue_matches).values(
                        game_id=match.game_id,
                        app_id=match.app_id,
                        game=match.game,
                        options=queue.options,
                        players=match.players,
                        bots=msgspec.json.encode(list(match.bots)).decode(),
                        created_at=match.created_at,
                        due_at=now + lease,
                    )
                )
                formed.append(msgspec.structs.replace(match, options=queue.options))
            await connection.execute(sa.update(queues).where(this_queue).values(due_at=decided.next_due))
        return formed

    async def claim_matches(self, now: datetime, lease: timedelta, limit: int) -> list[str]:
        async with self._engine.begin() as connection:
            result = await connection.execute(self._claim, {"now": now, "lease_until": now + lease, "limit": limit})
            return [game_id for (game_id,) in result]

    async def match_of(self, game_id: str) -> tuple[QueueMatchRecord, list[QueueEntryRecord]] | None:
        entries = sa.select(queue_entries).where(queue_entries.c.game_id == game_id).order_by(queue_entries.c.seat)
        async with self._reader.connect() as connection:
            row = (await connection.execute(sa.select(queue_matches).where(queue_matches.c.game_id == game_id))).first()
            if row is None:
                return None
            return _match(row), [_entry(entry) for entry in await connection.execute(entries)]

    async def forget(self, before: datetime) -> int:
        """Forget the entries that joined before `before` and are over (left, or matched into a game
        that exists), and the formed games none of whose entries is left; how many entries."""
        created = sa.select(queue_matches.c.game_id).where(queue_matches.c.due_at.is_(None))
        over = sa.or_(
            queue_entries.c.status == "left",
            sa.and_(queue_entries.c.status == "matched", queue_entries.c.game_id.in_(created)),
        )
        kept = sa.select(queue_entries.c.entry_id).where(queue_entries.c.game_id == queue_matches.c.game_id)
        async with self._engine.begin() as connection:
            forgotten = await connection.execute(
                sa.delete(queue_entries).where(queue_entries.c.joined_at < before, over)
            )
            await connection.execute(
                sa.delete(queue_matches).where(
                    queue_matches.c.due_at.is_(None), queue_matches.c.created_at < before, ~kept.exists()
                )
            )
        return forgotten.rowcount

    async def created(self, game_id: str) -> None:
        async with self._engine.begin() as connection:
            await connection.execute(
                sa.update(queue_matches).where(queue_matches.c.game_id == game_id).values(due_at=None)
            )
