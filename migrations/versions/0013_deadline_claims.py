"""A deadline's claim in a column of its own (issue 26 §2).

A scheduler claimed a due deadline by moving its `due_at` to the end of its lease, and an append
writes `due_at` too: a person's pick while a bot thinks made the game due again over the claim, and
another process claimed it and searched the same decision beside the first. The claim is now
`claimed_until`, which appends never write and the claiming process clears when its wake is done.
Existing rows start unclaimed (a claim moved `due_at` on, so those games fall due when it would have
run out).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("deadlines", sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("deadlines") as batch:
        batch.drop_column("claimed_until")
