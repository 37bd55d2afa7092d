"""Deadlines: when the scheduler must next look at each game (a turn's clock, or abandonment); and
how many finished games each player left before the end.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "deadlines",
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("due_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("game_id", name="pk_deadlines"),
    )
    op.create_index("ix_deadlines_due_at", "deadlines", ["due_at"])
    op.add_column("player_stats", sa.Column("resigned", sa.Integer, nullable=False, server_default=sa.text("0")))


def downgrade() -> None:
    op.drop_column("player_stats", "resigned")
    op.drop_table("deadlines")
