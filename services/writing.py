"""How every write of one game reaches the log: decide on the table this process holds, append at its
version, and decide again when another writer got there first.

A use case hands `Writer.write` an attempt: a function of the loaded table that decides and returns
what to append (`Planned`). When another writer (a request here, or another process) moved the game
on, the append conflicts; the writer then reads the events it missed and asks the attempt again
(bounded), unless the client pinned the version with If-Match, in which case the conflict is its
answer. A refusal decided on a table that may be behind is checked the same way: the missed events are
read, and the command is refused only if the game is where the table said. Writes, and the reads they
make, use the primary.

Every append, the first of a game's included, is followed by the one same step (`_appended`): the
table cache learns the new table and its clocks, and whoever waits for bots' moves is told the game
owes some.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

from kaiten.domain.engine import RuleViolation
from kaiten.domain.lobby import Table
from kaiten.services.bot_moves import owed_seats
from kaiten.services.clocks import Clocks, fold_clocked, wake_at
from kaiten.services.codec import GameCodec
from kaiten.services.errors import ServiceError
from kaiten.services.players import feed_items
from kaiten.services.ports import Clock, ConcurrencyConflict, DuplicateIdempotencyKey, EventStore, NewEvent, StoredEvent
from kaiten.services.summaries import summary_of
from kaiten.services.table_cache import CachedTable, Tables, created_table, is_activity, token_hashes_of
from kaiten.services.webhooks import outbox_messages

T = TypeVar("T")

MAX_ATTEMPTS = 8


@dataclass(frozen=True, slots=True)
class Planned(Generic[T]):
    """What one attempt at a write decided: the events to append and how to answer once stored."""

    events: list[NewEvent]
    table: Table[Any]
    answer: Callable[[Sequence[StoredEvent]], T]


Attempt = Callable[[CachedTable], Planned[T] | Awaitable[Planned[T]]]


class Writer:
    def __init__(self, store: EventStore, tables: Tables, clock: Clock, abandon_after: timedelta | None) -> None:
        self.store = store
        self.tables = tables
        self.clock = clock
        #: A game nobody moved in for this long is abandoned (None: never): its summary says when.
        self.abandon_after = abandon_after
        #: Told of each game that an append leaves owing a bot's move (the scheduler, to make it soon).
        self.on_bots_owed: Callable[[str], None] | None = None

    async def write(
        self,
        game_id: str,
        attempt: Attempt[T],
        idempotency_key: str | None = None,
        pinned: bool = False,
        current: bool = False,
    ) -> T:
        """`pinned`: a conflict is the answer (If-Match); `current`: decide on the game as it stands,
        not on a cached table that may be behind."""
        loaded, fresh = await self.tables.known(game_id)
        if current and not fresh:
            loaded, fresh = await self.tables.refreshed(loaded), True
        for _ in range(MAX_ATTEMPTS):
            try:
                planned = attempt(loaded)
                if not isinstance(planned, Planned):
                    planned = await planned
            except (RuleViolation, ServiceError):
                # Decided on a table that may be behind: refuse only if the game is where it said.
                if fresh:
                    raise
                behind, loaded, fresh = loaded, await self.tables.refreshed(loaded), True
                if loaded.version == behind.version:
                    raise
                continue
            if not planned.events:
                return planned.answer([])
            try:
                stored = await self._append(loaded, planned, idempotency_key)
            except ConcurrencyConflict:
                if pinned:
                    raise version_conflict(None) from None
                loaded, fresh = await self.tables.refreshed(loaded), True
                continue
            except DuplicateIdempotencyKey:
                loaded, fresh = await self.tables.refreshed(loaded), True
                continue
            return planned.answer(stored)
        raise ServiceError("unavailable", "too-much-contention", "the game changed too often; try again")

    async def create(
        self, game_id: str, app_id: str, codec: GameCodec, table: Table[Any], new_events: Sequence[NewEvent]
    ) -> tuple[list[StoredEvent], Clocks | None]:
        """A new game's first append (its creation and the seats taken with it); the events stored and
        the clocks after them. A game of that id already stored makes it fail (ConcurrencyConflict)."""
        game = codec.game
        now = self.clock.now()
        clocks = clocks_after(codec, None, None, new_events, table, now)
        wake = wake_at(game, table, clocks, now, self.abandon_after)
        hashes = token_hashes_of(new_events)
        summary = summary_of(game_id, game, table, len(new_events), hashes, now, now, wake_at=wake, app_id=app_id)
        feed = feed_items(game, game_id, None, table, new_events, len(new_events))
        stored = await self.store.append(game_id, 0, new_events, summary, feed=feed)
        clocks = clocks_recorded(codec, None, None, new_events, table, stored, now, clocks)
        self._appended(created_table(game_id, table, stored, clocks))
        return stored, clocks

    async def _append(
        self, loaded: CachedTable, planned: Planned[Any], idempotency_key: str | None
    ) -> list[StoredEvent]:
        """The planned events appended at the loaded version, with the summary, deadline, webhook
        outbox and players' feed items they lead to."""
        version = loaded.version + len(planned.events)
        hashes = {**loaded.token_hashes, **token_hashes_of(planned.events)}
        now = self.clock.now()
        clocks = clocks_after(loaded.codec, loaded.table, loaded.clocks, planned.events, planned.table, now)
        active = now if any(is_activity(event.metadata) for event in planned.events) else loaded.active_at
        summary = summary_of(
            loaded.game_id,
            loaded.game,
            planned.table,
            version,
            hashes,
            loaded.created_at,
            now,
            wake_at=wake_at(loaded.game, planned.table, clocks, active, self.abandon_after),
            app_id=loaded.app_id,
            imported=loaded.imported,
        )
        outbox = outbox_messages(loaded.game, loaded.game_id, loaded.table, planned.table, planned.events, version)
        feed = feed_items(loaded.game, loaded.game_id, loaded.table, planned.table, planned.events, version)
        stored = await self.store.append(
            loaded.game_id, loaded.version, planned.events, summary, idempotency_key, outbox, feed
        )
        clocks = clocks_recorded(
            loaded.codec, loaded.table, loaded.clocks, planned.events, planned.table, stored, now, clocks
        )
        metadata = [event.metadata for event in planned.events]
        self._appended(loaded.appended(planned.table, clocks, stored, metadata))
        return stored

    def _appended(self, cached: CachedTable) -> None:
        self.tables.remember(cached)
        if self.on_bots_owed is not None and owed_seats(cached.table):
            self.on_bots_owed(cached.game_id)


def new_event(codec: GameCodec, event: Any, metadata: dict[str, Any]) -> NewEvent:
    return NewEvent(
        type=type(event).__name__,
        data=codec.encode_event(event),
        metadata=metadata,
        schema_version=codec.schema_version(event),
    )


def new_events(codec: GameCodec, events: Sequence[Any], metadata: dict[str, Any]) -> list[NewEvent]:
    return [new_event(codec, event, metadata) for event in events]


def clocks_after(
    codec: GameCodec,
    table: Table[Any] | None,
    clocks: Clocks | None,
    events: Sequence[NewEvent],
    after: Table[Any],
    now: datetime,
) -> Clocks | None:
    """The clocks once these events, which lead from `table` to `after`, are appended at `now`."""
    if after.clock is None:
        return None
    decoded = (codec.decode_event(event.type, event.schema_version, event.data) for event in events)
    return fold_clocked(codec.game, table, clocks, ((event, now) for event in decoded))[1]


def clocks_recorded(
    codec: GameCodec,
    table: Table[Any] | None,
    clocks: Clocks | None,
    events: Sequence[NewEvent],
    after: Table[Any],
    stored: Sequence[StoredEvent],
    now: datetime,
    at_now: Clocks | None,
) -> Clocks | None:
    """The clocks as a fold of the log works them out: from the time the store recorded the events
    (`at_now`, worked out at `now` for the wake time, when the store recorded them then)."""
    recorded = stored[-1].recorded_at
    if at_now is None or recorded == now:
        return at_now
    return clocks_after(codec, table, clocks, events, after, recorded)


def version_conflict(version: int | None) -> ServiceError:
    where = "" if version is None else f" (it is at version {version})"
    return ServiceError("conflict", "version-conflict", f"the game moved on{where}; reload and retry")
