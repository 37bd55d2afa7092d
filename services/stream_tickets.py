"""Stream tickets: a browser's EventSource cannot send `Authorization`, and a secret must never travel
in a URL (it would land in logs and histories). A seat trades its token for a ticket, good for one
stream of that game as that seat, within a minute (API.md, "Browsers"); so does a spectator that holds
a credential of a private game (an invitation code, the app's key), for one stream as a spectator."""

from __future__ import annotations

from datetime import datetime, timedelta

import msgspec

from kaiten.services.access import Presented
from kaiten.services.errors import ServiceError
from kaiten.services.loading import check_game_id
from kaiten.services.ports import Clock, IdSource, StreamTickets, TicketHolder
from kaiten.services.secrets import hash_secret
from kaiten.services.table_cache import Tables

#: Long enough to open a stream after asking for the ticket, short enough that a leaked URL is stale.
VALID_FOR = timedelta(seconds=60)


class StreamTicket(msgspec.Struct, frozen=True):
    #: Pass as `?ticket=` to GET /v1/games/{id}/events/stream, once.
    ticket: str
    expires_at: datetime


def ticket_hash(ticket: str) -> str:
    return hash_secret(ticket)


class Ticketing:
    def __init__(self, tables: Tables, tickets: StreamTickets, clock: Clock, ids: IdSource) -> None:
        self.tables = tables
        self.tickets = tickets
        self.clock = clock
        self.ids = ids

    async def issue(self, game_id: str, token: Presented) -> StreamTicket:
        """A ticket for whoever the credential is in this game: its seat, or a spectator (the credential
        is checked as for any read)."""
        loaded = await self.tables.current(game_id)
        seat = loaded.access(token).seat
        ticket = self.ids.token("ticket")
        expires_at = self.clock.now() + VALID_FOR
        await self.tickets.keep(ticket_hash(ticket), loaded.game_id, seat, expires_at)
        return StreamTicket(ticket=ticket, expires_at=expires_at)

    async def holder_of(self, game_id: str, ticket: str) -> TicketHolder:
        """Whom the ticket was given to, the ticket spent; 401 `invalid-ticket` for any ticket not good now."""
        holder = await self.tickets.spend(ticket_hash(ticket), check_game_id(game_id), self.clock.now())
        if holder is None:
            raise ServiceError(
                "unauthorized", "invalid-ticket", "this stream ticket is unknown, spent, expired or for another game"
            )
        return holder
