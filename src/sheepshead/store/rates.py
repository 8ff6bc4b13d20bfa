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


def upsert(dialect: str, charge: Charge, now: int, token: str) -> Any:
    """The one statement that decides and records ``charge`` at ``now``; it returns
    the bucket's ``tat`` and ``token`` (see ``wait``)."""
    if dialect == "postgresql":
        stmt: Any = postgresql.insert(RateBucket)
    elif dialect == "sqlite":
        stmt = sqlite.insert(RateBucket)
    else:
        raise NotImplementedError(f"rate limits need SQLite or PostgreSQL, not {dialect}")
    stmt = stmt.values(key=charge.key, tat=now + charge.interval, token=token)
    through = RateBucket.tat - now <= charge.tolerance
    later = case((RateBucket.tat > now, RateBucket.tat), else_=now)
    return stmt.on_conflict_do_update(
        index_elements=[RateBucket.key],
        set_={
            "tat": case((through, later + charge.interval), else_=RateBucket.tat),
            "token": case((through, token), else_=RateBucket.token),
        },
    ).returning(RateBucket.tat, RateBucket.token)


def wait(charge: Charge, now: int, token: str, tat: int, last: str) -> int | None:
    """From ``upsert``'s answer: None if the request got through; else microseconds
    until it would."""
    if last == token:
        return None
    return max(1, int(tat) - now - charge.tolerance)


def in_key_order(charges: Sequence[Charge]) -> list[Charge]:
    """Always in key order, so that two requests never lock rows crosswise."""
    return sorted(charges, key=lambda c: c.key)


def take_in(conn: Connection, charges: Sequence[Charge], now: int, token: str) -> list[int]:
    """Take one request from every bucket inside the caller's transaction: the waits of
    the buckets that refused it (none: it got through). On a refusal the caller rolls
    back, so that the buckets that would have let it through keep their turn."""
    waits: list[int] = []
    for charge in in_key_order(charges):
        tat, last = conn.execute(upsert(conn.dialect.name, charge, now, token)).one()
        refused = wait(charge, now, token, tat, last)
        if refused is not None:
            waits.append(refused)
    return waits


class RateStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def take(self, charges: Sequence[Charge], now: int) -> int | None:
        """Take one request from every bucket, or from none: None when all let it
        through, else the microseconds until every one of them would."""
        token = secrets.token_hex(16)
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # A crash may forget the last moments of a rate limit, and that is
                # harmless: no need to wait for the disk on every request.
                conn.execute(text("SET LOCAL synchronous_commit TO OFF"))
            waits = take_in(conn, charges, now, token)
            if waits:
                # Refused: the buckets that would have let it through keep their turn.
                conn.rollback()
        return max(waits) if waits else None

    def sweep(self, now: int) -> int:
        """Delete the full buckets; how many rows went."""
        with self.engine.begin() as conn:
            return conn.execute(delete(RateBucket).where(RateBucket.tat < now)).rowcount
