"""Friends' tables: the table, its seats and its hands (``store/friends.py``).

Revision ID: friends_0001
Revises: names_0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "friends_0001"
down_revision: str | None = "stats_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "friend_tables",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("code", sa.String(32), nullable=False),
        sa.Column("host_id", sa.String(32), nullable=True),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("seconds", sa.Integer(), nullable=True),
        sa.Column("hints", sa.Boolean(), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=False),
        sa.Column("bot_seed", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("stamp", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("turn_seat", sa.Integer(), nullable=True),
        sa.Column("deadline", _WHEN, nullable=True),
        sa.Column("messages", sa.JSON(), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("acted_at", _WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["host_id"],
            ["players.id"],
            name="fk_friend_tables_host_id_players",
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_friend_tables"),
        sa.UniqueConstraint("code", name="uq_friend_tables_code"),
    )
    op.create_index("ix_friend_tables_status_deadline", "friend_tables", ["status", "deadline"])
    op.create_table(
        "friend_seats",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("sat_at", _WHEN, nullable=True),
        sa.Column("covered", sa.Boolean(), nullable=False),
        sa.Column("live_until", _WHEN, nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["friend_tables.id"],
            name="fk_friend_seats_table_id_friend_tables",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_friend_seats_player_id_players",
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_friend_seats"),
    )
    op.create_index("ix_friend_seats_player_id", "friend_seats", ["player_id"])
    op.create_table(
        "friend_hands",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.LargeBinary(), nullable=False),
        sa.Column("seed_sha256", sa.String(64), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["friend_tables.id"],
            name="fk_friend_hands_table_id_friend_tables",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", "number", name="pk_friend_hands"),
    )


def downgrade() -> None:
    op.drop_table("friend_hands")
    op.drop_index("ix_friend_seats_player_id", table_name="friend_seats")
    op.drop_table("friend_seats")
    op.drop_index("ix_friend_tables_status_deadline", table_name="friend_tables")
    op.drop_table("friend_tables")
