"""Seasons an app defines, and the statistics projection's ratings per season (issue 29 §3).

The projection needs no rewind: no season exists before this revision, and the projection counts a
season's games from the log the first time it meets the season.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "seasons",
        sa.Column("app_id", sa.Text, nullable=False),
        sa.Column("season_id", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("app_id", "season_id", name="pk_seasons"),
    )
    op.create_table(
        "season_stats",
        sa.Column("app_id", sa.Text, nullable=False),
        sa.Column("scope", sa.Text, nullable=False),
        sa.Column("season_id", sa.Text, nullable=False),
        sa.Column("person_id", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("score_sum", sa.BigInteger, nullable=False),
        sa.Column("best_score", sa.Integer, nullable=False),
        sa.Column("rated_games", sa.Integer, nullable=False),
        sa.Column("resigned", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("rating", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("app_id", "scope", "season_id", "person_id", "game", name="pk_season_stats"),
    )
    op.create_index(
        "ix_season_stats_app_id_scope_season_id_game_rating_person_id",
        "season_stats",
        ["app_id", "scope", "season_id", "game", "rating", "person_id"],
    )
    op.create_table(
        "seasons_counted",
        sa.Column("app_id", sa.Text, nullable=False),
        sa.Column("season_id", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("app_id", "season_id", name="pk_seasons_counted"),
    )


def downgrade() -> None:
    op.drop_table("seasons_counted")
    op.drop_index("ix_season_stats_app_id_scope_season_id_game_rating_person_id", "season_stats")
    op.drop_table("season_stats")
    op.drop_table("seasons")
