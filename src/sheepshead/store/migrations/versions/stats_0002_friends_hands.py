"""Friends' tables' hands in each seated person's history (``store/stats_friends.py``):
a history line per hand and person (the unique key gains the player), whether a line is
in the figures (``counted``: not a replay, not a friends' hand the computer played part
of), and the friends' hands being played (``stat_table_hands``). Then the fill of the
statistics for the players from before them (``store/stats_fill.py``, idempotent).

Revision ID: stats_0002
Revises: friends_0002
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "stats_0002"
down_revision: str | None = "friends_0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("stat_hands") as batch:
        batch.add_column(
            sa.Column("counted", sa.Boolean(), nullable=False, server_default=sa.true())
        )
    op.execute("UPDATE stat_hands SET counted = false WHERE kind = 'replay'")
    op.drop_index("ux_stat_hands_source_number", table_name="stat_hands")
    op.create_index(
        "ux_stat_hands_source_number_player",
        "stat_hands",
        ["source", "number", "player_id"],
        unique=True,
    )
    op.create_table(
        "stat_table_hands",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("friend_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("dealt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("stood_in", sa.Integer(), nullable=False),
    )
    from sheepshead.store.stats_fill import fill

    fill(op.get_bind())


def downgrade() -> None:
    op.drop_table("stat_table_hands")
    op.execute("DELETE FROM stat_hands WHERE kind = 'friends'")
    op.drop_index("ux_stat_hands_source_number_player", table_name="stat_hands")
    op.create_index("ux_stat_hands_source_number", "stat_hands", ["source", "number"], unique=True)
    with op.batch_alter_table("stat_hands") as batch:
        batch.drop_column("counted")
