"""A friends' table's hands in the history of each person seated at them.

A friends' table has several people at it and computer players that stand in for a
person whose clock ran out or who is away (``server/friends_play.py``). When a hand
ends, each seat with a person at that moment gets the hand in their history (the
table's score sheet has it under their name); it goes into their figures only if they
made every decision of their seat in it: seated before the deal, and no decision taken
by the computer for them. ``stat_table_hands`` keeps, for each hand still being played,
when it was dealt and which seats the computer has decided for (a bit per seat); the row
goes when the hand ends. It holds no player and no card.

Everything here runs in the table's own write, in its transaction (``Store.write``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    Connection,
    DateTime,
    ForeignKey,
    Integer,
    String,
    delete,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, mapped_column

from sheepshead.store.hand_lines import HandLine
from sheepshead.store.instants import utc
from sheepshead.store.models import Base
from sheepshead.store.stats import record_hand


class StatTableHand(Base):
    """A friends' table's hand being played: when it was dealt, whom the computer
    stood in for."""

    __tablename__ = "stat_table_hands"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("friend_tables.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    dealt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: Bit ``1 << seat`` for each seat the computer took a decision of while a person
    #: held it.
    stood_in: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True, slots=True)
class Sitter:
    """A person in a seat as the step found them."""

    seat: int
    player_id: str
    sat_at: datetime | None


def mask_of(seats: Sequence[int] | set[int]) -> int:
    out = 0
    for seat in seats:
        out |= 1 << seat
    return out


def hand_dealt(conn: Connection, table_id: str, number: int, at: datetime, stood_in: int) -> None:
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(
        dialect.insert(StatTableHand)
        .values(table_id=table_id, number=number, dealt_at=at, stood_in=stood_in)
        .on_conflict_do_nothing(index_elements=["table_id", "number"])
    )


def stood_in(conn: Connection, table_id: str, number: int, seats: int) -> None:
    """The computer took decisions of these seats (a bit each) while people held them."""
    conn.execute(
        update(StatTableHand)
        .where(StatTableHand.table_id == table_id, StatTableHand.number == number)
        .values(stood_in=StatTableHand.stood_in.op("|")(seats))
    )


def hand_ended(
    conn: Connection,
    table_id: str,
    number: int,
    preset: str,
    lines: Sequence[tuple[Sitter, HandLine]],
    at: datetime,
) -> None:
    """The hand is over: each person's line goes into their history, and into their
    figures if they made all their seat's decisions. The hand's row goes."""
    row = conn.execute(
        select(StatTableHand.dealt_at, StatTableHand.stood_in).where(
            StatTableHand.table_id == table_id, StatTableHand.number == number
        )
    ).first()
    conn.execute(
        delete(StatTableHand).where(
            StatTableHand.table_id == table_id, StatTableHand.number == number
        )
    )
    for sitter, line in lines:
        # A hand dealt before this was kept (no row) is not known to be all theirs.
        counted = (
            row is not None
            and sitter.sat_at is not None
            and sitter.sat_at <= utc(row.dealt_at)
            and not row.stood_in & (1 << sitter.seat)
        )
        record_hand(
            conn,
            sitter.player_id,
            "friends",
            preset,
            table_id,
            number,
            line,
            at=at,
            counted=counted,
        )
