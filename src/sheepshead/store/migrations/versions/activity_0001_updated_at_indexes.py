"""Indexes on ``updated_at`` of games and daily attempts.

The metrics count the games and attempts in progress (``server/observability.py``:
updated within the last half hour and not finished) at every scrape; without these
indexes each count scans every game and attempt ever played.

Revision ID: activity_0001
Revises: daily_0002
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "activity_0001"
down_revision: str | None = "daily_0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_games_updated", "games", ["updated_at"])
    op.create_index("ix_daily_attempts_updated", "daily_attempts", ["updated_at"])


def downgrade() -> None:
    op.drop_index("ix_daily_attempts_updated", table_name="daily_attempts")
    op.drop_index("ix_games_updated", table_name="games")
