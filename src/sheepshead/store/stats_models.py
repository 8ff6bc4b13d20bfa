"""The statistics' tables: a player's history of hands, running tallies per figure,
daily days and streaks (``stats`` reads and writes them)."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Boolean, Date, DateTime, Float, ForeignKey, Index, Integer, String, true
from sqlalchemy.orm import Mapped, mapped_column

from sheepshead.store.models import Base

#: The counts a hand adds to each of its figures' tallies (``counts_of``'s keys).
COUNTS = (
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


class StatHand(Base):
    """One finished hand of a player's history."""

    __tablename__ = "stat_hands"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id", ondelete="CASCADE"))
    #: ``free``, ``daily``, ``replay`` or ``friends`` (``hand_lines.KINDS``).
    kind: Mapped[str] = mapped_column(String(8))
    #: The rules' preset name, or ``custom``.
    preset: Mapped[str] = mapped_column(String(32))
    #: The game's id (free play), the daily attempt's or the friends' table's, and the
    #: hand's number in it.
    source: Mapped[str] = mapped_column(String(32))
    number: Mapped[int] = mapped_column(Integer)
    #: The daily day of a daily deal or replay, else None.
    day: Mapped[date | None] = mapped_column(Date, nullable=True)
    players: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(12))
    result: Mapped[str] = mapped_column(String(16))
    points: Mapped[int] = mapped_column(Integer)
    multiplier: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: In the figures (the tallies): not a replay, nor a friends' hand the computer
    #: played part of for the player.
    counted: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())

    __table_args__ = (
        # A friends' table's hand is one line for each person seated at it.
        Index("ux_stat_hands_source_number_player", "source", "number", "player_id", unique=True),
        Index("ix_stat_hands_player_id", "player_id", "id"),
    )


class StatTally(Base):
    """Running sums of one figure of one player's hands."""

    __tablename__ = "stat_tallies"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    figure: Mapped[str] = mapped_column(String(16), primary_key=True)
    hands: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    picks: Mapped[int] = mapped_column(Integer, default=0)
    picker_wins: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    schneider_won: Mapped[int] = mapped_column(Integer, default=0)
    schneider_lost: Mapped[int] = mapped_column(Integer, default=0)
    no_trick_won: Mapped[int] = mapped_column(Integer, default=0)
    no_trick_lost: Mapped[int] = mapped_column(Integer, default=0)


class StatDaily(Base):
    """A player's daily days and streaks."""

    __tablename__ = "stat_daily"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    days: Mapped[int] = mapped_column(Integer)
    run: Mapped[int] = mapped_column(Integer)
    run_end: Mapped[date | None] = mapped_column(Date, nullable=True)
    best: Mapped[int] = mapped_column(Integer)


class StatDay(Base):
    """A daily day the player finished ranked."""

    __tablename__ = "stat_days"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    attempt_id: Mapped[str] = mapped_column(String(32))
    #: False once a moderator voided the result: the day no longer counts.
    counted: Mapped[bool] = mapped_column(Boolean)
    #: The share of the rest of the field the player was ahead of, as last worked out.
    percentile: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: The percentile was worked out after the day's end: it no longer moves.
    final: Mapped[bool] = mapped_column(Boolean)


STAT_TABLES = (StatHand, StatTally, StatDaily, StatDay)
