"""A player's own statistics and history (``store/stats.py``), filled for the players
from before them (``store/stats_fill.py``).

Revision ID: stats_0001
Revises: names_0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "stats_0001"
down_revision: str | None = "coach_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _player() -> sa.ForeignKey:
    return sa.ForeignKey("players.id", ondelete="CASCADE")


_COUNTS = (
    "hands",
    "points",
    "picks",
    "picker_wins",
    "wins",
    "schneider_won",
    "schneider_lost",
    "no_trick_won",
    "no_trick_lost",
)


def upgrade() -> None:
    op.create_table(
        "stat_hands",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), _player(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=True),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(12), nullable=False),
        sa.Column("result", sa.String(16), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("multiplier", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ux_stat_hands_source_number", "stat_hands", ["source", "number"], unique=True)
    op.create_index("ix_stat_hands_player_id", "stat_hands", ["player_id", "id"])
    op.create_table(
        "stat_tallies",
        sa.Column("player_id", sa.String(32), _player(), primary_key=True),
        sa.Column("figure", sa.String(16), primary_key=True),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in _COUNTS),
    )
    op.create_table(
        "stat_daily",
        sa.Column("player_id", sa.String(32), _player(), primary_key=True),
        sa.Column("days", sa.Integer(), nullable=False),
        sa.Column("run", sa.Integer(), nullable=False),
        sa.Column("run_end", sa.Date(), nullable=True),
        sa.Column("best", sa.Integer(), nullable=False),
    )
    op.create_table(
        "stat_days",
        sa.Column("player_id", sa.String(32), _player(), primary_key=True),
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("attempt_id", sa.String(32), nullable=False),
        sa.Column("counted", sa.Boolean(), nullable=False),
        sa.Column("percentile", sa.Float(), nullable=True),
        sa.Column("final", sa.Boolean(), nullable=False),
    )
    # The fill runs in stats_0002, on the tables as the code now writes them (it is
    # idempotent: a database filled here before that move is left as it was).


def downgrade() -> None:
    op.drop_table("stat_days")
    op.drop_table("stat_daily")
    op.drop_table("stat_tallies")
    op.drop_index("ix_stat_hands_player_id", table_name="stat_hands")
    op.drop_index("ux_stat_hands_source_number", table_name="stat_hands")
    op.drop_table("stat_hands")
