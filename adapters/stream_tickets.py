"""Stream tickets kept in the database (any serving process spends them), or in memory for tests."""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import for_writes
from kaiten.adapters.schema import stream_tickets
from kaiten.services.ports import TicketHolder

#: Spent and expired tickets are forgotten this long after they expire.
KEPT_AFTER_EXPIRY = timedelta(hours=1)


class SqlStreamTickets:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = for_writes(engine)
        self._forget = sa.delete(stream_tickets).where(stream_tickets.c.expires_at < sa.bindparam("before"))
        self._keep = sa.insert(stream_tickets)
        # One statement: two processes cannot both spend a ticket.
        self._spend = (
            sa.update(stream_tickets)
            .where(
                stream_tickets.c.ticket_hash == sa.bindparam("hash"),
                stream_tickets.c.game_id == sa.bindparam("game"),
                stream_tickets.c.used_at.is_(None),
                stream_tickets.c.expires_at > sa.bindparam("now"),
            )
            .values(used_at=sa.bindparam("now"))
            .returning(stream_tickets.c.seat)
        )
        self._spend_any = (
            sa.update(stream_tickets)
            .where(
                stream_tickets.c.ticket_hash == sa.bindparam("hash"),
                stream_tickets.c.used_at.is_(None),
                stream_tickets.c.expires_at > sa.bindparam("now"),
            )
            .values(used_at=sa.bindparam("now"))
            .returning(stream_tickets.c.game_id)
        )

    async def keep(self, ticket_hash: str, game_id: str, seat: int | None, expires_at: datetime) -> None:
        async with self._engine.begin() as connection:
            await connection.execute(self._forget, {"before": expires_at - KEPT_AFTER_EXPIRY})
            await connection.execute(
                self._keep,
                {"ticket_hash": ticket_hash, "game_id": game_id, "seat": seat, "expires_at": expires_at},
            )

    async def spend(self, ticket_hash: str, game_id: str, now: datetime) -> TicketHolder | None:
        async with self._engine.begin() as connection:
            row = (await connection.execute(self._spend, {"hash": ticket_hash, "game": game_id, "now": now})).first()
        return None if row is None else TicketHolder(seat=row[0])

    async def spend_any(self, ticket_hash: str, now: datetime) -> str | None:
        async with self._engine.begin() as connection:
            row = (await connection.execute(self._spend_any, {"hash": ticket_hash, "now": now})).first()
        return None if row is None else str(row[0])


class InMemoryStreamTickets:
    def __init__(self) -> None:
        self._tickets: dict[str, tuple[str, int | None, datetime]] = {}

    async def keep(self, ticket_hash: str, game_id: str, seat: int | None, expires_at: datetime) -> None:
        self._tickets[ticket_hash] = (game_id, seat, expires_at)

    async def spend(self, ticket_hash: str, game_id: str, now: datetime) -> TicketHolder | None:
        kept = self._tickets.get(ticket_hash)
        if kept is None or kept[0] != game_id or kept[2] <= now:
            return None
        del self._tickets[ticket_hash]
        return TicketHolder(seat=kept[1])

    async def spend_any(self, ticket_hash: str, now: datetime) -> str | None:
        kept = self._tickets.get(ticket_hash)
        if kept is None or kept[2] <= now:
            return None
        del self._tickets[ticket_hash]
        return kept[0]
