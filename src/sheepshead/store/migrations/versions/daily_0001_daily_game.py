"""The daily game: days, attempts, results, display names, recovery codes.

Revision ID: daily_0001
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "daily_0001"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TZ = sa.DateTime(timezone=True)


def _player_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["player_id"], ["players.id"], name=f"fk_{table}_player_id_players", ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "daily_days",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("bot_version", sa.String(32), nullable=False),
        sa.Column("expert_points", sa.JSON(), nullable=True),
        sa.Column("field", sa.Integer(), nullable=False),
        sa.Column("spreads", sa.JSON(), nullable=True),
        sa.Column("refreshed_at", _TZ, nullable=True),
        sa.Column("created_at", _TZ, nullable=False),
        sa.PrimaryKeyConstraint("day", name="pk_daily_days"),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("flagged", sa.Boolean(), nullable=False),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("created_at", _TZ, nullable=False),
        sa.Column("updated_at", _TZ, nullable=False),
        _player_fk("daily_attempts"),
        sa.ForeignKeyConstraint(
            ["day"], ["daily_days.day"], name="fk_daily_attempts_day_daily_days"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_daily_attempts"),
    )
    op.create_index(
        "ux_daily_attempts_player_day_number",
        "daily_attempts",
        ["player_id", "day", "number"],
        unique=True,
    )
    op.create_index("ix_daily_attempts_day_address", "daily_attempts", ["day", "address"])
    op.create_table(
        "daily_results",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("attempt_id", sa.String(32), nullable=False),
        *(sa.Column(f"d{k}", sa.Integer(), nullable=False) for k in range(1, 6)),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("marks", sa.JSON(), nullable=True),
        sa.Column("mp", sa.Integer(), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("finished_at", _TZ, nullable=False),
        _player_fk("daily_results"),
        sa.ForeignKeyConstraint(
            ["day"], ["daily_days.day"], name="fk_daily_results_day_daily_days"
        ),
        sa.PrimaryKeyConstraint("day", "player_id", name="pk_daily_results"),
    )
    op.create_index("ix_daily_results_day_rank", "daily_results", ["day", "rank"])
    op.create_table(
        "display_names",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("text", sa.String(64), nullable=False),
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("look", sa.String(256), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        sa.Column("created_at", _TZ, nullable=False),
        _player_fk("display_names"),
        sa.PrimaryKeyConstraint("player_id", name="pk_display_names"),
        sa.UniqueConstraint("key", name="uq_display_names_key"),
        sa.UniqueConstraint("look", name="uq_display_names_look"),
    )
    op.create_table(
        "recovery_codes",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("created_at", _TZ, nullable=False),
        _player_fk("recovery_codes"),
        sa.PrimaryKeyConstraint("player_id", name="pk_recovery_codes"),
        sa.UniqueConstraint("code_hash", name="uq_recovery_codes_code_hash"),
    )


def downgrade() -> None:
    op.drop_table("recovery_codes")
    op.drop_table("display_names")
    op.drop_index("ix_daily_results_day_rank", table_name="daily_results")
    op.drop_table("daily_results")
    op.drop_index("ix_daily_attempts_day_address", table_name="daily_attempts")
    op.drop_index("ux_daily_attempts_player_day_number", table_name="daily_attempts")
    op.drop_table("daily_attempts")
    op.drop_table("daily_days")
