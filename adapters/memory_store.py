"""An EventStore in process memory, for unit tests and simulations; same contract as SqlEventStore."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec

from kaiten.adapters.notify import LocalNotifier
from kaiten.adapters.store_rules import check_append, check_limit, recorded_now
from kaiten.services.ports import (
    AppendNotice,
    Clock,
    ConcurrencyConflict,
    DuplicateIdempotencyKey,
    FeedItem,
    GameSummary,
    NewEvent,
    OutboxMessage,
    StoredEvent,
    StoredFeedItem,
    feed_stream_id,
)

_encoder = msgspec.json.Encoder()
_metadata_decoder = msgspec.json.Decoder(dict[str, Any])
_summary_decoder = msgspec.json.Decoder(GameSummary)


class InMemoryEventStore:
    """Nothing here awaits, so each method runs without interleaving: an append is atomic.

    Metadata and summaries go through JSON as they would in a database: values JSON cannot hold fail
    here too, and callers never share mutable dicts with the store.
    """

    def __init__(self, clock: Clock | None = None, notifier: LocalNotifier | None = None) -> None:
        self._clock = clock
        self._notifier = notifier
        self._streams: dict[str, list[StoredEvent]] = {}
        self._idempotency: dict[tuple[str, str], tuple[int, int]] = {}
        self._summaries: dict[str, bytes] = {}
        #: Each game's deadline row, (version, due_at), as the summaries' wake times set them.
        self.deadlines: dict[str, tuple[int, datetime]] = {}
        self._last_position = 0
        #: What appends queued for webhooks, by stream (this store keeps no webhooks to deliver them to).
        self.outbox: dict[str, list[OutboxMessage]] = {}
        #: Each person's feed (services/players.py), numbered from 1.
        self.feeds: dict[str, list[StoredFeedItem]] = {}

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
        check_append(stream_id, expected_version, events, summary)
        # A retry of an earlier command is recognised even when the stream has moved on since.
        if idempotency_key is not None and (stream_id, idempotency_key) in self._idempotency:
            raise DuplicateIdempotencyKey(stream_id, idempotency_key)
        stream = self._streams.get(stream_id, [])
        if len(stream) != expected_version:
            raise ConcurrencyConflict(stream_id, expected_version)
        # Encode everything before changing anything, so a value JSON cannot hold writes nothing.
        encoded_summary = None
        if summary is not None:
            previous = self._summaries.get(stream_id)
            if previous is not None:
                # A game's creation time is the first summary's: later writers' clocks do not move it.
                summary = msgspec.structs.replace(summary, created_at=_summary_decoder.decode(previous).created_at)
            encoded_summary = _encoder.encode(summary)
        recorded_at = recorded_now(self._clock)
        stored = [
            StoredEvent(
                global_position=self._last_position + offset,
                stream_id=stream_id,
                version=expected_version + offset,
                type=event.type,
                data=event.data,
                metadata=_metadata_decoder.decode(_encoder.encode(event.metadata)),
                recorded_at=recorded_at,
                schema_version=event.schema_version,
            )
            for offset, event in enumerate(events, start=1)
        ]
        self._last_position += len(stored)
        self._streams[stream_id] = stream + stored
        if idempotency_key is not None:
            self._idempotency[stream_id, idempotency_key] = (stored[0].version, stored[-1].version)
        if summary is not None and encoded_summary is not None:
            self._summaries[stream_id] = encoded_summary
            if summary.wake_at is None:
                self.deadlines.pop(stream_id, None)
            else:
                self.deadlines[stream_id] = (summary.version, summary.wake_at)
        if outbox:
            self.outbox.setdefault(stream_id, []).extend(outbox)
        heads: dict[str, int] = {}
        for item in feed:
            items = self.feeds.setdefault(item.person_id, [])
            items.append(StoredFeedItem(len(items) + 1, item.kind, item.game_id, item.version, item.body, recorded_at))
            heads[item.person_id] = len(items)
        if self._notifier is not None:
            self._notifier.publish(AppendNotice(stream_id, stored[-1].version))
            for person_id, seq in heads.items():
                self._notifier.publish(AppendNotice(feed_stream_id(person_id), seq))
        return stored

    async def feed(self, person_id: str, after: int, limit: int) -> list[StoredFeedItem]:
        return self.feeds.get(person_id, [])[max(after, 0) : max(after, 0) + limit]

    async def feed_head(self, person_id: str) -> int:
        return len(self.feeds.get(person_id, []))

    async def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        check_limit(limit)
        stream = self._streams.get(stream_id, [])
        start = max(after, 0)
        return stream[start:] if limit is None else stream[start : start + limit]

    async def read_idempotent(self, stream_id: str, idempotency_key: str) -> list[StoredEvent]:
        versions = self._idempotency.get((stream_id, idempotency_key))
        if versions is None:
            return []
        first, last = versions
        return self._streams[stream_id][first - 1 : last]

    async def summary(self, stream_id: str) -> GameSummary | None:
        encoded = self._summaries.get(stream_id)
        return None if encoded is None else _summary_decoder.decode(encoded)

    def all_summaries(self) -> list[GameSummary]:
        """Every game's summary (for the in-memory deadlines)."""
        return [_summary_decoder.decode(encoded) for encoded in self._summaries.values()]
