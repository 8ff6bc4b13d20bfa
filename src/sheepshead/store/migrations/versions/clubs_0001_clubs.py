"""Clubs and their members (``store/clubs.py``).

Revision ID: clubs_0001
Revises: names_0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "clubs_0001"
down_revision: str | None = "names_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("look", sa.String(256), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        sa.Column("owner_id", sa.String(32), nullable=False),
        sa.Column("invitation", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["players.id"], name="fk_clubs_owner_id_players"),
        sa.PrimaryKeyConstraint("id", name="pk_clubs"),
        sa.UniqueConstraint("key", name="uq_clubs_key"),
        sa.UniqueConstraint("look", name="uq_clubs_look"),
        sa.UniqueConstraint("invitation", name="uq_clubs_invitation"),
    )
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("member_id", sa.String(32), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"], ["clubs.id"], name="fk_club_members_club_id_clubs", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_club_members_player_id_players",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("club_id", "player_id", name="pk_club_members"),
        sa.UniqueConstraint("member_id", name="uq_club_members_member_id"),
    )
    op.create_index("ix_club_members_player", "club_members", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_club_members_player", table_name="club_members")
    op.drop_table("club_members")
    op.drop_table("clubs")
