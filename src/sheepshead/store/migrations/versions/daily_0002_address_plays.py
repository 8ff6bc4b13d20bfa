"""The networks that played each day's ranked attempts, kept apart from the attempts.

A ranked attempt is flagged for the moderators when another one of the day was played
from its network first. Those records outlive an identity's deletion, which would
otherwise let a scout delete itself and clear the flag of the identity it scouted for.

Revision ID: daily_0002
Revises: rates_0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "daily_0002"
down_revision: str | None = "rates_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "daily_address_plays",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("attempt_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("day", "address", "attempt_id", name="pk_daily_address_plays"),
    )


def downgrade() -> None:
    op.drop_table("daily_address_plays")
