"""The tables: players (anonymous ids), games (a table's rules, level and bot seed,
with its version) and hands (each hand's seed and moves, in record text).

Plain SQLAlchemy types only, so SQLite and PostgreSQL hold the same data the same way.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: Constraint names that are the same on every database, so migrations can name them.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Player(Base):
    """An anonymous player: a random id kept in the browser's cookie, nothing else."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameRow(Base):
    """A session at one table: hand after hand against the computer players."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id", ondelete="CASCADE"))
    #: The rules as a hand record writes them (only the fields that differ from standard).
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    level: Mapped[str] = mapped_column(String(16))
    first_dealer: Mapped[int] = mapped_column(Integer)
    #: Seeds every computer player's decision, so a replay meets the same answers.
    bot_seed: Mapped[int] = mapped_column(BigInteger)
    #: Hands dealt plus actions taken: every write checks and bumps it.
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_games_player_created", "player_id", "created_at"),
        # The games in progress, counted at every metrics scrape (observability.py).
        Index("ix_games_updated", "updated_at"),
    )


class HandRow(Base):
    """One hand of a game: its secret seed (the deal) and its moves so far."""

    __tablename__ = "hands"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    #: 1 for the first hand of the game.
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[bytes] = mapped_column(LargeBinary)
    seed_sha256: Mapped[str] = mapped_column(String(64))
    #: Every move in record text, bots' included (``["1 pass", "2 pick", ...]``).
    moves: Mapped[list[str]] = mapped_column(JSON)
    done: Mapped[bool] = mapped_column(Boolean)
    #: Once the hand is over: its line of the score sheet (the API's ``ScoreLine``), so
    #: that no reply recomputes the lines of every finished hand.
    sheet: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    #: Once the hand is over: every seat's running score after it.
    scores: Mapped[list[int] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
