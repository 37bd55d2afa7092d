"""The event store's SQL, built once per dialect so SQLAlchemy compiles each statement once.

The events of one append travel as a single JSON array parameter, `[[version, type, data, metadata,
schema_version], ...]`, unpacked by the database's JSON table function: the INSERT has the same shape for any number of
events, so its compiled form is cached, and it is one round trip however many events there are.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import JSONB

from kaiten.adapters.database import insert_for
from kaiten.adapters.notify import CHANNEL, notice_payload
from kaiten.adapters.schema import (
    deadlines,
    events,
    games,
    idempotency_keys,
    player_feed,
    player_feed_heads,
    webhook_deliveries,
    webhook_events,
)
from kaiten.services.ports import DELIVERIES_QUEUED, PROJECTED_EVENTS

EVENT_COLUMNS = (
    events.c.global_position,
    events.c.version,
    events.c.type,
    events.c.schema_version,
    # As text: the JSON goes back to the caller as bytes without being decoded and encoded again.
    sa.cast(events.c.data, sa.Text).label("data"),
    sa.cast(events.c.metadata, sa.Text).label("metadata"),
    events.c.recorded_at,
)


@cache
def statements_for(dialect_name: str) -> Statements:
    """The dialect's statements, built once a process: every store on that dialect runs the same ones.
    Building them, and compiling the append (`sql_store`), took 38 of the 86 ms of CPU that a set of
    services cost to start and close, which the tests pay for each test."""
    return Statements(dialect_name)


class Statements:
    def __init__(self, dialect_name: str) -> None:
        self.append_events = _append_events(dialect_name)
        self.remember_key = sa.insert(idempotency_keys)
        self.key_used = sa.select(sa.literal(1)).where(
            idempotency_keys.c.stream_id == sa.bindparam("stream_id"),
            idempotency_keys.c.key == sa.bindparam("key"),
        )
        self.upsert_summary = _upsert_summary(dialect_name)
        self.queue_deliveries = _queue_deliveries(dialect_name)
        self.schedule = _schedule(dialect_name, sa.select(*_deadline_row()))
        self.unschedule = sa.delete(deadlines).where(deadlines.c.game_id == sa.bindparam("stream_id"))
        self.append_all = _append_all() if dialect_name == "postgresql" else None
        head = insert_for(dialect_name, player_feed_heads)
        self.advance_feed_head = head.on_conflict_do_update(
            index_elements=[player_feed_heads.c.person_id],
            set_={"last_seq": player_feed_heads.c.last_seq + head.excluded.last_seq},
        ).returning(player_feed_heads.c.last_seq)
        self.add_feed_items = sa.insert(player_feed)
        self.read_feed = (
            sa.select(player_feed)
            .where(player_feed.c.person_id == sa.bindparam("person_id"), player_feed.c.seq > sa.bindparam("after"))
            .order_by(player_feed.c.seq)
            .limit(sa.bindparam("limit"))
        )
        self.feed_head = sa.select(player_feed_heads.c.last_seq).where(
            player_feed_heads.c.person_id == sa.bindparam("person_id")
        )
        self.notify = sa.select(
            sa.func.pg_notify(sa.bindparam("channel", type_=sa.Text), sa.bindparam("payload", type_=sa.Text))
        )
        self.read_summary = (
            sa.select(games, deadlines.c.due_at.label("wake_at"))
            .outerjoin(deadlines, deadlines.c.game_id == games.c.game_id)
            .where(games.c.game_id == sa.bindparam("stream_id"))
        )
        self.read = (
            sa.select(*EVENT_COLUMNS)
            .where(events.c.stream_id == sa.bindparam("stream_id"), events.c.version > sa.bindparam("after"))
            .order_by(events.c.version)
        )
        self.read_limited = self.read.limit(sa.bindparam("limit"))
        self.read_idempotent = (
            sa.select(*EVENT_COLUMNS)
            .join(
                idempotency_keys,
                sa.and_(
                    idempotency_keys.c.stream_id == events.c.stream_id,
                    events.c.version.between(idempotency_keys.c.first_version, idempotency_keys.c.last_version),
                ),
            )
            .where(
                idempotency_keys.c.stream_id == sa.bindparam("stream_id"),
                idempotency_keys.c.key == sa.bindparam("key"),
            )
            .order_by(events.c.version)
        )


def _append_events(dialect_name: str) -> sa.Insert:
    """INSERT the rows only if the stream is at the expected version; RETURNING nothing otherwise.

    The guard reads the stream's current version inside the statement, so an append can neither
    overwrite (stale expectation) nor leave a gap (expectation ahead of the stream). Two writers that
    both pass it collide on UNIQUE(stream_id, version).

    On PostgreSQL the row of the last version also sends `pg_notify(CHANNEL, :payload)`: one notice
    per append and no extra round trip (and PROJECTED_EVENTS beside it when `:projected`). PostgreSQL
    delivers them when the transaction commits, and never if it rolls back; an append the guard
    refuses inserts no row, so it notifies nobody.
    """
    rows_json = sa.bindparam("rows", type_=sa.Text)
    stream_id = sa.bindparam("stream_id", type_=sa.Text)
    row: Any
    version: sa.ColumnElement[Any]
    schema_version: sa.ColumnElement[Any]
    if dialect_name == "postgresql":
        rows = sa.func.jsonb_array_elements(sa.cast(rows_json, JSONB)).table_valued(sa.column("value", JSONB))
        row = rows.c.value
        version = sa.cast(_text_at(row, 0), sa.Integer)
        event_type, data, metadata = _text_at(row, 1), _json_at(row, 2), _json_at(row, 3)
        schema_version = sa.cast(_text_at(row, 4), sa.Integer)
    else:
        rows = sa.func.json_each(rows_json).table_valued("value")
        row = rows.c.value
        version, event_type, data, metadata, schema_version = (sa.func.json_extract(row, f"$[{i}]") for i in range(5))
    current = (
        sa.select(sa.func.coalesce(sa.func.max(events.c.version), _constant(0)))
        .where(events.c.stream_id == stream_id)
        .scalar_subquery()
    )
    new_rows = sa.select(
        stream_id,
        version,
        event_type,
        data,
        metadata,
        schema_version,
        sa.bindparam("recorded_at", type_=events.c.recorded_at.type),
        sa.bindparam("idempotency_key", type_=sa.Text),
    ).where(current == sa.bindparam("expected_version"))
    columns = ["stream_id", "version", "type", "data", "metadata", "schema_version", "recorded_at", "idempotency_key"]
    returning: list[sa.ColumnElement[Any]] = [events.c.global_position, events.c.version]
    if dialect_name == "postgresql":
        notify = sa.func.pg_notify(_constant(CHANNEL), sa.bindparam("notice_payload", type_=sa.Text))
        returning.append(sa.case((events.c.version == sa.bindparam("last_version"), notify)))
        # Sent from every row when `projected`: PostgreSQL delivers one of a transaction's identical notices.
        projected = _constant(notice_payload(PROJECTED_EVENTS.stream_id, PROJECTED_EVENTS.version))
        notify_projected = sa.func.pg_notify(_constant(CHANNEL), projected)
        returning.append(sa.case((sa.bindparam("projected", type_=sa.Boolean), notify_projected)))
    return sa.insert(events).from_select(columns, new_rows).returning(*returning)


def _upsert_summary(dialect_name: str) -> sa.Insert:
    insert = insert_for(dialect_name, games)
    return _replacing_summary(insert)


def _deadline_row() -> tuple[sa.ColumnElement[Any], ...]:
    return (
        sa.bindparam("stream_id", type_=sa.Text),
        sa.bindparam("last_version", type_=sa.Integer),
        sa.bindparam(f"{SUMMARY}wake_at", type_=deadlines.c.due_at.type),
    )


def _schedule(dialect_name: str, row: sa.Select[Any]) -> sa.Insert:
    """The game's deadline row from `row` (game_id, version, due_at), replacing the one it had."""
    insert = insert_for(dialect_name, deadlines)
    upsert = insert.from_select(["game_id", "version", "due_at"], row)
    return upsert.on_conflict_do_update(
        index_elements=[deadlines.c.game_id],
        set_={"version": upsert.excluded.version, "due_at": upsert.excluded.due_at},
    )


def _replacing_summary(insert: postgresql.Insert | sqlite.Insert) -> sa.Insert:
    """The summary INSERT, replacing the game's row when there is one."""
    # A game's creation time is the first summary's: later writers' clocks do not move it.
    kept = ("game_id", "created_at")
    changed = {column.name: insert.excluded[column.name] for column in games.c if column.name not in kept}
    return insert.on_conflict_do_update(index_elements=[games.c.game_id], set_=changed)


def _append_all() -> sa.Select[Any]:
    """PostgreSQL: the whole append (events, idempotency key, summary) as one statement.

    The key and the summary are written by data-modifying CTEs that run only when the events were
    inserted, so a refused append writes nothing; one statement is atomic on its own, so it runs
    without BEGIN and COMMIT around it: one round trip in all.
    """
    appended = _append_events("postgresql").cte("appended")
    inserted = sa.exists(sa.select(appended.c.version))
    key = sa.bindparam("idempotency_key", type_=sa.Text)
    remembered = (
        sa.insert(idempotency_keys)
        .from_select(
            ["stream_id", "key", "first_version", "last_version"],
            sa.select(
                sa.bindparam("stream_id", type_=sa.Text),
                key,
                sa.bindparam("first_version", type_=sa.Integer),
                sa.bindparam("last_version", type_=sa.Integer),
            ).where(key.is_not(None), inserted),
        )
        .cte("remembered")
    )
    # The summary travels as one JSON object (NULL: none), its fields read into the games row's columns by
    # PostgreSQL: one parameter where a column each cost its own conversion and bind processing per append.
    summary = sa.bindparam(SUMMARY_JSON, type_=sa.Text)
    fields = sa.func.jsonb_populate_record(sa.literal_column(f"NULL::{games.name}"), sa.cast(summary, JSONB))
    record = fields.table_valued(*(column.name for column in games.c), name="s")
    has_summary = summary.is_not(None)
    upsert = postgresql.insert(games).from_select(
        [column.name for column in games.c],
        sa.select(*(record.c[column.name] for column in games.c)).where(has_summary, inserted),
    )
    summarized = _replacing_summary(upsert).cte("summarized")
    # The deadline row follows the summary: replaced when it names a wake time, else removed (the two
    # conditions exclude each other, so no row is touched twice by the one statement). A wake time
    # comes only with a summary (SqlEventStore), so naming one says there is a summary.
    wake_at = sa.bindparam(f"{SUMMARY}wake_at", type_=deadlines.c.due_at.type)
    scheduled = _schedule("postgresql", sa.select(*_deadline_row()).where(wake_at.is_not(None), inserted)).cte(
        "scheduled"
    )
    unscheduled = (
        sa.delete(deadlines)
        .where(deadlines.c.game_id == sa.bindparam("stream_id", type_=sa.Text))
        .where(has_summary, wake_at.is_(None), inserted)
        .cte("unscheduled")
    )
    queued = _queue_deliveries("postgresql", inserted).returning(webhook_deliveries.c.delivery_id).cte("queued")
    # Sent after the append's own notice (from the last event's row) and only when deliveries were queued.
    deliveries_notice = sa.case(
        (
            sa.and_(appended.c.version == sa.bindparam("last_version"), sa.exists(sa.select(queued.c.delivery_id))),
            sa.func.pg_notify(
                _constant(CHANNEL), _constant(notice_payload(DELIVERIES_QUEUED.stream_id, DELIVERIES_QUEUED.version))
            ),
        )
    )
    return sa.select(appended.c.global_position, appended.c.version, deliveries_notice).add_cte(
        remembered, summarized, scheduled, unscheduled, queued
    )


#: The prefix of the summary's fields among the append's parameters (short, as the constants below).
SUMMARY = "s_"
#: The parameter of the append's one statement that holds the whole summary as JSON.
SUMMARY_JSON = "summary"

# Constants are written into the statements rather than bound: the append's statement must stay short
# enough (psycopg's MAX_CACHED_STATEMENT_LENGTH, 4096) for psycopg to cache its conversion, which it
# otherwise parses again at every append (an eighth of a command's CPU, measured with py-spy).


def _constant(value: str | int) -> sa.ColumnElement[Any]:
    """A constant of our own (never a caller's value) as a literal of the statement."""
    return sa.literal_column(f"'{value}'" if isinstance(value, str) else str(value))


def _text_at(array: Any, index: int) -> sa.ColumnElement[Any]:
    """The JSON array's item at `index`, as text (PostgreSQL's `->>`)."""
    item: sa.ColumnElement[Any] = array.op("->>", return_type=sa.Text)(_constant(index))
    return item


def _json_at(array: Any, index: int) -> sa.ColumnElement[Any]:
    """The JSON array's item at `index`, as JSON (PostgreSQL's `->`)."""
    item: sa.ColumnElement[Any] = array.op("->", return_type=JSONB)(_constant(index))
    return item


def _queue_deliveries(dialect_name: str, inserted: sa.ColumnElement[bool] | None = None) -> sa.Insert:
    """The webhook outbox: a pending delivery for each message (`:outbox`, a JSON array of `[version,
    event, body]`) and each webhook of the stream subscribed to its event; with `inserted`, only
    when the events were."""
    outbox = sa.bindparam("outbox", type_=sa.Text)
    message: Any
    version: sa.ColumnElement[Any]
    if dialect_name == "postgresql":
        message = sa.func.jsonb_array_elements(sa.cast(outbox, JSONB)).table_valued(sa.column("value", JSONB)).c.value
        version, event, body = sa.cast(_text_at(message, 0), sa.Integer), _text_at(message, 1), _text_at(message, 2)
    else:
        message = sa.func.json_each(outbox).table_valued("value").c.value
        version, event, body = (sa.func.json_extract(message, f"$[{i}]") for i in range(3))
    stream_id = sa.bindparam("stream_id", type_=sa.Text)
    now = sa.bindparam("recorded_at", type_=webhook_deliveries.c.created_at.type)
    rows = sa.select(
        webhook_events.c.webhook_id, stream_id, version, event, body, _constant("pending"), _constant(0), now, now
    ).where(webhook_events.c.game_id == stream_id, webhook_events.c.event == event)
    if inserted is not None:
        rows = rows.where(inserted)
    columns = [
        "webhook_id",
        "game_id",
        "version",
        "event",
        "body",
        "status",
        "attempts",
        "next_attempt_at",
        "created_at",
    ]
    return sa.insert(webhook_deliveries).from_select(columns, rows)
