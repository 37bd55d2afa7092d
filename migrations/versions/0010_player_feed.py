"""Players across games (issue 29 §1): player tokens, and each player's feed (an outbox written with
the events that cause its items).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "player_tokens",
        sa.Column("token_id", sa.Text, nullable=False),
        sa.Column("app_id", sa.Text, nullable=False),
        sa.Column("person_id", sa.Text, nullable=False),
        sa.Column("token_hash", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("token_id", name="pk_player_tokens"),
    )
    op.create_index("ix_player_tokens_person_id", "player_tokens", ["person_id"])
    op.create_index("ix_player_tokens_expires_at", "player_tokens", ["expires_at"])
    op.create_table(
        "player_feed_heads",
        sa.Column("person_id", sa.Text, nullable=False),
        sa.Column("last_seq", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("person_id", name="pk_player_feed_heads"),
    )
    op.create_table(
        "player_feed",
        sa.Column("person_id", sa.Text, nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("person_id", "seq", name="pk_player_feed"),
    )


def downgrade() -> None:
    op.drop_table("player_feed")
    op.drop_table("player_feed_heads")
    op.drop_index("ix_player_tokens_expires_at", "player_tokens")
    op.drop_index("ix_player_tokens_person_id", "player_tokens")
    op.drop_table("player_tokens")
