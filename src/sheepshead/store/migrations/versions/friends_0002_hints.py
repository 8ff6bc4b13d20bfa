"""Friends' tables: the coach's hints each seat asked for in a hand (``store/friends.py``).

Revision ID: friends_0002
Revises: friends_0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "friends_0002"
down_revision: str | None = "friends_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Per seat, the hints asked for in the hand ([0, 2, 0]); None: none asked for.
    op.add_column("friend_hands", sa.Column("hints", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("friend_hands") as batch:
        batch.drop_column("hints")
