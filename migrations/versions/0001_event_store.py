"""Event store: the events log, idempotency keys and the games read model.

Revision ID: 0001
Revises:
Create Date: 2025-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TEXT = sa.Text().with_variant(JSONB(), "postgresql")
JSON_VALUE = sa.JSON().with_variant(JSONB(), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)

# Statement-level: refuses even an UPDATE or DELETE that matches no row, and TRUNCATE, which row
# triggers never see.
POSTGRES_IMMUTABLE_EVENTS = """
CREATE FUNCTION events_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are immutable: % on events refused', TG_OP
        USING HINT = 'append new events instead; read models are rebuilt from the log';
END
$$;
CREATE TRIGGER events_immutable BEFORE UPDATE OR DELETE OR TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_immutable();
"""

SQLITE_IMMUTABLE_EVENTS = (
    """CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are immutable: UPDATE on events refused'); END""",
    """CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'events are immutable: DELETE on events refused'); END""",
)


def upgrade() -> None:
    postgres = op.get_context().dialect.name == "postgresql"
    op.create_table(
        "events",
        sa.Column(
            "global_position",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            sa.Identity(always=True),
        ),
        sa.Column("stream_id", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("type", sa.Text, nullable=False),
        sa.Column("schema_version", sa.Integer, nullable=False, server_default=sa.text("1")),
        sa.Column("data", JSON_TEXT, nullable=False),
        sa.Column("metadata", JSON_TEXT, nullable=False),
        sa.Column("recorded_at", TIMESTAMP, nullable=False),
        sa.Column("idempotency_key", sa.Text),
        sa.PrimaryKeyConstraint("global_position", name="pk_events"),
        sa.UniqueConstraint("stream_id", "version", name="uq_events_stream_id_version"),
        sa.CheckConstraint("version >= 1", name=op.f("ck_events_version_positive")),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "idempotency_keys",
        sa.Column("stream_id", sa.Text, nullable=False),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("first_version", sa.Integer, nullable=False),
        sa.Column("last_version", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("stream_id", "key", name="pk_idempotency_keys"),
    )
    op.create_table(
        "games",
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", JSON_VALUE, nullable=False),
        sa.Column("seats", JSON_VALUE, nullable=False),
        sa.Column("awaiting", JSON_VALUE, nullable=False),
        sa.Column("result", JSON_VALUE),
        sa.Column("token_hashes", JSON_VALUE, nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("updated_at", TIMESTAMP, nullable=False),
        sa.Column("finished_at", TIMESTAMP),
        sa.PrimaryKeyConstraint("game_id", name="pk_games"),
    )
    op.create_index("ix_games_game_status_created_at_game_id", "games", ["game", "status", "created_at", "game_id"])
    op.create_index("ix_games_created_at_game_id", "games", ["created_at", "game_id"])
    if postgres:
        op.execute("ALTER TABLE events ADD COLUMN tx_id xid8 NOT NULL DEFAULT pg_current_xact_id()")
        op.create_index("ix_events_tx_id_global_position", "events", ["tx_id", "global_position"])
        op.create_index(
            "ix_games_seats_gin",
            "games",
            ["seats"],
            postgresql_using="gin",
            postgresql_ops={"seats": "jsonb_path_ops"},
        )
        op.execute(POSTGRES_IMMUTABLE_EVENTS)
    else:
        for trigger in SQLITE_IMMUTABLE_EVENTS:
            op.execute(trigger)


def downgrade() -> None:
    op.drop_table("games")
    op.drop_table("idempotency_keys")
    # Dropping the table drops its triggers on both dialects.
    op.drop_table("events")
    if op.get_context().dialect.name == "postgresql":
        op.execute("DROP FUNCTION events_are_immutable()")
