"""The reads of one game: its table, a seat's legal commands, a page of its events, a past version.

Reads use the cached table: a game that is over as it is, a running game with the events after it read
from the primary. A game not cached, and the windows of events pages and replays, may come from a read
replica when its copy is fresh enough for the caller (services/replica_reads.py).
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from kaiten.domain import lobby
from kaiten.domain.engine import AnyGame
from kaiten.domain.lobby import Table
from kaiten.services.access import AppCaller, seat_of_required
from kaiten.services.clocks import Clocks, deadlines
from kaiten.services.commands import GetTable, ListEvents, ListLegalCommands, ReplayGame
from kaiten.services.errors import ServiceError
from kaiten.services.people import Names
from kaiten.services.ports import EventStore, StoredEvent
from kaiten.services.replica_reads import ReplicaReads
from kaiten.services.seen import SeenCommands, SeenEvents, SeenTable, seen_events, seen_table
from kaiten.services.table_cache import CachedTable, Tables

MAX_EVENTS_PAGE = 1000

#: Rematch ids are derived from the finished game's id: asking twice (or two people at once) finds
#: the one rematch, and the finished game finds its rematch without a record of its own.
REMATCH_NAMESPACE = uuid.UUID("5b0c3f4e-6d1a-4c8e-9a57-0f3b1d2e4a61")


def rematch_id_of(game_id: str) -> str:
    return str(uuid.uuid5(REMATCH_NAMESPACE, game_id))


class Reading:
    def __init__(self, store: EventStore, tables: Tables, reads: ReplicaReads, names: Names) -> None:
        self.store = store
        self.tables = tables
        self.reads = reads
        self.names = names

    async def view(self, query: GetTable) -> SeenTable:
        loaded = await self.tables.readable(query.game_id, query.seen, query.caller)
        access = loaded.access(query.caller)
        view = await self.table_view(loaded, loaded.table, access.seat, loaded.version)
        view = with_deadlines(view, loaded.game, loaded.table, loaded.clocks)
        # The rematch's summary row, written with its first events, says it exists: one row, read from
        # the replica when there is one (a finished game is read there; a rematch shows once it is).
        summaries = self.reads.replica or self.store
        if lobby.is_over(loaded.table) and await summaries.summary(rematch_id_of(loaded.game_id)):
            view = dataclasses.replace(view, rematch=rematch_id_of(loaded.game_id))
        return view

    async def check_owned(self, game_id: str, app: AppCaller) -> None:
        """Refuses as a game that does not exist a game that is not the app's (services/access.py)."""
        loaded, _ = await self.tables.known(game_id)
        loaded.access(app)

    async def legal_commands(self, query: ListLegalCommands) -> SeenCommands:
        loaded = await self.tables.readable(query.game_id, query.seen, query.token)
        seat = seat_of_required(loaded.access(query.token))
        commands: Sequence[Any] = ()
        if seat in lobby.awaiting(loaded.game, loaded.table):
            commands = loaded.game.legal_commands(loaded.table.state, seat)
        return SeenCommands(game=loaded.game, version=loaded.version, seat=seat, commands=commands)

    async def events(self, query: ListEvents) -> SeenEvents:
        after, limit = query.after, query.limit
        if after < 0 or not 1 <= limit <= MAX_EVENTS_PAGE:
            raise ServiceError("invalid", "invalid-page", f"after must be ≥ 0 and limit 1..{MAX_EVENTS_PAGE}")
        # Asking for the events after a version says the caller has seen it.
        loaded, log = await self.tables.readable_log(query.game_id, max(after, query.seen or 0), query.caller)
        seat = loaded.access(query.caller).seat
        # Only the page is read (or cut from the log just read to load the game); it is shown as the
        # table now stands (what the seat may see now).
        count = max(0, min(limit, loaded.version - after))
        if log is not None:
            stored: Sequence[StoredEvent] = log[after : after + count]
        else:
            stored = await self.reads.window(loaded.game_id, after, count) if count else []
        events = [loaded.codec.decode_stored(item) for item in stored]
        people = await self.names.of_seats(loaded.table.seats)
        return seen_events(loaded.game, loaded.game_id, loaded.table, seat, stored, events, people, loaded.version)

    async def replay(self, query: ReplayGame) -> SeenTable:
        at, as_seat = query.at, query.as_seat
        loaded = await self.tables.readable(query.game_id, at, query.caller)
        seat = loaded.access(query.caller).seat
        if not 1 <= at <= loaded.version:
            raise ServiceError("not-found", "version-out-of-range", f"this game's log has versions 1..{loaded.version}")
        if as_seat is not None and as_seat != seat:
            if not lobby.is_over(loaded.table):
                raise ServiceError("forbidden", "seat-not-yours", "another seat's view is shown once the game is over")
            if not 0 <= as_seat < loaded.table.players:
                raise ServiceError("invalid", "invalid-seat", f"seats are 0..{loaded.table.players - 1}")
            seat = as_seat
        past = await self.tables.replay(loaded, at)
        if seat is not None and seat >= len(past.table.seats):
            seat = None
        return await self.table_view(loaded, past.table, seat, at, updated_at=past.recorded_at)

    async def table_view(
        self,
        loaded: CachedTable,
        table: Table[Any],
        seat: int | None,
        version: int,
        updated_at: datetime | None = None,
    ) -> SeenTable:
        view = seen_table(
            loaded.game,
            loaded.game_id,
            table,
            seat,
            version,
            created_at=loaded.created_at,
            updated_at=loaded.updated_at if updated_at is None else updated_at,
            public=lobby.is_over(loaded.table),
            people=await self.names.of_seats(table.seats),
        )
        if not loaded.imported:
            return view
        return dataclasses.replace(view, imported=True, imported_from=loaded.imported_from)


def with_deadlines(view: SeenTable, game: AnyGame, table: Table[Any], clocks: Clocks | None) -> SeenTable:
    """The view with when each awaited seat's time runs out, for a game with a clock."""
    if table.clock is None:
        return view
    return dataclasses.replace(view, deadlines=deadlines(game, table, clocks))
