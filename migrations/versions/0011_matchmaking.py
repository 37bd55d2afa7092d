"""Matchmaking queues (issue 29 §2): the queues, the people waiting in them, and the games they form.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "queues",
        sa.Column("app_id", sa.Text, nullable=False),
        sa.Column("queue_key", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("app_id", "queue_key", name="pk_queues"),
    )
    op.create_index("ix_queues_due_at", "queues", ["due_at"])
    op.create_table(
        "queue_entries",
        sa.Column("entry_id", sa.Text, nullable=False),
        sa.Column("app_id", sa.Text, nullable=False),
        sa.Column("queue_key", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("player_id", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("min_players", sa.Integer, nullable=False),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("rating", sa.Double),
        sa.Column("rating_window", sa.Double, nullable=False),
        sa.Column("widening", sa.Double, nullable=False),
        sa.Column("bot", sa.Text),
        sa.Column("bots_after_seconds", sa.Double),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("game_id", sa.Text),
        sa.Column("seat", sa.Integer),
        sa.Column("seat_token", sa.Text),
        sa.Column("idempotency_key", sa.Text),
        sa.PrimaryKeyConstraint("entry_id", name="pk_queue_entries"),
    )
    op.create_index(
        "ix_queue_entries_app_id_queue_key_status_joined_at",
        "queue_entries",
        ["app_id", "queue_key", "status", "joined_at"],
    )
    op.create_index("uq_queue_entries_idempotency_key", "queue_entries", ["app_id", "idempotency_key"], unique=True)
    op.create_index(
        "uq_queue_entries_waiting_player",
        "queue_entries",
        ["app_id", "player_id"],
        unique=True,
        sqlite_where=sa.text("status = 'waiting'"),
        postgresql_where=sa.text("status = 'waiting'"),
    )
    op.create_table(
        "queue_matches",
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("app_id", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("bots", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("game_id", name="pk_queue_matches"),
    )
    op.create_index("ix_queue_matches_due_at", "queue_matches", ["due_at"])


def downgrade() -> None:
    op.drop_table("queue_matches")
    op.drop_table("queue_entries")
    op.drop_table("queues")
