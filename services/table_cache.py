"""Tables kept in process memory, so that loading a game is one small query, not a fold of its log.

A cached table is a game's table (and its turn clocks) as of a version. Reading a running game asks
the primary only for the events after that version and folds them in (usually there are none); a
game that is over never grows again, so reading it asks nothing at all; a game not cached is loaded
through the replica reads (services/replica_reads.py), from a read replica when its copy is fresh
enough. A command is decided on the cached
table and appended at its version, and the append's expected-version guard refuses it when another
process moved the game on, whereupon the tail is read and the command decided again. Logs are never
rewritten, so a cached table is never wrong, only possibly behind: that is what makes the cache safe
across any number of serving processes without coordination, and droppable at any time.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from kaiten.domain.engine import AnyGame
from kaiten.domain.lobby import Table, evolve_table, is_over, rules_of
from kaiten.services.access import Access, Credential, access_to
from kaiten.services.clocks import Clocks, fold_clocked
from kaiten.services.codec import GameCodec, codec_for
from kaiten.services.loading import LoadedGame, check_game_id, imported_from, load_game, owner_of
from kaiten.services.lru import Lru
from kaiten.services.ports import BUILTIN_APP, EventStore, NewEvent, StoredEvent
from kaiten.services.replica_reads import ReplicaReads

#: Games whose tables a process keeps by default (`KAITEN_TABLE_CACHE`).
DEFAULT_CACHED_TABLES = 10_000
#: A replay keeps the table at every this many versions it folds past, so that the next replay of
#: the same game folds at most this many events.
REPLAY_POINT_EVERY = 32
#: Games whose replay points a process keeps.
REPLAYED_GAMES = 256


@dataclass(frozen=True, slots=True)
class CachedTable:
    """A game's table as of `version`, with what serving it needs besides the log."""

    game_id: str
    codec: GameCodec
    table: Table[Any]
    version: int
    #: Each human seat's token hash, by seat number as a string (from SeatTaken's metadata).
    token_hashes: Mapping[str, str]
    #: When the first and the latest event were recorded.
    created_at: datetime
    updated_at: datetime
    #: When the latest event that was somebody's doing was recorded (see `is_activity`): what
    #: abandonment counts from.
    active_at: datetime
    #: Whether the game was imported from a log, and from which game.
    imported: bool = False
    imported_from: str | None = None
    #: The seats' turn clocks (None: the game has no clock).
    clocks: Clocks | None = None
    #: The app that owns the game.
    app_id: str = BUILTIN_APP

    @property
    def game(self) -> AnyGame:
        """The game under the rules version the table was created with."""
        return rules_of(self.codec.game, self.table)

    def access(self, credential: Credential) -> Access:
        """What the credential gives in this game (services/access.py); raises when it gives nothing."""
        return access_to(self.game_id, self.app_id, self.table, self.token_hashes, credential)

    def after(self, stored: Sequence[StoredEvent]) -> CachedTable:
        """This table with the next stored events folded in."""
        if not stored:
            return self
        timed = ((self.codec.decode_stored(item), item.recorded_at) for item in stored)
        table, clocks = fold_clocked(self.codec.game, self.table, self.clocks, timed)
        return self.appended(table, clocks, stored, [item.metadata for item in stored])

    def appended(
        self,
        table: Table[Any],
        clocks: Clocks | None,
        stored: Sequence[StoredEvent],
        metadata: Sequence[Mapping[str, Any]],
    ) -> CachedTable:
        """The table and clocks after events just stored, given what they lead to (no fold needed)."""
        hashes = new_token_hashes(metadata)
        return replace(
            self,
            table=table,
            version=stored[-1].version,
            token_hashes={**self.token_hashes, **hashes} if hashes else self.token_hashes,
            updated_at=stored[-1].recorded_at,
            active_at=last_activity(stored, metadata, self.active_at),
            clocks=clocks,
        )


#: The metadata keys of the events the scheduler appends: a turn that timed out (and the moves that
#: followed it), a bot's move, a game abandoned. They are nobody's move, so they do not put abandonment
#: off: a clocked game of absent people is abandoned rather than played out by its timeouts and bots.
SCHEDULED = ("timed_out", "woken", "inactive", "bot")


def is_activity(metadata: Mapping[str, Any]) -> bool:
    return not any(key in metadata for key in SCHEDULED)


def last_activity(stored: Sequence[StoredEvent], metadata: Sequence[Mapping[str, Any]], before: datetime) -> datetime:
    """When the last of these events that was somebody's doing was recorded (`before` if none was)."""
    for item, meta in zip(reversed(stored), reversed(metadata), strict=True):
        if is_activity(meta):
            return item.recorded_at
    return before


def new_token_hashes(metadata: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """The token hashes SeatTaken events carry in their metadata, by seat."""
    return {str(item["seat"]): item["token_hash"] for item in metadata if "token_hash" in item}


def token_hashes_of(new_events: Sequence[NewEvent]) -> dict[str, str]:
    return new_token_hashes([event.metadata for event in new_events])


def created_table(game_id: str, table: Table[Any], stored: Sequence[StoredEvent], clocks: Clocks | None) -> CachedTable:
    """The table of a whole log, `table` and `clocks` being that log folded."""
    imported, origin = imported_from(stored)
    return CachedTable(
        game_id=game_id,
        codec=codec_for(table.game),
        table=table,
        version=stored[-1].version,
        token_hashes=new_token_hashes([item.metadata for item in stored]),
        created_at=stored[0].recorded_at,
        updated_at=stored[-1].recorded_at,
        active_at=last_activity(stored, [item.metadata for item in stored], stored[0].recorded_at),
        imported=imported,
        imported_from=origin,
        clocks=clocks,
        app_id=owner_of(stored),
    )


def cached_from(loaded: LoadedGame) -> CachedTable:
    return created_table(loaded.game_id, loaded.table, loaded.stored, loaded.clocks)


@dataclass(frozen=True, slots=True)
class ReplayPoint:
    version: int
    table: Table[Any]
    recorded_at: datetime


@dataclass(slots=True)
class _ReplayPoints:
    """One game's tables at versions REPLAY_POINT_EVERY apart, ascending (immutable logs: never stale)."""

    versions: list[int] = field(default_factory=list)
    points: list[ReplayPoint] = field(default_factory=list)

    def nearest(self, version: int) -> ReplayPoint | None:
        index = bisect.bisect_right(self.versions, version)
        return self.points[index - 1] if index else None

    def keep(self, point: ReplayPoint) -> None:
        index = bisect.bisect_left(self.versions, point.version)
        if index == len(self.versions) or self.versions[index] != point.version:
            self.versions.insert(index, point.version)
            self.points.insert(index, point)


class Tables:
    """The store's games as tables, through this process's cache."""

    def __init__(
        self, store: EventStore, capacity: int = DEFAULT_CACHED_TABLES, reads: ReplicaReads | None = None
    ) -> None:
        self.store = store
        #: Where reads load the games not cached, and read the windows of events pages and replays.
        self.reads = reads or ReplicaReads(store, None)
        self._cache: Lru[str, CachedTable] = Lru(capacity)
        self._replay_points: Lru[str, _ReplayPoints] = Lru(REPLAYED_GAMES if capacity else 0)

    def __len__(self) -> int:
        return len(self._cache)

    async def known(self, game_id: str) -> tuple[CachedTable, bool]:
        """The cached table, maybe behind (False), or the whole log's when none is cached (True: fresh)."""
        game_id = check_game_id(game_id)
        cached = self._cache.get(game_id)
        if cached is not None:
            return cached, False
        return self.remember(cached_from(await load_game(self.store, game_id))), True

    async def readable(self, game_id: str, seen: int | None = None, token: Credential = None) -> CachedTable:
        """The table for a read by a caller that has seen version `seen`: a cached game that is over
        as it is (no query), a cached running game with the primary's tail folded in, a game not cached
        loaded through the replica reads (the replica when its copy is fresh enough) and kept."""
        return (await self.readable_log(game_id, seen, token))[0]

    async def readable_log(
        self, game_id: str, seen: int | None = None, token: Credential = None
    ) -> tuple[CachedTable, Sequence[StoredEvent] | None]:
        """`readable`, with the game's whole log when it was just read to load the game (a game not
        cached, or every game with no cache): a page of it then costs no second read."""
        game_id = check_game_id(game_id)
        cached = self._cache.get(game_id)
        if cached is None:
            # A replica's copy must know the game's secret a caller holds (an app key is not one).
            secret = token if isinstance(token, str) else None
            loaded = await self.reads.load(game_id, seen=seen, token=secret)
            return self.remember(cached_from(loaded)), loaded.stored
        return (cached if is_over(cached.table) else await self.refreshed(cached)), None

    async def current(self, game_id: str) -> CachedTable:
        """The table as of the latest event stored."""
        cached, fresh = await self.known(game_id)
        return cached if fresh else await self.refreshed(cached)

    async def refreshed(self, cached: CachedTable) -> CachedTable:
        """The table with the events stored after its version folded in: one query, often empty."""
        tail = await self.store.read(cached.game_id, after=cached.version)
        if not tail:
            return cached
        return self.remember(cached.after(tail))

    def remember(self, cached: CachedTable) -> CachedTable:
        """Keep this table unless a later one of the same game is kept already."""
        kept = self._cache.get(cached.game_id)
        if self._cache.capacity and (kept is None or kept.version < cached.version):
            self._cache.put(cached.game_id, cached)
            if is_over(cached.table):
                # Its reads skip the replica reads' rule while cached, which must still learn it is
                # over: an export, which reads the whole log, then reads it from a replica.
                self.reads.learn_over(cached.game_id)
        return cached

    async def replay(self, cached: CachedTable, at: int) -> ReplayPoint:
        """The table right after version `at` (1..cached.version), folded from the nearest point kept."""
        points = self._replay_points.get(cached.game_id) or _ReplayPoints()
        self._replay_points.put(cached.game_id, points)
        start = points.nearest(at)
        if start is not None and start.version == at:
            return start
        after = 0 if start is None else start.version
        stored = await self.reads.window(cached.game_id, after, at - after)
        codec = cached.codec
        table = None if start is None else start.table
        for item in stored:
            table = evolve_table(codec.game, table, codec.decode_stored(item))
            if item.version % REPLAY_POINT_EVERY == 0:
                points.keep(ReplayPoint(item.version, table, item.recorded_at))
        assert table is not None
        return ReplayPoint(at, table, stored[-1].recorded_at)
