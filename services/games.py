"""The use cases of a game, composed over one store and one table cache: who sits
(services/seats.py: create, seats, invitations, rematches), playing (services/playing.py: commands,
resignations, what falls due) and reading (services/reading.py). Every write goes through the one
writer (services/writing.py): decide on the table this process holds, append at its version, and
decide again when another writer got there first.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from kaiten.services.bot_moves import BotLoad, ThreadThinker
from kaiten.services.people import Names
from kaiten.services.playing import Playing
from kaiten.services.ports import BUILTIN_APP, BotThinker, Clock, EventStore, IdSource, People
from kaiten.services.quotas import QuotaCheck
from kaiten.services.reading import Reading
from kaiten.services.replica_reads import ReplicaReads
from kaiten.services.seats import Seats
from kaiten.services.table_cache import DEFAULT_CACHED_TABLES, Tables
from kaiten.services.writing import Writer


class Games:
    def __init__(
        self,
        store: EventStore,
        clock: Clock,
        ids: IdSource,
        abandon_after: timedelta | None = None,
        *,
        people: People,
        open_app: str | None = BUILTIN_APP,
        quotas: QuotaCheck | None = None,
        replica: EventStore | None = None,
        cached_tables: int = DEFAULT_CACHED_TABLES,
        bots: BotThinker | None = None,
        bot_load: BotLoad | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.ids = ids
        self.people = people
        self.names = Names(people)
        self.open_app = open_app
        self.quotas = quotas
        #: Reads of one game, from `replica` (a copy of the store that may lag) when they allow it.
        self.reads = ReplicaReads(store, replica)
        #: The tables this process keeps, at most `cached_tables` games.
        self.tables = Tables(store, cached_tables, self.reads)
        self.bots: BotThinker = bots or ThreadThinker()
        self.bot_load = bot_load or BotLoad(self.bots.workers, clock.now)
        self.writer = Writer(store, self.tables, clock, abandon_after)
        self.reading = Reading(store, self.tables, self.reads, self.names)
        self.playing = Playing(self.writer, clock, ids, self.bots, self.bot_load)
        self.seats = Seats(self.writer, self.reading, ids, people, self.names, self.bot_load, open_app, quotas)

        self.create = self.seats.create
        self.take_seat = self.seats.take_seat
        self.leave = self.seats.leave
        self.invite = self.seats.invite
        self.revoke = self.seats.revoke
        self.rematch = self.seats.rematch
        self.erase_player = self.seats.erase_player
        self.seating = self.seats.seating
        self.keep_guests = self.seats.keep_guests

        self.act = self.playing.act
        self.resign = self.playing.resign
        self.wake = self.playing.wake

        self.view = self.reading.view
        self.legal_commands = self.reading.legal_commands
        self.events = self.reading.events
        self.replay = self.reading.replay

    @property
    def abandon_after(self) -> timedelta | None:
        """A game nobody moved in for this long is abandoned (None: never)."""
        return self.writer.abandon_after

    @property
    def on_bots_owed(self) -> Callable[[str], None] | None:
        """Told of each game that an append leaves owing a bot's move (the scheduler, to make it soon)."""
        return self.writer.on_bots_owed

    @on_bots_owed.setter
    def on_bots_owed(self, listener: Callable[[str], None] | None) -> None:
        self.writer.on_bots_owed = listener
