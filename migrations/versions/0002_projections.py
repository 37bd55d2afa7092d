"""Catch-up projections: their checkpoints, match history and statistics.

Revision ID: 0002
Revises: 0001
Create Date: 2025-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_VALUE = sa.JSON().with_variant(JSONB(), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)
ZERO = sa.text("0")

#: Every table of this revision, in the order downgrade drops them.
TABLES = (
    "game_card_picks",
    "game_category_points",
    "game_score_counts",
    "game_seat_stats",
    "game_stats",
    "player_stats",
    "match_players",
    "match_history",
    "projection_checkpoints",
)


def upgrade() -> None:
    op.create_table(
        "projection_checkpoints",
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("tx_id", sa.BigInteger, nullable=False, server_default=ZERO),
        sa.Column("global_position", sa.BigInteger, nullable=False, server_default=ZERO),
        sa.Column("events", sa.BigInteger, nullable=False, server_default=ZERO),
        sa.PrimaryKeyConstraint("name", name="pk_projection_checkpoints"),
    )
    op.create_table(
        "match_history",
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seats", JSON_VALUE, nullable=False),
        sa.Column("result", JSON_VALUE),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("finished_at", TIMESTAMP),
        sa.PrimaryKeyConstraint("game_id", name="pk_match_history"),
    )
    op.create_index("ix_match_history_created_at_game_id", "match_history", ["created_at", "game_id"])
    op.create_index("ix_match_history_game_created_at_game_id", "match_history", ["game", "created_at", "game_id"])
    op.create_index("ix_match_history_status_created_at_game_id", "match_history", ["status", "created_at", "game_id"])
    op.create_index(
        "ix_match_history_game_status_created_at_game_id",
        "match_history",
        ["game", "status", "created_at", "game_id"],
    )
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
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("score_sum", sa.BigInteger, nullable=False),
        sa.Column("best_score", sa.Integer, nullable=False),
        sa.Column("rated_games", sa.Integer, nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("rating", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game", name="pk_player_stats"),
    )
    op.create_index("ix_player_stats_game_rating_player_id", "player_stats", ["game", "rating", "player_id"])
    op.create_table(
        "game_stats",
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("player_games", sa.BigInteger, nullable=False),
        sa.Column("score_sum", sa.BigInteger, nullable=False),
        sa.Column("winning_score_sum", sa.BigInteger, nullable=False),
        sa.Column("picks", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("game", name="pk_game_stats"),
    )
    op.create_table(
        "game_seat_stats",
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("game", "players", "seat", name="pk_game_seat_stats"),
    )
    op.create_table(
        "game_score_counts",
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("seats", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("game", "score", name="pk_game_score_counts"),
    )
    op.create_table(
        "game_category_points",
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("category", sa.Text, nullable=False),
        sa.Column("points", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("game", "category", name="pk_game_category_points"),
    )
    op.create_table(
        "game_card_picks",
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("slug", sa.Text, nullable=False),
        sa.Column("picks", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("game", "slug", name="pk_game_card_picks"),
    )


def downgrade() -> None:
    for table in TABLES:
        op.drop_table(table)
