"""Each finished hand keeps its score-sheet line and the running scores after it.

A reply used to recompute the score sheet over every finished hand of the game; now
the line is written once, with the hand's last move (``store/games.py``). Existing
finished hands are filled here by replaying each game from its stored seeds and moves.

Revision ID: perf_0001
Revises: names_0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "perf_0001"
down_revision: str | None = "clubs_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("sheet", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("scores", sa.JSON(), nullable=True))
    from sheepshead.store.sheet_fill import fill_sheets

    fill_sheets(op.get_bind())


def downgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("scores")
        batch.drop_column("sheet")
