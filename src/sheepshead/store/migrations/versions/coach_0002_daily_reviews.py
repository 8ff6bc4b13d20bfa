"""The review of a past day's daily deals: a coach job may be a daily attempt's deal.

``coach_jobs.game_id`` becomes optional, ``attempt_id`` (a daily attempt) is its other
possible subject, and ``expert`` holds what the expert in the player's seat scores on
the deal (the computer players it meets, then its game points).

Revision ID: coach_0002
Revises: stats_0002
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "coach_0002"
down_revision: str | None = "stats_0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("coach_jobs") as batch:
        batch.alter_column("game_id", existing_type=sa.String(32), nullable=True)
        batch.add_column(sa.Column("attempt_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("expert", sa.JSON(), nullable=True))
        batch.create_foreign_key(
            "fk_coach_jobs_attempt_id_daily_attempts",
            "daily_attempts",
            ["attempt_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch.create_unique_constraint(
            "uq_coach_jobs_attempt_hand_seat", ["attempt_id", "hand_number", "seat"]
        )


def downgrade() -> None:
    op.execute("DELETE FROM coach_jobs WHERE game_id IS NULL")
    with op.batch_alter_table("coach_jobs") as batch:
        batch.drop_constraint("uq_coach_jobs_attempt_hand_seat", type_="unique")
        batch.drop_constraint("fk_coach_jobs_attempt_id_daily_attempts", type_="foreignkey")
        batch.drop_column("expert")
        batch.drop_column("attempt_id")
        batch.alter_column("game_id", existing_type=sa.String(32), nullable=False)
