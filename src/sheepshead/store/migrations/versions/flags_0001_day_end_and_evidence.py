"""A day's end in the database, and the moderation evidence that outlives identities.

``daily_days.ended_at``: when the day was recorded as over (its seed published). From
then on no ranked attempt of the day accepts a move, whatever a server's clock says.

``daily_address_plays`` grows into the moderators' evidence: besides the first move
from a network (``created_at``), the last one (``last_at``) and, once the attempt is
finished, when (``finished_at``) and its game points (``total``). None of it names a
player, so it outlives the deletion of any identity involved; it is deleted after
``ADDRESS_DAYS`` like the rest of the table.

Revision ID: flags_0001
Revises: activity_0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "flags_0001"
down_revision: str | None = "activity_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("daily_days") as batch:
        batch.add_column(sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("daily_address_plays") as batch:
        batch.add_column(sa.Column("last_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("total", sa.Integer(), nullable=True))
    op.create_index("ix_daily_address_plays_attempt", "daily_address_plays", ["attempt_id"])


def downgrade() -> None:
    op.drop_index("ix_daily_address_plays_attempt", table_name="daily_address_plays")
    with op.batch_alter_table("daily_address_plays") as batch:
        batch.drop_column("total")
        batch.drop_column("finished_at")
        batch.drop_column("last_at")
    with op.batch_alter_table("daily_days") as batch:
        batch.drop_column("ended_at")
