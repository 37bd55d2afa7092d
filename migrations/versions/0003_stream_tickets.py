"""Stream tickets: single-use credentials for following a game as a seat from a browser.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "stream_tickets",
        sa.Column("ticket_hash", sa.Text, nullable=False),
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("expires_at", TIMESTAMP, nullable=False),
        sa.Column("used_at", TIMESTAMP),
        sa.PrimaryKeyConstraint("ticket_hash", name="pk_stream_tickets"),
    )
    op.create_index("ix_stream_tickets_expires_at", "stream_tickets", ["expires_at"])


def downgrade() -> None:
    op.drop_table("stream_tickets")
