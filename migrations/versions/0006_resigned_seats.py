"""How many seats of each game's finished games were resigned; the statistics are folded again to
count the resignations of the games finished before.

The statistics tables are a projection of the log: emptying them and moving the projection's
checkpoint back to the start makes the next serving process fold every finished game again, into
the new column too.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
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
    op.add_column("game_stats", sa.Column("resigned_seats", sa.BigInteger, nullable=False, server_default="0"))
    for table in STATISTICS_TABLES:
        op.execute(sa.text(f"DELETE FROM {table}"))
    rewind = "UPDATE projection_checkpoints SET tx_id = 0, global_position = 0, events = 0 WHERE name = 'statistics'"
    op.execute(sa.text(rewind))


def downgrade() -> None:
    op.drop_column("game_stats", "resigned_seats")
