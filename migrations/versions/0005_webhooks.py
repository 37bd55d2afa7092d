"""Webhooks (subscriptions of a game's seats, the transactional outbox of their deliveries) and the
visibility of games in the match history (private games are not listed).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("webhook_id", sa.Text, nullable=False),
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("url", sa.Text, nullable=False),
        sa.Column("secret", sa.Text, nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("webhook_id", name="pk_webhooks"),
    )
    op.create_index("ix_webhooks_game_id", "webhooks", ["game_id"])
    op.create_table(
        "webhook_events",
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("webhook_id", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "event", "webhook_id", name="pk_webhook_events"),
    )
    op.create_table(
        "webhook_deliveries",
        sa.Column(
            "delivery_id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            sa.Identity(always=True),
            nullable=False,
        ),
        sa.Column("webhook_id", sa.Text, nullable=False),
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", TIMESTAMP, nullable=False),
        sa.Column("claimed_until", TIMESTAMP),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("finished_at", TIMESTAMP),
        sa.PrimaryKeyConstraint("delivery_id", name="pk_webhook_deliveries"),
        sa.UniqueConstraint("webhook_id", "version", name="uq_webhook_deliveries_webhook_id_version"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_webhook_deliveries_status_next_attempt_at", "webhook_deliveries", ["status", "next_attempt_at"])
    op.create_table(
        "webhook_attempts",
        sa.Column("delivery_id", sa.BigInteger, nullable=False),
        sa.Column("attempt", sa.Integer, nullable=False),
        sa.Column("attempted_at", TIMESTAMP, nullable=False),
        sa.Column("status_code", sa.Integer),
        sa.Column("latency_ms", sa.Integer, nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("answer", sa.Text),
        sa.PrimaryKeyConstraint("delivery_id", "attempt", name="pk_webhook_attempts"),
    )

    op.add_column("match_history", sa.Column("visibility", sa.Text, nullable=False, server_default="public"))


def downgrade() -> None:
    with op.batch_alter_table("match_history") as batch:
        batch.drop_column("visibility")
    for table in ("webhook_attempts", "webhook_deliveries", "webhook_events", "webhooks"):
        op.drop_table(table)
