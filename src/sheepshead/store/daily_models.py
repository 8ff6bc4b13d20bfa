"""The daily game's tables: days, attempts, the moderators' evidence per network, and
results (migrations ``daily_0001``, ``daily_0002`` and ``flags_0001``). On the
table's declarative ``Base``; ``daily_store.py`` reads and writes them.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from sheepshead.store.models import Base


class DailyDay(Base):
    """A day of the daily game, created by its first attempt."""

    __tablename__ = "daily_days"

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    #: Hex SHA-256 of the day's seed, published from the day's start.
    commitment: Mapped[str] = mapped_column(String(64))
    #: The computer players the day started with ("expert/1"): kept for the whole day.
    bot_version: Mapped[str] = mapped_column(String(32))
    #: Game points of the expert computer player in seat 0, per deal (None until computed).
    expert_points: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    #: The field when the board was last refreshed, and each deal's spread then.
    field: Mapped[int] = mapped_column(Integer, default=0)
    spreads: Mapped[list[dict[str, int]] | None] = mapped_column(JSON, nullable=True)
    refreshed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: When the day was recorded as over, by the database's clock (``store/day_end.py``):
    #: from then on its seed is published and no ranked attempt of it accepts a move.
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class DailyAttempt(Base):
    """One player's go at a day: number 1 is the ranked one, later ones are replays."""

    __tablename__ = "daily_attempts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id", ondelete="CASCADE"))
    day: Mapped[date] = mapped_column(Date, ForeignKey("daily_days.day"))
    number: Mapped[int] = mapped_column(Integer)
    ranked: Mapped[bool] = mapped_column(Boolean)
    #: The moves of each deal dealt so far, in record text, bots' included.
    moves: Mapped[list[list[str]]] = mapped_column(JSON)
    #: Deals dealt plus actions taken: every write checks and bumps it.
    version: Mapped[int] = mapped_column(Integer)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Ranked, and played from a network that another ranked attempt of the day was
    #: also played from, whichever played first (see ``DailyAddressPlay``): for a moderator.
    flagged: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Keyed hash of the network that started it (never the address itself).
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ux_daily_attempts_player_day_number", "player_id", "day", "number", unique=True),
        Index("ix_daily_attempts_day_address", "day", "address"),
        # The attempts in progress, counted at every metrics scrape (observability.py).
        Index("ix_daily_attempts_updated", "updated_at"),
    )


class DailyAddressPlay(Base):
    """The moderators' evidence: a ranked attempt's moves from one network (by its keyed
    hash), when the first and the last were made, and the attempt's result.

    Kept apart from the attempt, with no name and no link to the player, so that
    deleting an identity that scouted a day, or the one it scouted for, clears no flag
    (``store/moderation.py`` reads it; forgotten after ``ADDRESS_DAYS``)."""

    __tablename__ = "daily_address_plays"

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    attempt_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The attempt's first move from this network.
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: Its last move from this network (None in rows from before ``flags_0001``).
    last_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: When the attempt was finished, and its game points: None until then.
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    total: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (Index("ix_daily_address_plays_attempt", "attempt_id"),)


class DailyResult(Base):
    """A finished ranked attempt: game points per deal (the server's replay), and its
    place on the board as of the last refresh."""

    __tablename__ = "daily_results"

    day: Mapped[date] = mapped_column(Date, ForeignKey("daily_days.day"), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    attempt_id: Mapped[str] = mapped_column(String(32))
    d1: Mapped[int] = mapped_column(Integer)
    d2: Mapped[int] = mapped_column(Integer)
    d3: Mapped[int] = mapped_column(Integer)
    d4: Mapped[int] = mapped_column(Integer)
    d5: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    #: Matchpoints per deal and their sum, and the shared rank: None until refreshed.
    marks: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    mp: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_daily_results_day_rank", "day", "rank"),)
