"""A day's end, kept in the database (``daily_days.ended_at``), and the database's own
clock: what ``server/day_end.py`` checks a server's clock against.

A day stored as ended stays ended: its seed is published, and no ranked attempt of it
accepts a move (``DailyStore.save_attempt`` checks it in the write itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import Engine, func, select, update

from sheepshead.store.daily_models import DailyDay


@dataclass(frozen=True, slots=True)
class StoredDays:
    """What the database says about the time, read in one query."""

    #: The database's clock.
    now: datetime
    #: The latest day stored as ended, if any.
    last_ended: date | None
    #: The earliest day not yet stored as ended, if any.
    first_open: date | None


def _database_now(dialect: str) -> Any:
    if dialect == "postgresql":
        # The instant of the query, not of the transaction's start.
        return func.clock_timestamp()
    return func.strftime("%Y-%m-%d %H:%M:%f", "now")


def _utc(value: Any) -> datetime:
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    # SQLite's clock is UTC, written without a zone.
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


class DayEndStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def read(self) -> StoredDays:
        """The database's clock and the stored state of the days (a table of one row
        per day: a few thousand rows after years)."""
        last_ended = (
            select(func.max(DailyDay.day)).where(DailyDay.ended_at.is_not(None)).scalar_subquery()
        )
        first_open = (
            select(func.min(DailyDay.day)).where(DailyDay.ended_at.is_(None)).scalar_subquery()
        )
        with self.engine.connect() as conn:
            row = conn.execute(
                select(
                    _database_now(conn.dialect.name).label("now"),
                    last_ended.label("last_ended"),
                    first_open.label("first_open"),
                )
            ).one()
        return StoredDays(now=_utc(row.now), last_ended=row.last_ended, first_open=row.first_open)

    def end_days(self, before: date, at: datetime) -> list[date]:
        """Store the end of every day before ``before`` not stored as ended yet (at
        ``at``, the database's clock); returns those days."""
        with self.engine.begin() as conn:
            ended = conn.execute(
                update(DailyDay)
                .where(DailyDay.day < before, DailyDay.ended_at.is_(None))
                .values(ended_at=at)
                .returning(DailyDay.day)
            ).scalars()
            return sorted(ended)

    def ended(self, day: date) -> bool:
        """Whether the day's end is stored (its seed published)."""
        with self.engine.connect() as conn:
            ended = conn.execute(
                select(DailyDay.ended_at).where(DailyDay.day == day)
            ).scalar_one_or_none()
        return ended is not None
