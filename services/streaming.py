"""Following one game's log live: the events after a version, then each new one as it commits.

The follower subscribes to the game's notices before it reads anything past what it checked, so an
append that commits in between is either in that read or announced afterwards: nothing is missed.
Events are redacted for the caller as the events endpoint does, by the table after the newest event
read. A follower keeps the table and its version, not the log: after the catch-up, a stream's memory
does not grow with the game.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import msgspec

from kaiten.domain.engine import AnyGame
from kaiten.domain.lobby import Table, evolve_table, is_over
from kaiten.services.access import Credential
from kaiten.services.codec import GameCodec
from kaiten.services.errors import ServiceError
from kaiten.services.people import Names
from kaiten.services.ports import RESYNC, AppendNotice, EventStore, Person, StoredEvent, StreamNotifier, TicketHolder
from kaiten.services.seen import SeenEvents, seen_events
from kaiten.services.table_cache import Tables

#: An idle stream sends a comment this often, so that proxies and clients can tell it is alive.
KEEPALIVE_SECONDS = 15.0


class KeepAlive(msgspec.Struct, frozen=True):
    """Nothing happened for a while."""


class EventStreams:
    def __init__(
        self,
        tables: Tables,
        notifier: StreamNotifier,
        names: Names,
        keepalive_seconds: float = KEEPALIVE_SECONDS,
    ) -> None:
        #: The tables this process keeps (the game use cases'): a stream starts from the game's table
        #: and reads only the events after its resume point, however long the log.
        self.tables = tables
        self.store = tables.store
        self.notifier = notifier
        #: The people at the tables, whom SeatTaken shows by name.
        self.names = names
        self.keepalive_seconds = keepalive_seconds

    async def follow(
        self, game_id: str, token: Credential, after: int, ticket: TicketHolder | None = None
    ) -> AsyncIterator[SeenEvents | KeepAlive] | None:
        """The caller's view of the events after version `after`, live, ending after GameFinished (each
        batch as it was read; a batch may show no event, when all it read was hidden from the caller):
        as the holder of the stream ticket spent for it (a seat or a spectator), else as whoever the
        token is (services/access.py).

        Errors (no such game, a token of no seat, a version past the log) are raised here, before
        anything is streamed. None when the game is over and its end is at or before `after`: there
        is nothing left to follow.
        """
        loaded = await self.tables.current(game_id)
        seat = loaded.access(token).seat if ticket is None else ticket.seat
        if not 0 <= after <= loaded.version:
            raise ServiceError(
                "invalid", "invalid-stream-position", f"resume from a version in 0..{loaded.version}, not {after}"
            )
        if is_over(loaded.table) and after == loaded.version:
            return None
        follower = _Follower(loaded.game_id, loaded.codec, loaded.table, loaded.version, seat, after, self.names)
        return self._follow(follower)

    async def _follow(self, follower: _Follower) -> AsyncIterator[SeenEvents | KeepAlive]:
        async with self.notifier.subscribe_to(follower.game_id) as notices:
            yield await follower.catch_up(self.store)
            while not follower.finished:
                notice = await self._next_notice(notices)
                if notice is None:
                    # The notifier stopped: the server shuts down, and the client resumes elsewhere.
                    return
                if isinstance(notice, KeepAlive):
                    yield notice
                elif notice == RESYNC or notice.version > follower.version:
                    yield await follower.read_new(self.store)

    async def _next_notice(self, notices: AsyncIterator[AppendNotice]) -> AppendNotice | KeepAlive | None:
        try:
            async with asyncio.timeout(self.keepalive_seconds):
                return await anext(notices)
        except TimeoutError:
            return KeepAlive()
        except StopAsyncIteration:
            return None


class _Follower:
    """One viewer's position in one game: the table as of `version`, and the events not yet sent."""

    def __init__(
        self,
        game_id: str,
        codec: GameCodec,
        table: Table[Any],
        version: int,
        seat: int | None,
        after: int,
        names: Names,
    ) -> None:
        self.game_id = game_id
        self.names = names
        self.codec = codec
        #: The table as of `version`; events after `resume_from` up to it are still to be sent.
        self.table = table
        self.version = version
        self.seat = seat
        self.resume_from = after

    @property
    def game(self) -> AnyGame:
        return self.codec.game

    @property
    def finished(self) -> bool:
        return is_over(self.table)

    async def catch_up(self, store: EventStore) -> SeenEvents:
        """The events after the resume point: those the table already holds, and those appended since."""
        stored = await store.read(self.game_id, after=self.resume_from)
        held = [item for item in stored if item.version <= self.version]
        newer = stored[len(held) :]
        events = [self.codec.decode_stored(item) for item in held]
        newer_events = self._advance(newer)
        people = await self.names.of_seats(self.table.seats)
        return self._seen(stored, [*events, *newer_events], people)

    async def read_new(self, store: EventStore) -> SeenEvents:
        newer = await store.read(self.game_id, after=self.version)
        newer_events = self._advance(newer)
        people = await self.names.of_seats(self.table.seats)
        return self._seen(newer, newer_events, people)

    def _seen(self, stored: Sequence[StoredEvent], events: Sequence[Any], people: Mapping[str, Person]) -> SeenEvents:
        """The events as the viewer may see them, by the table as it stands now."""
        return seen_events(self.game, self.game_id, self.table, self.seat, stored, events, people, self.version)

    def _advance(self, stored: Sequence[StoredEvent]) -> list[Any]:
        events = [self.codec.decode_stored(item) for item in stored]
        for event in events:
            self.table = evolve_table(self.game, self.table, event)
        if stored:
            self.version = stored[-1].version
        return events
