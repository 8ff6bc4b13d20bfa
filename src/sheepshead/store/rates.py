"""Rate limits kept in the database, so that every worker process and machine counts
against the same budget: one row per bucket (a player, a network address, ...).

Each bucket follows GCRA, the generic cell rate algorithm: a bucket allowing ``count``
requests per ``period`` with a burst of ``burst`` keeps one number, ``tat``, the time
at which it would be full again. A request at ``now`` gets through when
``tat - now <= (burst - 1) * period / count``, and then moves ``tat`` on by
``period / count`` (from ``now`` if it lay in the past).

One INSERT ... ON CONFLICT DO UPDATE per bucket decides and records it atomically on
SQLite and PostgreSQL alike: there is no read-then-write for two workers to race in.
The row also keeps the token of the request that last got through, so the statement's
RETURNING tells whether this request was the one.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import BigInteger, Connection, Engine, String, case, delete, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, mapped_column

from sheepshead.store.models import Base

MICROS = 1_000_000


class RateBucket(Base):
    """One rate limit's bucket; a row whose ``tat`` has passed is a full bucket, and
    may be deleted at any time without changing any decision."""

    __tablename__ = "rate_buckets"

    #: What is limited and for whom, e.g. ``actions:<keyed hash of the player>``.
    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    #: When the bucket is full again, in microseconds since the epoch.
    tat: Mapped[int] = mapped_column(BigInteger)
    #: The request that last got through.
    token: Mapped[str] = mapped_column(String(32))


@dataclass(frozen=True, slots=True)
class Charge:
    """One request taken from one bucket: ``count`` per ``period_us`` microseconds."""

    key: str
    count: int
    period_us: int
    burst: int

    @property
    def interval(self) -> int:
        return max(1, self.period_us // self.count)

    @property
    def tolerance(self) -> int:
        return self.interval * (self.burst - 1)


def _insert(conn: Connection) -> Any:
    name = conn.dialect.name
    if name == "postgresql":
        return postgresql.insert(RateBucket)
    if name == "sqlite":
        return sqlite.insert(RateBucket)
    raise NotImplementedError(f"rate limits need SQLite or PostgreSQL, not {name}")


def _take_one(conn: Connection, charge: Charge, now: int, token: str) -> int | None:
    """None if the request gets through; else microseconds until it would."""
    stmt = _insert(conn).values(key=charge.key, tat=now + charge.interval, token=token)
    through = RateBucket.tat - now <= charge.tolerance
    later = case((RateBucket.tat > now, RateBucket.tat), else_=now)
    stmt = stmt.on_conflict_do_update(
        index_elements=[RateBucket.key],
        set_={
            "tat": case((through, later + charge.interval), else_=RateBucket.tat),
            "token": case((through, token), else_=RateBucket.token),
        },
    ).returning(RateBucket.tat, RateBucket.token)
    tat, last = conn.execute(stmt).one()
    if last == token:
        return None
    return max(1, int(tat) - now - charge.tolerance)


class RateStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def take(self, charges: Sequence[Charge], now: int) -> int | None:
        """Take one request from every bucket, or from none: None when all let it
        through, else the microseconds until every one of them would."""
        token = secrets.token_hex(16)
        waits: list[int] = []
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # A crash may forget the last moments of a rate limit, and that is
                # harmless: no need to wait for the disk on every request.
                conn.execute(text("SET LOCAL synchronous_commit TO OFF"))
            # Always in key order, so that two requests never lock rows crosswise.
            for charge in sorted(charges, key=lambda c: c.key):
                wait = _take_one(conn, charge, now, token)
                if wait is not None:
                    waits.append(wait)
            if waits:
                # Refused: the buckets that would have let it through keep their turn.
                conn.rollback()
        return max(waits) if waits else None

    def sweep(self, now: int) -> int:
        """Delete the full buckets; how many rows went."""
        with self.engine.begin() as conn:
            return conn.execute(delete(RateBucket).where(RateBucket.tat < now)).rowcount
