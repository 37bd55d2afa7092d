"""The events a catch-up projection could not apply, set aside so that it goes on with the next ones.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "projection_quarantine",
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("global_position", sa.BigInteger, nullable=False),
        sa.Column("stream_id", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("type", sa.Text, nullable=False),
        sa.Column("error", sa.Text, nullable=False),
        sa.Column("quarantined_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", "global_position", name="pk_projection_quarantine"),
    )


def downgrade() -> None:
    op.drop_table("projection_quarantine")
