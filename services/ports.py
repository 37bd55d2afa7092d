"""The ports the services need; adapters implement them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, Protocol

import msgspec


class ConcurrencyConflict(Exception):
    """Another writer appended to the stream first: the expected version is stale."""

    def __init__(self, stream_id: str, expected_version: int) -> None:
        super().__init__(f"stream {stream_id} moved past version {expected_version}")
        self.stream_id = stream_id
        self.expected_version = expected_version


class DuplicateIdempotencyKey(Exception):
    """A command with this idempotency key was already appended to the stream."""

    def __init__(self, stream_id: str, key: str) -> None:
        super().__init__(f"idempotency key {key!r} already used on stream {stream_id}")
        self.stream_id = stream_id
        self.key = key


class NewEvent(msgspec.Struct, frozen=True):
    type: str
    #: The event struct encoded as JSON (bytes), tag included.
    data: bytes
    metadata: dict[str, Any] = {}


class StoredEvent(msgspec.Struct, frozen=True):
    global_position: int
    stream_id: str
    version: int
    type: str
    data: bytes
    metadata: dict[str, Any]
    recorded_at: datetime


class GameSummary(msgspec.Struct, frozen=True):
    """The inline read model of one game's table, written in the same transaction as its events."""

    game_id: str
    game: str
    status: str
    version: int
    players: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    awaiting: list[int]
    #: The finished game's result (scores, winners, ranking), else None.
    result: dict[str, Any] | None
    #: SHA-256 hex of each human seat's token, by seat number as a string.
    token_hashes: dict[str, str]
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None = None


class EventStore(Protocol):
    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        summary: GameSummary | None = None,
        idempotency_key: str | None = None,
    ) -> list[StoredEvent]:
        """Append after `expected_version` (0 for a new stream) atomically with the summary upsert.

        Raises ConcurrencyConflict when the stream is not at `expected_version`, and
        DuplicateIdempotencyKey when the key was already used on this stream (the caller then reads
        the first answer with `read_idempotent`); a used key wins over a stale version, so a late
        retry still finds its first answer. Nothing is written when either is raised.
        Raises ValueError, before writing, for no events, a negative version, or a summary of
        another stream or of a version other than `expected_version + len(events)`.
        """

    async def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events of one stream with version > after, ascending."""

    async def read_idempotent(self, stream_id: str, idempotency_key: str) -> list[StoredEvent]:
        """The events appended with this idempotency key on this stream (empty if none)."""

    async def summary(self, stream_id: str) -> GameSummary | None:
        """The inline read model of one game."""


class Clock(Protocol):
    def now(self) -> datetime: ...


class IdSource(Protocol):
    def game_id(self) -> str: ...

    def seed(self) -> int: ...

    def token(self) -> str: ...


class AppendNotice(msgspec.Struct, frozen=True):
    """Something was appended to a stream, up to `version` (a hint to go and read, never the data)."""

    stream_id: str
    version: int


class Notifier(Protocol):
    """Tells listeners, in this process and (on PostgreSQL) in every other, that streams grew."""

    def subscribe(self) -> AbstractAsyncContextManager[AsyncIterator[AppendNotice]]:
        """Notices of appends committed after the subscription started, until the context exits."""
