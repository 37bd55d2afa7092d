"""The EventStore on PostgreSQL or SQLite, with SQLAlchemy Core (one implementation for both)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

import msgspec
import psycopg
from sqlalchemy import Select
from sqlalchemy.engine import Dialect, Result
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from kaiten.adapters.append_connections import AppendConnections
from kaiten.adapters.database import for_reads, for_writes
from kaiten.adapters.notify import CHANNEL, LocalNotifier, notice_payload
from kaiten.adapters.sql_statements import SUMMARY, SUMMARY_JSON, statements_for
from kaiten.adapters.store_rules import check_append, check_limit, recorded_now
from kaiten.services.ports import (
    DELIVERIES_QUEUED,
    PROJECTED_EVENTS,
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
#: The idempotency keys' primary key: a violation of it is a retried command, not a lost race.
KEYS_CONSTRAINT = "pk_idempotency_keys"
_metadata_decoder = msgspec.json.Decoder(dict[str, Any])


#: The append's SQL by kind of dialect and parameter style: engines made alike compile it alike, so it is
#: compiled once a process rather than for every store (`statements_for` says what that saves).
_COMPILED_APPENDS: dict[tuple[type[Dialect], str], str] = {}


def _compiled_append(append_all: Select[Any], dialect: Dialect) -> str:
    key = (type(dialect), dialect.paramstyle)
    if key not in _COMPILED_APPENDS:
        _COMPILED_APPENDS[key] = str(append_all.compile(dialect=dialect))
    return _COMPILED_APPENDS[key]


class SqlEventStore:
    """Announces each committed append: on PostgreSQL with NOTIFY in its transaction (every process
    hears it), on SQLite to `notifier` once committed (SQLite is served by one process). An append
    that holds an event of the `projected` types (those the catch-up projections apply) is also
    announced as PROJECTED_EVENTS (every append, when `projected` is None)."""

    def __init__(
        self,
        engine: AsyncEngine,
        clock: Clock | None = None,
        notifier: LocalNotifier | None = None,
        projected: Collection[str] | None = (),
        appends: AppendConnections | None = None,
    ) -> None:
        if notifier is not None and engine.dialect.name == "postgresql":
            raise ValueError("on PostgreSQL appends are announced with NOTIFY: a local notifier would hear them twice")
        self._engine = engine
        # Connections of its own for the one-statement appends (adapters/append_connections.py).
        self._appends = appends
        self._projected = None if projected is None else frozenset(projected)
        self._writer = for_writes(engine)
        # A single statement is atomic by itself: on PostgreSQL it needs no BEGIN and COMMIT (or
        # ROLLBACK) around it, two round trips saved. SQLite's writes need BEGIN IMMEDIATE (`_writer`).
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._reader = for_reads(engine)
        self._clock = clock
        self._notifier = notifier
        self._sql = statements_for(engine.dialect.name)
        # Compiled once and run as the driver's SQL (`_run_in_autocommit`): SQLAlchemy would otherwise
        # work out the cache key of this large statement and process its parameters at every append (a
        # tenth of a command's instructions). Its parameters are the driver's values already
        # (`_summary_json`).
        self._append_all = (
            None if self._sql.append_all is None else _compiled_append(self._sql.append_all, engine.dialect)
        )

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
        recorded_at = recorded_now(self._clock)
        projected = self._projected is None or not self._projected.isdisjoint(event.type for event in events)
        parameters = {
            "stream_id": stream_id,
            "expected_version": expected_version,
            # The data is JSON already: Raw embeds it as is instead of decoding and encoding it again.
            "rows": _encoder.encode(
                [
                    (version, event.type, msgspec.Raw(event.data), event.metadata, event.schema_version)
                    for version, event in enumerate(events, start=expected_version + 1)
                ]
            ).decode(),
            "recorded_at": recorded_at,
            "idempotency_key": idempotency_key,
            # Used on PostgreSQL only, where the INSERT also sends the NOTIFY of the append.
            "last_version": expected_version + len(events),
            "notice_payload": notice_payload(stream_id, expected_version + len(events)),
            "projected": projected,
            "outbox": _encoder.encode(
                [(message.version, message.event, message.body.decode()) for message in outbox]
            ).decode(),
        }
        queued = False  # on PostgreSQL the statement announces the deliveries it queued
        heads: dict[str, int] = {}
        try:
            # An append that adds to players' feeds numbers their items under their heads' row locks:
            # several statements, in one transaction (most appends add nothing and take one statement).
            if self._append_all is not None and not feed:
                positions = await self._append_in_one_statement(parameters, summary, len(events))
            else:
                positions, queued, heads = await self._append_in_one_transaction(parameters, summary, events, feed)
        except ConcurrencyConflict:
            # A retry of an earlier command is recognised even when the stream has moved on since.
            if idempotency_key is not None and await self._key_used(stream_id, idempotency_key):
                raise DuplicateIdempotencyKey(stream_id, idempotency_key) from None
            raise
        if self._notifier is not None:
            self._notifier.publish(AppendNotice(stream_id, expected_version + len(events)))
            for person_id, seq in heads.items():
                self._notifier.publish(AppendNotice(feed_stream_id(person_id), seq))
            if queued:
                self._notifier.publish(DELIVERIES_QUEUED)
            if projected:
                self._notifier.publish(PROJECTED_EVENTS)
        return [
            StoredEvent(
                global_position=positions[version],
                stream_id=stream_id,
                version=version,
                type=event.type,
                data=event.data,
                metadata=event.metadata,
                recorded_at=recorded_at,
                schema_version=event.schema_version,
            )
            for version, event in enumerate(events, start=expected_version + 1)
        ]

    async def _append_in_one_statement(
        self, parameters: dict[str, Any], summary: GameSummary | None, count: int
    ) -> dict[int, int]:
        """PostgreSQL: events, key and summary in one atomic statement, one round trip."""
        assert self._append_all is not None
        stream_id, key = parameters["stream_id"], parameters["idempotency_key"]
        parameters = {
            **parameters,
            "first_version": parameters["expected_version"] + 1,
            SUMMARY_JSON: None if summary is None else _summary_json(summary),
            f"{SUMMARY}wake_at": None if summary is None else summary.wake_at,
        }
        try:
            if self._appends is not None and not self._engine.sync_engine.dispatch.before_cursor_execute:
                rows = await self._appends.run(self._append_all, parameters)
            else:
                # Without connections of its own (a store made alone), or when something listens to
                # SQLAlchemy's cursor events (the traces' spans), SQLAlchemy runs the statement.
                async with self._autocommit.connect() as connection:
                    result: Result[int, int, str | None] = await connection.exec_driver_sql(
                        self._append_all, parameters
                    )
                    rows = [(position, version, notice) for position, version, notice in result]
            positions = {version: position for position, version, _deliveries_notice in rows}
        except IntegrityError as error:
            if isinstance(error.orig, psycopg.Error) and error.orig.diag.constraint_name == KEYS_CONSTRAINT:
                raise DuplicateIdempotencyKey(stream_id, key) from error
            raise ConcurrencyConflict(stream_id, parameters["expected_version"]) from error
        if len(positions) != count:
            raise ConcurrencyConflict(stream_id, parameters["expected_version"])
        return positions

    async def _append_in_one_transaction(
        self,
        parameters: dict[str, Any],
        summary: GameSummary | None,
        events: Sequence[NewEvent],
        feed: Sequence[FeedItem] = (),
    ) -> tuple[dict[int, int], bool, dict[str, int]]:
        """The events' global positions by version, whether webhook deliveries were queued, and the
        newest feed number of each person the append added to."""
        stream_id, key = parameters["stream_id"], parameters["idempotency_key"]
        expected_version = parameters["expected_version"]
        # Leaving the block on any exception rolls the whole append back.
        async with self._writer.begin() as connection:
            positions = await self._insert_events(connection, parameters)
            if key is not None:
                await self._remember_key(connection, stream_id, key, expected_version, events)
            if summary is not None:
                row = msgspec.structs.asdict(summary)
                wake_at = row.pop("wake_at")
                await connection.execute(self._sql.upsert_summary, row)
                if wake_at is None:
                    await connection.execute(self._sql.unschedule, {"stream_id": stream_id})
                else:
                    await connection.execute(
                        self._sql.schedule,
                        {"stream_id": stream_id, "last_version": summary.version, f"{SUMMARY}wake_at": wake_at},
                    )
            queued = False
            if parameters["outbox"] != "[]":
                queued = (await connection.execute(self._sql.queue_deliveries, parameters)).rowcount > 0
            heads: dict[str, int] = {}
            if feed:
                heads, fed = await self._add_to_feeds(connection, feed, parameters["recorded_at"])
                queued = queued or fed
            if self._sql.append_all is not None:  # PostgreSQL: NOTIFY, delivered when (and if) this commits
                notices = [notice_payload(feed_stream_id(person), seq) for person, seq in heads.items()]
                if queued:
                    notices.append(notice_payload(DELIVERIES_QUEUED.stream_id, DELIVERIES_QUEUED.version))
                for payload in notices:
                    await connection.execute(self._sql.notify, {"channel": CHANNEL, "payload": payload})
        return positions, queued, heads

    async def _add_to_feeds(
        self, connection: AsyncConnection, feed: Sequence[FeedItem], recorded_at: datetime
    ) -> tuple[dict[str, int], bool]:
        """Each item added to its person's feed, numbered after the person's last (whose head row stays
        locked until the append commits, so numbers follow commit order), and queued for the person's
        webhooks. People are taken in one order (sorted), so two appends never wait on each other in a
        circle. The newest number per person, and whether webhook deliveries were queued."""
        by_person: dict[str, list[FeedItem]] = {}
        for item in feed:
            by_person.setdefault(item.person_id, []).append(item)
        heads: dict[str, int] = {}
        queued = False
        for person_id in sorted(by_person):
            items = by_person[person_id]
            head = {"person_id": person_id, "last_seq": len(items)}
            last = int((await connection.execute(self._sql.advance_feed_head, head)).scalar_one())
            first = last - len(items) + 1
            rows = [
                {
                    "person_id": person_id,
                    "seq": first + offset,
                    "kind": item.kind,
                    "game_id": item.game_id,
                    "version": item.version,
                    "body": item.body.decode(),
                    "created_at": recorded_at,
                }
                for offset, item in enumerate(items)
            ]
            await connection.execute(self._sql.add_feed_items, rows)
            # The player's webhooks, through the games' own outbox: the person is their stream, the
            # item's number its version.
            outbox = [(row["seq"], row["kind"], row["body"]) for row in rows]
            parameters = {
                "stream_id": feed_stream_id(person_id),
                "outbox": _encoder.encode(outbox).decode(),
                "recorded_at": recorded_at,
            }
            queued = (await connection.execute(self._sql.queue_deliveries, parameters)).rowcount > 0 or queued
            heads[person_id] = last
        return heads, queued

    async def feed(self, person_id: str, after: int, limit: int) -> list[StoredFeedItem]:
        parameters = {"person_id": person_id, "after": after, "limit": limit}
        async with self._reader.connect() as connection:
            rows = (await connection.execute(self._sql.read_feed, parameters)).all()
        return [
            StoredFeedItem(
                seq=row.seq,
                kind=row.kind,
                game_id=row.game_id,
                version=row.version,
                body=row.body.encode(),
                created_at=row.created_at,
            )
            for row in rows
        ]

    async def feed_head(self, person_id: str) -> int:
        async with self._reader.connect() as connection:
            last = (await connection.execute(self._sql.feed_head, {"person_id": person_id})).scalar()
        return 0 if last is None else int(last)

    async def _insert_events(self, connection: AsyncConnection, parameters: dict[str, Any]) -> dict[int, int]:
        """The global position of each inserted event, by version."""
        try:
            result = await connection.execute(self._sql.append_events, parameters)
        except IntegrityError as error:
            # Only UNIQUE(stream_id, version) can fail here: a writer passed the guard alongside us.
            raise ConcurrencyConflict(parameters["stream_id"], parameters["expected_version"]) from error
        # On PostgreSQL a third column holds what pg_notify returned (nothing).
        positions = {version: position for position, version, *_notified in result}
        if not positions:
            raise ConcurrencyConflict(parameters["stream_id"], parameters["expected_version"])
        return positions

    async def _remember_key(
        self,
        connection: AsyncConnection,
        stream_id: str,
        key: str,
        expected_version: int,
        events: Sequence[NewEvent],
    ) -> None:
        parameters = {
            "stream_id": stream_id,
            "key": key,
            "first_version": expected_version + 1,
            "last_version": expected_version + len(events),
        }
        try:
            await connection.execute(self._sql.remember_key, parameters)
        except IntegrityError as error:
            raise DuplicateIdempotencyKey(stream_id, key) from error

    async def _key_used(self, stream_id: str, key: str) -> bool:
        async with self._engine.connect() as connection:
            result = await connection.execute(self._sql.key_used, {"stream_id": stream_id, "key": key})
            return result.first() is not None

    async def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        check_limit(limit)
        parameters = {"stream_id": stream_id, "after": after, "limit": limit}
        statement = self._sql.read if limit is None else self._sql.read_limited
        async with self._reader.connect() as connection:
            result = await connection.execute(statement, parameters)
            return _stored_events(stream_id, result)

    async def read_idempotent(self, stream_id: str, idempotency_key: str) -> list[StoredEvent]:
        parameters = {"stream_id": stream_id, "key": idempotency_key}
        async with self._reader.connect() as connection:
            result = await connection.execute(self._sql.read_idempotent, parameters)
            return _stored_events(stream_id, result)

    async def summary(self, stream_id: str) -> GameSummary | None:
        async with self._reader.connect() as connection:
            result = await connection.execute(self._sql.read_summary, {"stream_id": stream_id})
            row = result.first()
        return None if row is None else GameSummary(**row._asdict())


def _summary_json(summary: GameSummary) -> str:
    """The summary as the one JSON parameter of the append, its times refused when naive as a
    `UtcDateTime` column refuses them."""
    for value in (summary.created_at, summary.updated_at, summary.finished_at, summary.wake_at):
        if value is not None and value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: pass an aware (UTC) datetime")
    return _encoder.encode(summary).decode()


def _stored_events(stream_id: str, result: Result[int, int, str, int, str, str, datetime]) -> list[StoredEvent]:
    return [
        StoredEvent(
            global_position=position,
            stream_id=stream_id,
            version=version,
            type=type_,
            data=data.encode(),
            metadata=_metadata_decoder.decode(metadata),
            recorded_at=recorded_at,
            schema_version=schema_version,
        )
        # Unpacked rather than read by attribute name, which costs more than building the event.
        for position, version, type_, schema_version, data, metadata, recorded_at in result.all()
    ]
