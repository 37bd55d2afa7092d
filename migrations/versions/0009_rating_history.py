"""A player's rating after each rated game (issue 29 §3), kept by the statistics projection.

The projection's checkpoint is moved back to the start in the same revision, so a serving process
applies the log again and fills the new table (its other tables are emptied with it: they are
disposable read models, rebuilt from the log the same).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STATISTICS_TABLES = (
    "player_stats",
    "game_stats",
    "game_seat_stats",
    "game_score_counts",
    "game_category_points",
    "game_card_picks",
)


def upgrade() -> None:
    op.create_table(
        "rating_history",
        sa.Column("app_id", sa.Text, nullable=False),
        sa.Column("scope", sa.Text, nullable=False),
        sa.Column("person_id", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rating_before", sa.Double, nullable=False),
        sa.Column("rating_after", sa.Double, nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("app_id", "scope", "person_id", "game", "seq", name="pk_rating_history"),
    )
    # The games finished before are folded again, into the new table too (as 0006 did).
    for table in STATISTICS_TABLES:
        op.execute(sa.text(f"DELETE FROM {table}"))
    rewind = "UPDATE projection_checkpoints SET tx_id = 0, global_position = 0, events = 0 WHERE name = 'statistics'"
    op.execute(sa.text(rewind))


def downgrade() -> None:
    op.drop_table("rating_history")
