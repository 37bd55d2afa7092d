"""Apps and their keys; the people at the tables, kept beside the log; read models by app.

- `apps` and `app_keys`: every record now has an owner, an app. The built-in app owns everything
  kept before (and everything an open server makes): `games.app_id` defaults to it.
- Webhooks registered by an app (no seat), and stream tickets of spectators (no seat).
- `people`: a seat's person is a reference in the log; their name and the app's player_id for them
  live here, where an erasure deletes them. SeatTaken events recorded before held the name and the
  player_id themselves: this revision moves them out, once, into the built-in app's people (a player
  per player_id, a guest per seat without one), and leaves the events holding the references, as
  every new SeatTaken does. It is the one rewrite of stored events kaiten makes: the one way erasure
  can reach what was recorded before it existed. Nothing else of any event changes, and every game
  replays to the same tables (names are shown from the people).
- The summaries' seats (`games.seats`) hold references too.
- The catch-up read models are keyed by app (and statistics by what the app sees and what anybody
  sees): they are emptied and their checkpoints rewound, so the next serving process rebuilds them.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import context, op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_VALUE = sa.JSON().with_variant(JSONB(), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)
ZERO = sa.text("0")
BUILTIN_APP = "00000000-0000-4000-8000-000000000000"
BUILTIN_NAME = "built-in"

STATISTICS = (
    "player_stats",
    "game_stats",
    "game_seat_stats",
    "game_score_counts",
    "game_category_points",
    "game_card_picks",
)
READ_MODELS = ("match_history", "match_players", *STATISTICS)

SQLITE_NO_UPDATE = """CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are immutable: UPDATE on events refused'); END"""


def upgrade() -> None:
    op.create_table(
        "apps",
        sa.Column("app_id", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("quotas", JSON_VALUE, nullable=False),
        sa.PrimaryKeyConstraint("app_id", name="pk_apps"),
        sa.UniqueConstraint("name", name="uq_apps_name"),
    )
    op.create_table(
        "app_keys",
        sa.Column("key_id", sa.Text, nullable=False),
        sa.Column("app_id", sa.Text, nullable=False),
        sa.Column("key_hash", sa.Text, nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("expires_at", TIMESTAMP),
        sa.Column("revoked_at", TIMESTAMP),
        sa.PrimaryKeyConstraint("key_id", name="pk_app_keys"),
    )
    op.create_index("ix_app_keys_app_id", "app_keys", ["app_id"])
    op.create_table(
        "people",
        sa.Column("person_id", sa.Text, nullable=False),
        sa.Column("app_id", sa.Text, nullable=False),
        sa.Column("player_id", sa.Text),
        sa.Column("name", sa.Text),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("person_id", name="pk_people"),
        sa.UniqueConstraint("app_id", "player_id", name="uq_people_app_id_player_id"),
    )
    # A literal statement: offline (`alembic upgrade --sql`) it is printed as it is.
    op.execute(
        f"INSERT INTO apps (app_id, name, created_at, quotas) "
        f"VALUES ('{BUILTIN_APP}', '{BUILTIN_NAME}', CURRENT_TIMESTAMP, '{{}}')"
    )

    op.add_column("games", sa.Column("app_id", sa.Text, nullable=False, server_default=BUILTIN_APP))
    op.add_column("games", sa.Column("imported", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_games_app_id_imported_created_at", "games", ["app_id", "imported", "created_at"])
    op.create_index("ix_games_app_id_status", "games", ["app_id", "status"])
    # Webhooks of the app that owns the game, and stream tickets of spectators allowed to watch it.
    for table in ("webhooks", "stream_tickets"):
        with op.batch_alter_table(table) as batch:
            batch.alter_column("seat", existing_type=sa.Integer, nullable=True)

    # Offline (`alembic upgrade --sql`, for a new database) there is no data to move.
    if not context.is_offline_mode():
        connection = op.get_bind()
        _mark_imported(connection)
        _move_people_out_of_events(connection, datetime.now(UTC))

    for table in READ_MODELS:
        op.drop_table(table)
    _create_read_models()
    _rewind()


def downgrade() -> None:
    connection = op.get_bind()
    _move_people_into_events(connection)
    for table in READ_MODELS:
        op.drop_table(table)
    _create_read_models_of_0006()
    _rewind()
    connection.execute(
        sa.text("DELETE FROM webhook_events WHERE webhook_id IN (SELECT webhook_id FROM webhooks WHERE seat IS NULL)")
    )
    connection.execute(sa.text("DELETE FROM webhooks WHERE seat IS NULL"))
    with op.batch_alter_table("webhooks") as batch:
        batch.alter_column("seat", existing_type=sa.Integer, nullable=False)
    op.drop_index("ix_games_app_id_status", "games")
    op.drop_index("ix_games_app_id_imported_created_at", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("imported")
        batch.drop_column("app_id")
    op.drop_table("people")
    op.drop_index("ix_app_keys_app_id", "app_keys")
    op.drop_table("app_keys")
    op.drop_table("apps")


# --- data -------------------------------------------------------------------------------------


def _json(value: Any) -> Any:
    """A JSON column's value as read: PostgreSQL's JSONB arrives decoded, SQLite's text does not."""
    return json.loads(value) if isinstance(value, str) else value


def _mark_imported(connection: sa.Connection) -> None:
    """A game whose first event's metadata says where it was imported from is an imported game."""
    rows = connection.execute(sa.text("SELECT stream_id, CAST(metadata AS TEXT) FROM events WHERE version = 1"))
    imported = [{"game_id": stream_id} for stream_id, metadata in rows if "imported_from" in json.loads(metadata)]
    if imported:
        connection.execute(sa.text("UPDATE games SET imported = TRUE WHERE game_id = :game_id"), imported)


def _move_people_out_of_events(connection: sa.Connection, now: datetime) -> None:
    """Each SeatTaken that names a person names their reference instead; the people are the
    built-in app's: one per player_id (with the name they last sat down with), one per guest seat."""
    players: dict[str, str] = {}
    names: dict[str, str | None] = {}
    guests: set[str] = set()
    rewritten: list[dict[str, Any]] = []
    seats: dict[str, dict[int, dict[str, Any]]] = {}
    for position, stream_id, data in _seat_events(connection):
        if data.get("bot") is not None or (data.get("name") is None and data.get("player_id") is None):
            continue
        player_id = data.get("player_id")
        if player_id is None:
            person = str(uuid.uuid4())
            guests.add(person)
        else:
            person = players.setdefault(player_id, str(uuid.uuid4()))
        names[person] = data.get("name")
        reference = {
            "type": "SeatTaken",
            "seat": data["seat"],
            "person": person,
            **({"guest": True} if player_id is None else {}),
        }
        rewritten.append({"position": position, "data": json.dumps(reference)})
        seats.setdefault(stream_id, {})[data["seat"]] = reference
    people = sa.table(
        "people",
        sa.column("person_id"),
        sa.column("app_id"),
        sa.column("player_id"),
        sa.column("name"),
        sa.column("created_at"),
    )
    by_person = {person: player_id for player_id, person in players.items()}
    rows = [
        {
            "person_id": person,
            "app_id": BUILTIN_APP,
            "player_id": by_person.get(person),
            "name": name,
            "created_at": now,
        }
        for person, name in names.items()
    ]
    if rows:
        op.bulk_insert(people, rows)
    _rewrite_events(connection, rewritten)
    _rewrite_summaries(connection, lambda game_id, seat: _seat_with_reference(seat, seats.get(game_id, {})))


def _move_people_into_events(connection: sa.Connection) -> None:
    """The downgrade: each SeatTaken names its person again (an erased one by a neutral label)."""
    people = {
        person: (player_id, name)
        for person, player_id, name in connection.execute(sa.text("SELECT person_id, player_id, name FROM people"))
    }
    rewritten: list[dict[str, Any]] = []
    seats: dict[str, dict[int, dict[str, Any]]] = {}
    for position, stream_id, data in _seat_events(connection):
        person = data.get("person")
        if person is None:
            continue
        player_id, name = people.get(person, (None, f"Player {data['seat'] + 1}"))
        inline = {"type": "SeatTaken", "seat": data["seat"], "name": name, "player_id": player_id, "bot": None}
        rewritten.append({"position": position, "data": json.dumps(inline)})
        seats.setdefault(stream_id, {})[data["seat"]] = inline
    _rewrite_events(connection, rewritten)
    _rewrite_summaries(connection, lambda game_id, seat: _seat_with_names(seat, seats.get(game_id, {})))


def _seat_events(connection: sa.Connection) -> list[tuple[int, str, dict[str, Any]]]:
    rows = connection.execute(
        sa.text(
            "SELECT global_position, stream_id, CAST(data AS TEXT) FROM events "
            "WHERE type = 'SeatTaken' ORDER BY global_position"
        )
    )
    return [(position, stream_id, json.loads(data)) for position, stream_id, data in rows]


def _rewrite_events(connection: sa.Connection, rewritten: list[dict[str, Any]]) -> None:
    """Events refuse every change (a trigger): it is lifted for this statement's rows alone."""
    if not rewritten:
        return
    postgres = connection.dialect.name == "postgresql"
    if postgres:
        connection.execute(sa.text("ALTER TABLE events DISABLE TRIGGER events_immutable"))
        update = sa.text("UPDATE events SET data = CAST(:data AS JSONB) WHERE global_position = :position")
    else:
        connection.execute(sa.text("DROP TRIGGER events_no_update"))
        update = sa.text("UPDATE events SET data = :data WHERE global_position = :position")
    connection.execute(update, rewritten)
    if postgres:
        connection.execute(sa.text("ALTER TABLE events ENABLE TRIGGER events_immutable"))
    else:
        connection.execute(sa.text(SQLITE_NO_UPDATE))


def _rewrite_summaries(connection: sa.Connection, shown: Callable[[str, dict[str, Any]], dict[str, Any]]) -> None:
    games = sa.table("games", sa.column("game_id"), sa.column("seats", JSON_VALUE))
    changed = []
    for game_id, seats in connection.execute(sa.select(games.c.game_id, games.c.seats)):
        new = [shown(game_id, seat) for seat in _json(seats)]
        if new != _json(seats):
            changed.append({"id": game_id, "seats": new})
    if changed:
        connection.execute(
            sa.update(games).where(games.c.game_id == sa.bindparam("id")).values(seats=sa.bindparam("seats")), changed
        )


def _seat_with_reference(seat: dict[str, Any], references: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """A summary's seat as the tables hold it now: nothing at its defaults, a person by reference."""
    reference = references.get(seat["seat"], {})
    kept = {key: value for key, value in seat.items() if key not in ("name", "player_id") or not reference}
    kept.update({key: value for key, value in reference.items() if key in ("person", "guest")})
    defaults = {"name": None, "player_id": None, "bot": None, "resigned": False, "taken_over_by": None}
    return {key: value for key, value in kept.items() if key not in defaults or defaults[key] != value}


def _seat_with_names(seat: dict[str, Any], inline: dict[int, dict[str, Any]]) -> dict[str, Any]:
    named = {key: value for key, value in seat.items() if key not in ("person", "guest")}
    if seat["seat"] in inline:
        named.update(name=inline[seat["seat"]]["name"], player_id=inline[seat["seat"]]["player_id"])
    return {"name": None, "player_id": None, "bot": None, **named}


def _rewind() -> None:
    """The catch-up projections fold the whole log again at the next serving process's start."""
    op.execute(
        sa.text(
            "UPDATE projection_checkpoints SET tx_id = 0, global_position = 0, events = 0 "
            "WHERE name IN ('history', 'statistics')"
        )
    )


# --- the read models, by app, and as revision 0006 left them -----------------------------------


def _namespaced(name: str, *columns: sa.Column[Any], key: Sequence[str]) -> None:
    op.create_table(
        name,
        sa.Column("app_id", sa.Text, nullable=False),
        sa.Column("scope", sa.Text, nullable=False),
        *columns,
        sa.PrimaryKeyConstraint("app_id", "scope", *key, name=f"pk_{name}"),
    )


def _statistics_columns(player: str) -> dict[str, tuple[list[sa.Column[Any]], list[str]]]:
    return {
        "player_stats": (
            [
                sa.Column(player, sa.Text, nullable=False),
                sa.Column("game", sa.Text, nullable=False),
                sa.Column("played", sa.Integer, nullable=False),
                sa.Column("wins", sa.Integer, nullable=False),
                sa.Column("score_sum", sa.BigInteger, nullable=False),
                sa.Column("best_score", sa.Integer, nullable=False),
                sa.Column("rated_games", sa.Integer, nullable=False),
                sa.Column("resigned", sa.Integer, nullable=False, server_default=ZERO),
                sa.Column("mu", sa.Double, nullable=False),
                sa.Column("sigma", sa.Double, nullable=False),
                sa.Column("rating", sa.Double, nullable=False),
            ],
            [player, "game"],
        ),
        "game_stats": (
            [
                sa.Column("game", sa.Text, nullable=False),
                sa.Column("games", sa.Integer, nullable=False),
                sa.Column("player_games", sa.BigInteger, nullable=False),
                sa.Column("score_sum", sa.BigInteger, nullable=False),
                sa.Column("winning_score_sum", sa.BigInteger, nullable=False),
                sa.Column("picks", sa.BigInteger, nullable=False),
                sa.Column("resigned_seats", sa.BigInteger, nullable=False, server_default=ZERO),
            ],
            ["game"],
        ),
        "game_seat_stats": (
            [
                sa.Column("game", sa.Text, nullable=False),
                sa.Column("players", sa.Integer, nullable=False),
                sa.Column("seat", sa.Integer, nullable=False),
                sa.Column("games", sa.Integer, nullable=False),
                sa.Column("wins", sa.Integer, nullable=False),
            ],
            ["game", "players", "seat"],
        ),
        "game_score_counts": (
            [
                sa.Column("game", sa.Text, nullable=False),
                sa.Column("score", sa.Integer, nullable=False),
                sa.Column("seats", sa.BigInteger, nullable=False),
            ],
            ["game", "score"],
        ),
        "game_category_points": (
            [
                sa.Column("game", sa.Text, nullable=False),
                sa.Column("category", sa.Text, nullable=False),
                sa.Column("points", sa.BigInteger, nullable=False),
            ],
            ["game", "category"],
        ),
        "game_card_picks": (
            [
                sa.Column("game", sa.Text, nullable=False),
                sa.Column("slug", sa.Text, nullable=False),
                sa.Column("picks", sa.BigInteger, nullable=False),
            ],
            ["game", "slug"],
        ),
    }


def _match_history(*by_app: sa.Column[Any]) -> None:
    op.create_table(
        "match_history",
        sa.Column("game_id", sa.Text, nullable=False),
        *by_app,
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seats", JSON_VALUE, nullable=False),
        sa.Column("visibility", sa.Text, nullable=False, server_default="public"),
        *(() if not by_app else (sa.Column("imported", sa.Boolean, nullable=False, server_default=sa.false()),)),
        sa.Column("result", JSON_VALUE),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("finished_at", TIMESTAMP),
        sa.PrimaryKeyConstraint("game_id", name="pk_match_history"),
    )


def _create_read_models() -> None:
    _match_history(sa.Column("app_id", sa.Text, nullable=False))
    for columns in (
        ["app_id", "created_at", "game_id"],
        ["app_id", "game", "created_at", "game_id"],
        ["app_id", "status", "created_at", "game_id"],
        ["app_id", "game", "status", "created_at", "game_id"],
    ):
        op.create_index(f"ix_match_history_{'_'.join(columns)}", "match_history", columns)
    op.create_table(
        "match_players",
        sa.Column("person_id", sa.Text, nullable=False),
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("person_id", "game_id", name="pk_match_players"),
    )
    op.create_index(
        "ix_match_players_person_id_created_at_game_id", "match_players", ["person_id", "created_at", "game_id"]
    )
    for name, (columns, key) in _statistics_columns("person_id").items():
        _namespaced(name, *columns, key=key)
    op.create_index(
        "ix_player_stats_app_id_scope_game_rating_person_id",
        "player_stats",
        ["app_id", "scope", "game", "rating", "person_id"],
    )


def _create_read_models_of_0006() -> None:
    _match_history()
    for columns in (
        ["created_at", "game_id"],
        ["game", "created_at", "game_id"],
        ["status", "created_at", "game_id"],
        ["game", "status", "created_at", "game_id"],
    ):
        op.create_index(f"ix_match_history_{'_'.join(columns)}", "match_history", columns)
    op.create_table(
        "match_players",
        sa.Column("player_id", sa.Text, nullable=False),
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game_id", name="pk_match_players"),
    )
    op.create_index(
        "ix_match_players_player_id_created_at_game_id", "match_players", ["player_id", "created_at", "game_id"]
    )
    for name, (columns, key) in _statistics_columns("player_id").items():
        op.create_table(name, *columns, sa.PrimaryKeyConstraint(*key, name=f"pk_{name}"))
    op.create_index("ix_player_stats_game_rating_player_id", "player_stats", ["game", "rating", "player_id"])
