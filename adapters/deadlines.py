"""The games' deadline rows, claimed by the scheduler of any serving process; in memory for tests.

Appends write a game's deadline (`version`, `due_at`); a scheduler's claim is `claimed_until`, which
no append writes: a person's pick while a bot thinks makes the game due again, and it stays with the
process acting on it until that process gives it back (`release`) or its lease runs out."""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import for_reads, for_writes, insert_for
from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.schema import deadlines, games

#: The statuses of a game that is not over.
PLAYING = ("open", "active")


def claiming(
    key: sa.Column[str], due_at: sa.Column[datetime], claimed_until: sa.Column[datetime] | None = None
) -> sa.Update:
    """The claim of due rows (`due_at <= :now`, at most `:limit`, soonest first), their keys returned. A
    claim runs to `:lease_until`: in `claimed_until` when the table has it (the row stays due, and others
    skip it while the claim lasts), else by moving `due_at` there. A process that dies before it acts
    leaves the row to be claimed again once the lease ran out. The deadlines' claim, and the matchmaking
    queues' formed games'."""
    due = (
        sa.select(key)
        .where(due_at <= sa.bindparam("now"))
        .order_by(due_at)
        .limit(sa.bindparam("limit"))
        # Processes claiming at once skip each other's rows instead of waiting for them (PostgreSQL;
        # SQLite, served by one process, has no row locks and takes its single write lock).
        .with_for_update(skip_locked=True)
    )
    if claimed_until is not None:
        due = due.where(unclaimed(claimed_until))
    return (
        sa.update(key.table)
        .where(key.in_(due.scalar_subquery()))
        .values({due_at if claimed_until is None else claimed_until: sa.bindparam("lease_until")})
        .returning(key)
    )


def unclaimed(claimed_until: sa.Column[datetime]) -> sa.ColumnElement[bool]:
    """Rows no scheduler acts on at `:now`: never claimed, given back, or their claim ran out."""
    return sa.or_(claimed_until.is_(None), claimed_until <= sa.bindparam("now"))


#: The games whose deadline is due at `:now` and that no scheduler acts on: the work left to start.
OWED = sa.select(sa.func.count()).where(deadlines.c.due_at <= sa.bindparam("now"), unclaimed(deadlines.c.claimed_until))


class SqlDeadlines:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = for_writes(engine)
        self._reader = for_reads(engine)
        self._claim = claiming(deadlines.c.game_id, deadlines.c.due_at, deadlines.c.claimed_until)
        same_version = sa.and_(
            deadlines.c.game_id == sa.bindparam("game"), deadlines.c.version == sa.bindparam("at_version")
        )
        self._move = sa.update(deadlines).where(same_version).values(due_at=sa.bindparam("wake_at"))
        self._remove = sa.delete(deadlines).where(same_version)
        self._release = (
            sa.update(deadlines)
            .where(
                deadlines.c.game_id == sa.bindparam("game"),
                # UPDATE reserves bind names that equal column names for its SET clause.
                deadlines.c.claimed_until == sa.bindparam("held_until"),
            )
            .values(claimed_until=None)
        )
        homeless = (
            sa.select(games.c.game_id, games.c.version, sa.bindparam("now", type_=deadlines.c.due_at.type))
            .where(games.c.status.in_(PLAYING))
            .where(~sa.exists().where(deadlines.c.game_id == games.c.game_id))
        )
        # An append writing the game's deadline meanwhile wins: its row is the newer one.
        self._adopt = (
            insert_for(engine.dialect.name, deadlines)
            .from_select(["game_id", "version", "due_at"], homeless)
            .on_conflict_do_nothing(index_elements=[deadlines.c.game_id])
            .returning(deadlines.c.game_id)
        )

    async def claim(self, now: datetime, lease: timedelta, limit: int) -> list[str]:
        async with self._engine.begin() as connection:
            result = await connection.execute(self._claim, {"now": now, "lease_until": now + lease, "limit": limit})
            return [game_id for (game_id,) in result]

    async def reschedule(self, game_id: str, version: int, wake_at: datetime | None) -> None:
        parameters = {"game": game_id, "at_version": version, "wake_at": wake_at}
        async with self._engine.begin() as connection:
            await connection.execute(self._remove if wake_at is None else self._move, parameters)

    async def release(self, game_id: str, claimed_until: datetime) -> None:
        parameters = {"game": game_id, "held_until": claimed_until}
        async with self._engine.begin() as connection:
            await connection.execute(self._release, parameters)

    async def adopt(self, now: datetime) -> int:
        async with self._engine.begin() as connection:
            return len((await connection.execute(self._adopt, {"now": now})).all())

    async def owed(self, now: datetime) -> int:
        async with self._reader.connect() as connection:
            return int((await connection.execute(OWED, {"now": now})).scalar_one())


class InMemoryDeadlines:
    """The deadline rows the in-memory store keeps with its summaries, and the claims on them."""

    def __init__(self, store: InMemoryEventStore) -> None:
        self._store = store
        self._rows = store.deadlines
        self._claims: dict[str, datetime] = {}

    def _unclaimed(self, game_id: str, now: datetime) -> bool:
        claimed_until = self._claims.get(game_id)
        return claimed_until is None or claimed_until <= now

    async def claim(self, now: datetime, lease: timedelta, limit: int) -> list[str]:
        due = sorted(
            (due_at, game_id)
            for game_id, (_, due_at) in self._rows.items()
            if due_at <= now and self._unclaimed(game_id, now)
        )[:limit]
        for _, game_id in due:
            self._claims[game_id] = now + lease
        return [game_id for _, game_id in due]

    async def reschedule(self, game_id: str, version: int, wake_at: datetime | None) -> None:
        row = self._rows.get(game_id)
        if row is None or row[0] != version:
            return
        if wake_at is None:
            del self._rows[game_id]
        else:
            self._rows[game_id] = (version, wake_at)

    async def owed(self, now: datetime) -> int:
        return sum(1 for game_id, (_, due_at) in self._rows.items() if due_at <= now and self._unclaimed(game_id, now))

    async def release(self, game_id: str, claimed_until: datetime) -> None:
        if self._claims.get(game_id) == claimed_until:
            del self._claims[game_id]

    async def adopt(self, now: datetime) -> int:
        adopted = 0
        for summary in self._store.all_summaries():
            if summary.status in PLAYING and summary.game_id not in self._rows:
                self._rows[summary.game_id] = (summary.version, now)
                adopted += 1
        return adopted
