"""The database schema as SQLAlchemy Core tables: what the migrations create and the stores query.

Alembic is the only way the schema is created or changed. Its revisions are written from these tables
(and frozen once released); a test compares every migrated database with this metadata. Triggers have
no Core object: the one refusing changes to `events` lives in the first revision.

Objects that exist on one dialect only carry `info={"dialects": (...)}`; `include_object` filters them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.dialects.postgresql import base as postgresql_base
from sqlalchemy.engine import Dialect

from kaiten.services.ports import BUILTIN_APP

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)

POSTGRES_ONLY: dict[str, Any] = {"dialects": ("postgresql",)}

#: JSON kept as the text we were given (event data, metadata); JSONB on PostgreSQL.
JSON_TEXT = sa.Text().with_variant(JSONB(), "postgresql")
#: JSON that SQLAlchemy encodes and decodes with the engine's (msgspec) serializer; None is SQL NULL
#: (not JSON null), so `IS NULL` finds it.
JSON_VALUE = sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")


class UtcDateTime(sa.TypeDecorator[datetime]):
    """An aware UTC datetime on every dialect.

    SQLite has no time zone type and SQLAlchemy would silently drop the offset, so values are converted
    to UTC before they are stored and read back as UTC. Naive datetimes are refused: they are bugs.
    """

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: pass an aware (UTC) datetime")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Xid8(sa.types.UserDefinedType[int]):
    """PostgreSQL's 64-bit transaction id, used to read the log in commit-safe global order."""

    cache_ok = True

    def get_col_spec(self, **kw: Any) -> str:
        return "XID8"


# Reflection would not know the type otherwise, and autogenerate compares the database with us.
postgresql_base.ischema_names["xid8"] = Xid8


events = sa.Table(
    "events",
    metadata,
    sa.Column(
        "global_position",
        sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
        sa.Identity(always=True),
        primary_key=True,
    ),
    sa.Column("stream_id", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("type", sa.Text, nullable=False),
    sa.Column("schema_version", sa.Integer, nullable=False, server_default=sa.text("1")),
    sa.Column("data", JSON_TEXT, nullable=False),
    sa.Column("metadata", JSON_TEXT, nullable=False),
    sa.Column("recorded_at", UtcDateTime, nullable=False),
    sa.Column("idempotency_key", sa.Text),
    # The transaction that wrote the row: subscribers read (tx_id, global_position) below the oldest
    # running transaction, so an event whose transaction commits late is never skipped.
    sa.Column("tx_id", Xid8, nullable=False, server_default=sa.text("pg_current_xact_id()"), info=POSTGRES_ONLY),
    # The optimistic-concurrency guard: two writers cannot both append version n.
    sa.UniqueConstraint("stream_id", "version"),
    sa.CheckConstraint("version >= 1", name="version_positive"),
    sa.Index(None, "tx_id", "global_position", info=POSTGRES_ONLY),
    # SQLite would otherwise reuse the largest rowid; positions are never reused.
    sqlite_autoincrement=True,
)

idempotency_keys = sa.Table(
    "idempotency_keys",
    metadata,
    sa.Column("stream_id", sa.Text, primary_key=True),
    sa.Column("key", sa.Text, primary_key=True),
    sa.Column("first_version", sa.Integer, nullable=False),
    sa.Column("last_version", sa.Integer, nullable=False),
)

# --- Apps, their keys, and the people at the tables (services/apps.py, services/people.py) --------

apps = sa.Table(
    "apps",
    metadata,
    sa.Column("app_id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False, unique=True),
    sa.Column("created_at", UtcDateTime, nullable=False),
    #: services.ports.Quotas as JSON (a missing quota: no limit).
    sa.Column("quotas", JSON_VALUE, nullable=False),
)

app_keys = sa.Table(
    "app_keys",
    metadata,
    #: The part of a key that finds it (`kaiten_app_<key_id>_<secret>`).
    sa.Column("key_id", sa.Text, primary_key=True),
    sa.Column("app_id", sa.Text, nullable=False, index=True),
    #: SHA-256 hex of the whole key, which is shown once and never kept.
    sa.Column("key_hash", sa.Text, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
    #: A rotated key works until then.
    sa.Column("expires_at", UtcDateTime),
    sa.Column("revoked_at", UtcDateTime),
)

#: Who sits at the tables: the log holds a person's id only, so that erasing this row erases them.
people = sa.Table(
    "people",
    metadata,
    sa.Column("person_id", sa.Text, primary_key=True),
    sa.Column("app_id", sa.Text, nullable=False),
    #: The app's own id for its user; NULL for a guest (any number of guests per app).
    sa.Column("player_id", sa.Text),
    sa.Column("name", sa.Text),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.UniqueConstraint("app_id", "player_id"),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("game_id", sa.Text, primary_key=True),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", JSON_VALUE, nullable=False),
    sa.Column("seats", JSON_VALUE, nullable=False),
    sa.Column("awaiting", JSON_VALUE, nullable=False),
    sa.Column("result", JSON_VALUE),
    sa.Column("token_hashes", JSON_VALUE, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.Column("updated_at", UtcDateTime, nullable=False),
    sa.Column("finished_at", UtcDateTime),
    #: The app that owns the game.
    sa.Column("app_id", sa.Text, nullable=False, server_default=BUILTIN_APP),
    #: Stored from a log (importLog), not played here.
    sa.Column("imported", sa.Boolean, nullable=False, server_default=sa.false()),
    # Listing newest first, filtered by game and status; game_id breaks ties for keyset cursors.
    # Columns that change on every append (version, updated_at, awaiting) stay out of the indexes so
    # that PostgreSQL can update the row in place (HOT).
    sa.Index(None, "game", "status", "created_at", "game_id"),
    sa.Index(None, "created_at", "game_id"),
    # An app's quotas: the games it created or imported lately, and those not over.
    sa.Index(None, "app_id", "imported", "created_at"),
    sa.Index(None, "app_id", "status"),
    # Listing by player: `seats @> '[{"player_id": "..."}]'`.
    sa.Index(
        "ix_games_seats_gin",
        "seats",
        postgresql_using="gin",
        postgresql_ops={"seats": "jsonb_path_ops"},
        info=POSTGRES_ONLY,
    ),
)

#: Single-use tickets that let a browser's EventSource (which cannot send headers) follow a game as a
#: seat (or, NULL, as a spectator allowed to watch it): kept hashed, bound to a game, spent once, valid
#: for a minute.
stream_tickets = sa.Table(
    "stream_tickets",
    metadata,
    sa.Column("ticket_hash", sa.Text, primary_key=True),
    sa.Column("game_id", sa.Text, nullable=False),
    sa.Column("seat", sa.Integer),
    sa.Column("expires_at", UtcDateTime, nullable=False),
    sa.Column("used_at", UtcDateTime),
    sa.Index(None, "expires_at"),
)

#: Each game's next deadline (a turn's clock running out, or abandonment for want of a move), written
#: by the append that sets it, in the same transaction; the scheduler of any serving process claims
#: the due ones. `version` is the game's version when it was set.
deadlines = sa.Table(
    "deadlines",
    metadata,
    sa.Column("game_id", sa.Text, primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("due_at", UtcDateTime, nullable=False),
    #: Until when a scheduler acts on the game (services/scheduler.py); appends never write it.
    sa.Column("claimed_until", UtcDateTime, nullable=True),
    sa.Index(None, "due_at"),
)


# --- Matchmaking (services/matchmaking.py): queues, the people waiting in them, the games they form --

#: One queue per app, game and options (`queue_key`: the game and a digest of its options). Its
#: matching takes the row's lock (`FOR UPDATE SKIP LOCKED`): one process at a time matches a queue.
#: `due_at` is when to match it next (a join makes it now; a bot's wait or a widening window later;
#: NULL: not until someone joins).
queues = sa.Table(
    "queues",
    metadata,
    sa.Column("app_id", sa.Text, primary_key=True),
    sa.Column("queue_key", sa.Text, primary_key=True),
    sa.Column("game", sa.Text, nullable=False),
    #: The options as canonical JSON: every game the queue forms is created with them.
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("due_at", UtcDateTime),
    sa.Index(None, "due_at"),
)

#: A player's place in a queue: `waiting`, then `matched` (with its game, seat and seat token) or `left`.
queue_entries = sa.Table(
    "queue_entries",
    metadata,
    sa.Column("entry_id", sa.Text, primary_key=True),
    sa.Column("app_id", sa.Text, nullable=False),
    sa.Column("queue_key", sa.Text, nullable=False),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("player_id", sa.Text, nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("min_players", sa.Integer, nullable=False),
    sa.Column("max_players", sa.Integer, nullable=False),
    #: The player's rating when they joined (NULL: not rated yet), their window then and its widening.
    sa.Column("rating", sa.Double),
    sa.Column("rating_window", sa.Double, nullable=False),
    sa.Column("widening", sa.Double, nullable=False),
    #: The bot that fills the player's game after `bots_after_seconds` of waiting (NULL: people only).
    sa.Column("bot", sa.Text),
    sa.Column("bots_after_seconds", sa.Double),
    sa.Column("joined_at", UtcDateTime, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("game_id", sa.Text),
    sa.Column("seat", sa.Integer),
    #: The matched seat's token, kept (as a webhook's secret is) so that its owner reads it again.
    sa.Column("seat_token", sa.Text),
    #: The join's `Idempotency-Key`: a join sent again with it answers this entry.
    sa.Column("idempotency_key", sa.Text),
    sa.Index(None, "app_id", "queue_key", "status", "joined_at"),
    sa.Index("uq_queue_entries_idempotency_key", "app_id", "idempotency_key", unique=True),
    #: A player waits in one queue of an app at a time.
    sa.Index(
        "uq_queue_entries_waiting_player",
        "app_id",
        "player_id",
        unique=True,
        sqlite_where=sa.text("status = 'waiting'"),
        postgresql_where=sa.text("status = 'waiting'"),
    ),
)

#: A game a queue formed, written with its entries' `matched` in the matching transaction and created
#: after it (through the ordinary use case, under this id); `due_at` is the claim of the process that
#: creates it (the deadlines' claim and lease: another process takes it over once the lease ran out),
#: NULL once the game exists.
queue_matches = sa.Table(
    "queue_matches",
    metadata,
    sa.Column("game_id", sa.Text, primary_key=True),
    sa.Column("app_id", sa.Text, nullable=False),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    #: The bots that fill the seats after the people's, as a JSON list of bot names.
    sa.Column("bots", sa.Text, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.Column("due_at", UtcDateTime),
    sa.Index(None, "due_at"),
)

# --- Webhooks (services/webhooks.py): a seat's subscriptions and their transactional outbox ------

webhooks = sa.Table(
    "webhooks",
    metadata,
    sa.Column("webhook_id", sa.Text, primary_key=True),
    sa.Column("game_id", sa.Text, nullable=False),
    #: The seat that registered it (NULL: the app that owns the game): only its token (or the app's
    #: key) may read its deliveries or remove it.
    sa.Column("seat", sa.Integer),
    sa.Column("url", sa.Text, nullable=False),
    #: Kept as given: every delivery is signed with it.
    sa.Column("secret", sa.Text, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.Index(None, "game_id"),
)

#: What each webhook is sent: the append joins its game's moments (`turn`, `finished`) to these rows.
webhook_events = sa.Table(
    "webhook_events",
    metadata,
    sa.Column("game_id", sa.Text, primary_key=True),
    sa.Column("event", sa.Text, primary_key=True),
    sa.Column("webhook_id", sa.Text, primary_key=True),
)

#: The outbox: one row per webhook and moment, written in the transaction of the events that caused it.
webhook_deliveries = sa.Table(
    "webhook_deliveries",
    metadata,
    sa.Column(
        "delivery_id",
        sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
        sa.Identity(always=True),
        primary_key=True,
    ),
    sa.Column("webhook_id", sa.Text, nullable=False),
    sa.Column("game_id", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("event", sa.Text, nullable=False),
    #: The exact bytes POSTed (and signed), as text.
    sa.Column("body", sa.Text, nullable=False),
    #: `pending` until a 2xx answer (`delivered`) or the end of the retry period (`failed`).
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("next_attempt_at", UtcDateTime, nullable=False),
    #: A worker that claimed the delivery owns it until then (a worker that died loses it then).
    sa.Column("claimed_until", UtcDateTime),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.Column("finished_at", UtcDateTime),
    sa.UniqueConstraint("webhook_id", "version"),
    sa.Index(None, "status", "next_attempt_at"),
    sqlite_autoincrement=True,
)

webhook_attempts = sa.Table(
    "webhook_attempts",
    metadata,
    sa.Column("delivery_id", sa.BigInteger, primary_key=True),
    sa.Column("attempt", sa.Integer, primary_key=True),
    sa.Column("attempted_at", UtcDateTime, nullable=False),
    #: The receiver's HTTP status; NULL when no answer came (refused, timed out, unreachable).
    sa.Column("status_code", sa.Integer),
    sa.Column("latency_ms", sa.Integer, nullable=False),
    sa.Column("error", sa.Text),
    #: The start of the receiver's answer.
    sa.Column("answer", sa.Text),
)


# --- Players across games (services/players.py): their tokens and their feed --------------------

#: Short-lived tokens an app gives its player's browser (`kaiten_player_<token_id>_<secret>`).
player_tokens = sa.Table(
    "player_tokens",
    metadata,
    sa.Column("token_id", sa.Text, primary_key=True),
    sa.Column("app_id", sa.Text, nullable=False),
    sa.Column("person_id", sa.Text, nullable=False, index=True),
    #: SHA-256 hex of the whole token, which is shown once and never kept.
    sa.Column("token_hash", sa.Text, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.Column("expires_at", UtcDateTime, nullable=False, index=True),
)

#: Each person's last feed number: the append that adds to a person's feed updates this row, whose lock
#: it holds until it commits, so a person's items are numbered in the order they commit.
player_feed_heads = sa.Table(
    "player_feed_heads",
    metadata,
    sa.Column("person_id", sa.Text, primary_key=True),
    sa.Column("last_seq", sa.BigInteger, nullable=False),
)

#: What concerns each person across games (`game-started`, `your-turn`...), written in the transaction
#: of the events that caused it (an outbox, as webhook deliveries are); `seq` is the SSE id.
player_feed = sa.Table(
    "player_feed",
    metadata,
    sa.Column("person_id", sa.Text, primary_key=True),
    sa.Column("seq", sa.BigInteger, primary_key=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("game_id", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    #: The item as JSON (services/players.py PlayerItem), the same bytes a player webhook is sent.
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
)

#: Seasons an app defines (issue 29 §3): a named window of time. Every finished game of the app whose
#: end falls in the window is rated again in the season, where every player starts anew; the
#: statistics projection keeps those ratings (season_stats). A season is defined once, never changed.
seasons = sa.Table(
    "seasons",
    metadata,
    sa.Column("app_id", sa.Text, primary_key=True),
    sa.Column("season_id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("starts_at", UtcDateTime, nullable=False),
    sa.Column("ends_at", UtcDateTime, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
)


# --- Catch-up projections (adapters/projections): disposable, rebuilt from the log ----------------

#: Where each projection has got to in the global log, written in the same transaction as its
#: read models. On PostgreSQL the position is `(tx_id, global_position)` of the last event applied;
#: on SQLite, whose commit order is the position order, `tx_id` stays 0.
projection_checkpoints = sa.Table(
    "projection_checkpoints",
    metadata,
    sa.Column("name", sa.Text, primary_key=True),
    sa.Column("tx_id", sa.BigInteger, nullable=False, server_default=sa.text("0")),
    sa.Column("global_position", sa.BigInteger, nullable=False, server_default=sa.text("0")),
    #: Events applied since the projection was last rebuilt.
    sa.Column("events", sa.BigInteger, nullable=False, server_default=sa.text("0")),
)

#: Events a projection could not apply, set aside so that it goes on with the next ones (each until
#: `kaiten projections retry` applies it, after a fix): by projection and the event's place in the log.
projection_quarantine = sa.Table(
    "projection_quarantine",
    metadata,
    sa.Column("name", sa.Text, primary_key=True),
    sa.Column("global_position", sa.BigInteger, primary_key=True),
    sa.Column("stream_id", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("type", sa.Text, nullable=False),
    #: Why it could not be applied (the exception, shortened).
    sa.Column("error", sa.Text, nullable=False),
    sa.Column("quarantined_at", UtcDateTime, nullable=False),
)

# Match history ("history" projection): one row per game, newest first by the time of GameCreated,
# by the app that owns it.
match_history = sa.Table(
    "match_history",
    metadata,
    sa.Column("game_id", sa.Text, primary_key=True),
    sa.Column("app_id", sa.Text, nullable=False),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    #: The seats as the table holds them (people as their person ids).
    sa.Column("seats", JSON_VALUE, nullable=False),
    #: `private` games are listed to their app alone.
    sa.Column("visibility", sa.Text, nullable=False, server_default="public"),
    #: Stored from a log (importLog), not played here.
    sa.Column("imported", sa.Boolean, nullable=False, server_default=sa.false()),
    #: The finished game's result (scores, winners, ranking), else NULL.
    sa.Column("result", JSON_VALUE),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.Column("finished_at", UtcDateTime),
    # Keyset pagination newest first, by each combination of the filters; game_id breaks ties.
    sa.Index(None, "app_id", "created_at", "game_id"),
    sa.Index(None, "app_id", "game", "created_at", "game_id"),
    sa.Index(None, "app_id", "status", "created_at", "game_id"),
    sa.Index(None, "app_id", "game", "status", "created_at", "game_id"),
)

#: The games each person sat in, for the player filter.
match_players = sa.Table(
    "match_players",
    metadata,
    sa.Column("person_id", sa.Text, primary_key=True),
    sa.Column("game_id", sa.Text, primary_key=True),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.Index(None, "person_id", "created_at", "game_id"),
)


# Statistics ("statistics" projection), over finished games played here, by namespace: an app's own
# (`scope` all) and what anybody may see of it (`scope` public: its public games alone). Sums are
# kept, not means, so that applying one more game is an addition and the API derives means and rates
# when it answers.
def _namespaced(name: str, *items: sa.Column[Any] | sa.Index) -> sa.Table:
    """A statistics table: its rows by app, and by `scope` (services.ports.Namespace)."""
    namespace = (sa.Column("app_id", sa.Text, primary_key=True), sa.Column("scope", sa.Text, primary_key=True))
    return sa.Table(name, metadata, *namespace, *items)


def _player_columns() -> list[sa.Column[Any]]:
    """A player's sums and rating in one game of the catalog: all-time (player_stats) or in a season."""
    return [
        #: The player's person id (services/people.py).
        sa.Column("person_id", sa.Text, primary_key=True),
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("score_sum", sa.BigInteger, nullable=False),
        sa.Column("best_score", sa.Integer, nullable=False),
        #: Games that changed the rating (those with another rated player at the table).
        sa.Column("rated_games", sa.Integer, nullable=False),
        #: Finished games the player left before the end (resigned: ranked last).
        sa.Column("resigned", sa.Integer, nullable=False, server_default=sa.text("0")),
        # The openskill (Plackett-Luce) rating and its conservative value mu - 3 sigma.
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("rating", sa.Double, nullable=False),
    ]


player_stats = _namespaced(
    "player_stats", *_player_columns(), sa.Index(None, "app_id", "scope", "game", "rating", "person_id")
)

#: The same per season (the seasons table): the season's games alone, rated from a new player's rating.
season_stats = _namespaced(
    "season_stats",
    sa.Column("season_id", sa.Text, primary_key=True),
    *_player_columns(),
    sa.Index(None, "app_id", "scope", "season_id", "game", "rating", "person_id"),
)

#: The seasons whose games the projection has counted: a season it has not met yet is first counted
#: from the games it applied before (the season was defined while they were projected, or after).
seasons_counted = sa.Table(
    "seasons_counted",
    metadata,
    sa.Column("app_id", sa.Text, primary_key=True),
    sa.Column("season_id", sa.Text, primary_key=True),
)

#: A player's rating after each game that moved it (issue 29 §3), one row per player and game, numbered
#: in the order the ratings fold applied them (`seq` is the player's rated_games after that game).
rating_history = _namespaced(
    "rating_history",
    sa.Column("person_id", sa.Text, primary_key=True),
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    #: The finished game (its stream id), and when its GameFinished was recorded.
    sa.Column("game_id", sa.Text, nullable=False),
    sa.Column("finished_at", UtcDateTime, nullable=False),
    # The conservative rating before and after that game, and openskill's mu and sigma after it.
    sa.Column("rating_before", sa.Double, nullable=False),
    sa.Column("rating_after", sa.Double, nullable=False),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
)

game_stats = _namespaced(
    "game_stats",
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("games", sa.Integer, nullable=False),
    #: Seats of finished games (every seat: people, anonymous and bots).
    sa.Column("player_games", sa.BigInteger, nullable=False),
    sa.Column("score_sum", sa.BigInteger, nullable=False),
    #: The winners' total of each game, summed.
    sa.Column("winning_score_sum", sa.BigInteger, nullable=False),
    sa.Column("picks", sa.BigInteger, nullable=False),
    #: Seats of finished games whose people resigned before the end.
    sa.Column("resigned_seats", sa.BigInteger, nullable=False, server_default=sa.text("0")),
)
#: The sums of game_stats, one per column: what each finished game adds to.
GAME_SUMS = tuple(column.name for column in game_stats.columns if column.name not in ("app_id", "scope", "game"))

game_seat_stats = _namespaced(
    "game_seat_stats",
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("players", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
)

game_score_counts = _namespaced(
    "game_score_counts",
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("score", sa.Integer, primary_key=True),
    #: Seats that finished a game with this total.
    sa.Column("seats", sa.BigInteger, nullable=False),
)

game_category_points = _namespaced(
    "game_category_points",
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("category", sa.Text, primary_key=True),
    sa.Column("points", sa.BigInteger, nullable=False),
)

game_card_picks = _namespaced(
    "game_card_picks",
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("slug", sa.Text, primary_key=True),
    sa.Column("picks", sa.BigInteger, nullable=False),
)


def include_object(dialect_name: str) -> Callable[[Any, str | None, str, bool, Any], bool]:
    """Alembic's autogenerate filter for that dialect: leaves the other dialect's objects out."""

    def include(item: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
        dialects: tuple[str, ...] | None = item.info.get("dialects")
        return dialects is None or dialect_name in dialects

    return include
