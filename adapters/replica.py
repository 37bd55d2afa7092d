"""Reads from a PostgreSQL read replica, from the primary while the replica cannot answer.

A replica that is down (restarting, failed over, unreachable, or cancelling a query that conflicts with
what it replays) must not take the service down with it: its reads go to the primary, which holds
everything the replica would have had, and newer. After a failure the replica is left alone for a few
seconds, so that reads do not each wait for a connection that will not come; then it is tried again.
Writes always go to the primary.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from kaiten.services.ports import (
    EventStore,
    FeedItem,
    GameStatsRecord,
    GameSummary,
    LeaderboardKey,
    MatchFilter,
    MatchKey,
    MatchRecord,
    Namespace,
    NewEvent,
    OutboxMessage,
    PlayerGameRecord,
    RatingHistoryRecord,
    ReadModels,
    StoredEvent,
)

log = logging.getLogger("kaiten.replica")

T = TypeVar("T")

#: How long the primary answers alone after the replica failed.
RETRY_SECONDS = 5.0


def unreachable(error: Exception) -> bool:
    """Whether the replica failed to answer (rather than the query being wrong)."""
    if isinstance(error, DBAPIError):
        return error.connection_invalidated or isinstance(error, OperationalError | InterfaceError)
    return isinstance(error, OSError | PoolTimeout)


class Replica:
    """Runs reads on the replica while it answers, on the primary while it does not."""

    def __init__(self, retry_seconds: float = RETRY_SECONDS, now: Callable[[], float] = time.monotonic) -> None:
        self.retry_seconds = retry_seconds
        self._now = now
        self._down_until: float | None = None

    @property
    def up(self) -> bool:
        return self._down_until is None or self._now() >= self._down_until

    async def read(self, on_replica: Callable[[], Awaitable[T]], on_primary: Callable[[], Awaitable[T]]) -> T:
        if self.up:
            try:
                answer = await on_replica()
            except Exception as error:
                if not unreachable(error):
                    raise
                if self._down_until is None:
                    log.warning("read replica unavailable, reading from the primary: %s", error)
                self._down_until = self._now() + self.retry_seconds
            else:
                if self._down_until is not None:
                    log.warning("read replica available again")
                    self._down_until = None
                return answer
        return await on_primary()


class ReplicaEventStore:
    """The event store as the replica sees it: reads from the replica (or the primary while it is
    down), appends to the primary."""

    def __init__(self, replica: EventStore, primary: EventStore, health: Replica) -> None:
        self._replica = replica
        self._primary = primary
        self._health = health

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        summary: GameSummary | None = None,
        idempotency_key: str | None = None,
        outbox: Sequence[OutboxMessage] = (),
        feed: Sequence[FeedItem] = (),
    ) -> list[StoredEvent]:
        return await self._primary.append(stream_id, expected_version, events, summary, idempotency_key, outbox, feed)

    async def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        return await self._health.read(
            lambda: self._replica.read(stream_id, after, limit), lambda: self._primary.read(stream_id, after, limit)
        )

    async def read_idempotent(self, stream_id: str, idempotency_key: str) -> list[StoredEvent]:
        return await self._health.read(
            lambda: self._replica.read_idempotent(stream_id, idempotency_key),
            lambda: self._primary.read_idempotent(stream_id, idempotency_key),
        )

    async def summary(self, stream_id: str) -> GameSummary | None:
        return await self._health.read(
            lambda: self._replica.summary(stream_id), lambda: self._primary.summary(stream_id)
        )


class ReplicaReadModels:
    """The history and statistics from the replica (or the primary while it is down)."""

    def __init__(self, replica: ReadModels, primary: ReadModels, health: Replica) -> None:
        self._replica = replica
        self._primary = primary
        self._health = health

    async def matches(
        self, namespace: Namespace, where: MatchFilter, after: MatchKey | None, limit: int
    ) -> list[MatchRecord]:
        return await self._health.read(
            lambda: self._replica.matches(namespace, where, after, limit),
            lambda: self._primary.matches(namespace, where, after, limit),
        )

    async def player_games(self, namespace: Namespace, person_id: str) -> list[PlayerGameRecord]:
        return await self._health.read(
            lambda: self._replica.player_games(namespace, person_id),
            lambda: self._primary.player_games(namespace, person_id),
        )

    async def game_stats(self, namespace: Namespace, game: str) -> GameStatsRecord:
        return await self._health.read(
            lambda: self._replica.game_stats(namespace, game), lambda: self._primary.game_stats(namespace, game)
        )

    async def leaderboard(
        self, namespace: Namespace, game: str, after: LeaderboardKey | None, limit: int, season: str | None = None
    ) -> list[PlayerGameRecord]:
        return await self._health.read(
            lambda: self._replica.leaderboard(namespace, game, after, limit, season),
            lambda: self._primary.leaderboard(namespace, game, after, limit, season),
        )

    async def rating_history(
        self, namespace: Namespace, person_id: str, game: str, before: int | None, limit: int
    ) -> list[RatingHistoryRecord]:
        return await self._health.read(
            lambda: self._replica.rating_history(namespace, person_id, game, before, limit),
            lambda: self._primary.rating_history(namespace, person_id, game, before, limit),
        )
