"""Rate limits' buckets (``store/rates.py``).

Revision ID: rates_0001
Revises: daily_0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "rates_0001"
down_revision: str | None = "daily_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rate_buckets",
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("tat", sa.BigInteger(), nullable=False),
        sa.Column("token", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_rate_buckets"),
    )


def downgrade() -> None:
    op.drop_table("rate_buckets")
