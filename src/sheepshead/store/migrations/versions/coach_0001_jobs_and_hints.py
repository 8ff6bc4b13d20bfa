"""The coach's review jobs and hint counts (``store/coach.py``).

Revision ID: coach_0001
Revises: names_0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "coach_0001"
down_revision: str | None = "perf_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "coach_jobs",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("hand_number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("progress", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("worker", sa.String(64), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_coach_jobs_player_id_players",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_coach_jobs_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_coach_jobs"),
        sa.UniqueConstraint("game_id", "hand_number", "seat", name="uq_coach_jobs_hand_seat"),
    )
    op.create_index("ix_coach_jobs_status_created", "coach_jobs", ["status", "created_at"])
    op.create_table(
        "coach_hints",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("hand_number", sa.Integer(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_coach_hints_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "hand_number", name="pk_coach_hints"),
    )


def downgrade() -> None:
    op.drop_table("coach_hints")
    op.drop_index("ix_coach_jobs_status_created", table_name="coach_jobs")
    op.drop_table("coach_jobs")
