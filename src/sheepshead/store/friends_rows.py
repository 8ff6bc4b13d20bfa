"""Friends' tables' rows and how one table is read: the ORM rows, the table as the
game code holds it (``StoredTable``), and the few statements every read and write
uses, built once (building a statement costs more than sending it).

A table is read in three statements: its row (under a write, the ``UPDATE`` that
takes the row lock returns it), its seats with their people's names, and its hands
after the finished ones this process has read already: a hand never changes once it
is over (the hints of a hand are counted only while it is played), so the finished
hands of a table are kept per process (``DoneHands``) and only the hand in play, and
any newer, is read again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Connection,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    Row,
    String,
    Table,
    bindparam,
    func,
    select,
    union,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from sheepshead.store.games import StoredHand
from sheepshead.store.identity import DisplayName
from sheepshead.store.instants import utc
from sheepshead.store.models import Base


def now() -> datetime:
    return datetime.now(UTC)


class FriendTableRow(Base):
    """A private table: rules, computer players' level, clock, and its version."""

    __tablename__ = "friend_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The invitation: whoever holds it may look at the lobby and take a free seat.
    code: Mapped[str] = mapped_column(String(32), unique=True)
    host_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    level: Mapped[str] = mapped_column(String(16))
    #: The decision clock in seconds; None: no clock.
    seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    hints: Mapped[bool] = mapped_column(Boolean)
    first_dealer: Mapped[int] = mapped_column(Integer)
    bot_seed: Mapped[int] = mapped_column(BigInteger)
    #: The game's version (hands dealt plus actions): 0 before the start.
    version: Mapped[int] = mapped_column(Integer)
    #: Counts every change (seats, messages, the game): what a wake-up names.
    stamp: Mapped[int] = mapped_column(Integer)
    #: ``lobby``, ``playing`` or ``closed``.
    status: Mapped[str] = mapped_column(String(8))
    #: The seat whose decision it is, None between hands.
    turn_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: When the seat to act runs out of time; None: no clock running.
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: The newest fixed messages: ``[{"seat", "key", "stamp"}]``.
    messages: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: The last action of a person (an idle table closes an hour after it).
    acted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_friend_tables_status_deadline", "status", "deadline"),)


class FriendSeatRow(Base):
    """A seat: the person in it (None: the computer player), since when, and whether
    their socket is there."""

    __tablename__ = "friend_seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("friend_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    sat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: The computer plays for this person (their clock ran out) until they are back.
    covered: Mapped[bool] = mapped_column(Boolean)
    #: A socket of theirs was there until this time (renewed while it is open); None:
    #: never connected (a program using only HTTP), never counted as away.
    live_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_friend_seats_player_id", "player_id"),)


class FriendHandRow(Base):
    """One hand of a friends' table: its secret seed and its moves so far."""

    __tablename__ = "friend_hands"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("friend_tables.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[bytes] = mapped_column(LargeBinary)
    seed_sha256: Mapped[str] = mapped_column(String(64))
    moves: Mapped[list[str]] = mapped_column(JSON)
    done: Mapped[bool] = mapped_column(Boolean)
    #: Per seat, the coach's hints asked for in this hand; None: none asked for.
    hints: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)


@dataclass(frozen=True, slots=True)
class StoredSeat:
    seat: int
    player_id: str | None
    sat_at: datetime | None
    covered: bool
    live_until: datetime | None
    #: The person's display name, if they have one and it is not hidden (read with
    #: the seats, in the same query).
    name: str | None = None

    def away(self, at: datetime) -> bool:
        """A person whose socket has gone (and not come back)."""
        return self.player_id is not None and self.live_until is not None and self.live_until < at


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: str
    code: str
    host_id: str | None
    rules: dict[str, Any]
    level: str
    seconds: int | None
    hints: bool
    first_dealer: int
    bot_seed: int
    version: int
    stamp: int
    status: str
    turn_seat: int | None
    deadline: datetime | None
    messages: tuple[dict[str, Any], ...]
    acted_at: datetime
    seats: tuple[StoredSeat, ...]
    hands: tuple[StoredHand, ...]
    #: Per hand number, the coach's hints each seat asked for (hands with some only).
    hint_counts: dict[int, tuple[int, ...]] = field(default_factory=dict)

    def seat_of(self, player_id: str) -> int | None:
        return next((s.seat for s in self.seats if s.player_id == player_id), None)


_T = cast(Table, FriendTableRow.__table__)
_S = cast(Table, FriendSeatRow.__table__)
_H = cast(Table, FriendHandRow.__table__)

#: The table's row by invitation code, by id; and by code under the row lock (an
#: ``UPDATE`` that changes nothing: PostgreSQL's row lock, SQLite's write lock).
BY_CODE = select(_T).where(_T.c.code == bindparam("b_code"))
BY_ID = select(_T).where(_T.c.id == bindparam("b_id"))
LOCK = update(_T).where(_T.c.code == bindparam("b_code")).values(stamp=_T.c.stamp).returning(*_T.c)
#: The id by code: a code's table never changes, so it may be read apart from the table.
ID_BY_CODE = select(_T.c.id).where(_T.c.code == bindparam("b_code"))
#: Claimed by one process of several: a row another holds is skipped (PostgreSQL).
CLAIM = BY_CODE.with_for_update(skip_locked=True)
SEATS = (
    select(_S, DisplayName.text.label("name"))
    .outerjoin(
        DisplayName, (DisplayName.player_id == _S.c.player_id) & DisplayName.hidden.is_(False)
    )
    .where(_S.c.table_id == bindparam("b_table"))
    .order_by(_S.c.seat)
)
HANDS = (
    select(_H.c.number, _H.c.seed, _H.c.moves, _H.c.done, _H.c.hints)
    .where(_H.c.table_id == bindparam("b_table"), _H.c.number >= bindparam("b_from"))
    .order_by(_H.c.number)
)
#: A read of the whole table in one statement (PostgreSQL): the row, with its seats and
#: its hands from ``b_from`` as JSON arrays. One statement sees one snapshot, so it needs
#: no transaction: one round trip where the three statements above, in a transaction,
#: take five (``BEGIN`` and ``ROLLBACK`` included).
_SEATS_JSON = (
    select(
        func.json_agg(
            func.json_build_object(
                "seat",
                _S.c.seat,
                "player_id",
                _S.c.player_id,
                "sat_at",
                _S.c.sat_at,
                "covered",
                _S.c.covered,
                "live_until",
                _S.c.live_until,
                "name",
                DisplayName.text,
            )
        )
    )
    .select_from(
        _S.outerjoin(
            DisplayName,
            (DisplayName.player_id == _S.c.player_id) & DisplayName.hidden.is_(False),
        )
    )
    .where(_S.c.table_id == _T.c.id)
    .scalar_subquery()
)
_HANDS_JSON = (
    select(
        func.json_agg(
            func.json_build_object(
                "number",
                _H.c.number,
                "seed",
                func.encode(_H.c.seed, "hex"),
                "moves",
                _H.c.moves,
                "done",
                _H.c.done,
                "hints",
                _H.c.hints,
            )
        )
    )
    .where(_H.c.table_id == _T.c.id, _H.c.number >= bindparam("b_from"))
    .scalar_subquery()
)
WHOLE_BY_ID = select(_T, _SEATS_JSON.label("seats_json"), _HANDS_JSON.label("hands_json")).where(
    _T.c.id == bindparam("b_id")
)
#: A write's last statement: the table's new stamp, version and columns (the values
#: are the parameters' other keys), if the game's version is still the one read.
FINISH = update(_T).where(_T.c.id == bindparam("b_id"), _T.c.version == bindparam("b_version"))
#: A hand's moves so far.
MOVES = update(_H).where(
    _H.c.table_id == bindparam("b_table"), _H.c.number == bindparam("b_number")
)
#: The codes of the tables with something due at ``b_at`` (at most ``b_limit`` of each
#: kind): a clock run out, the seat to act away (its socket gone), an idle hour.
_CLOCKS = select(_T.c.code).where(_T.c.status == "playing", _T.c.deadline <= bindparam("b_at"))
_AWAY = (
    select(_T.c.code)
    .join(_S, (_S.c.table_id == _T.c.id) & (_S.c.seat == _T.c.turn_seat))
    .where(
        _T.c.status == "playing",
        _S.c.player_id.is_not(None),
        _S.c.live_until < bindparam("b_at"),
    )
)
_IDLE = select(_T.c.code).where(_T.c.status != "closed", _T.c.acted_at < bindparam("b_idle"))
DUE = union(*(q.limit(bindparam("b_limit")).subquery().select() for q in (_CLOCKS, _AWAY, _IDLE)))


@dataclass(frozen=True, slots=True)
class Done:
    """A table's finished hands, from the first, with the hints asked in each."""

    hands: tuple[StoredHand, ...] = ()
    hints: tuple[tuple[int, ...] | None, ...] = ()


class DoneHands:
    """Per table id, its finished hands as this process last read them (the least
    recently used dropped): they never change, so they are not read again."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._entries: OrderedDict[str, Done] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: str) -> Done:
        with self._lock:
            done = self._entries.get(table_id)
            if done is None:
                return Done()
            self._entries.move_to_end(table_id)
            return done

    def put(self, table_id: str, done: Done) -> None:
        with self._lock:
            known = self._entries.get(table_id)
            if known is None or len(done.hands) > len(known.hands):
                self._entries[table_id] = done
            self._entries.move_to_end(table_id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)


def assemble(conn: Connection, t: Row[Any] | None, cache: DoneHands) -> StoredTable | None:
    """The table whose row is ``t``: its seats and hands read in this transaction."""
    if t is None:
        return None
    seats = conn.execute(SEATS, {"b_table": t.id}).all()
    known = cache.get(t.id)
    first = len(known.hands) + 1
    rows = conn.execute(HANDS, {"b_table": t.id, "b_from": first}).all()
    if rows and rows[0].number != first:
        # Never expected (hands are only added): read them all again.
        known = Done()
        rows = conn.execute(HANDS, {"b_table": t.id, "b_from": 1}).all()
    return _stored(t, seats, known, rows, cache)


def read_whole(conn: Connection, table_id: str, cache: DoneHands) -> StoredTable | None:
    """The table ``table_id`` in one statement (``WHOLE_BY_ID``, PostgreSQL), on a
    connection in autocommit: the same table ``assemble`` gives."""
    known = cache.get(table_id)
    first = len(known.hands) + 1
    t = conn.execute(WHOLE_BY_ID, {"b_id": table_id, "b_from": first}).first()
    if t is None:
        return None
    hands = [_JsonHand(h) for h in sorted(t.hands_json or (), key=lambda h: h["number"])]
    if hands and hands[0].number != first:
        # Never expected (hands are only added): read them all again.
        t = conn.execute(WHOLE_BY_ID, {"b_id": table_id, "b_from": 1}).first()
        if t is None:
            return None
        known = Done()
        hands = [_JsonHand(h) for h in sorted(t.hands_json or (), key=lambda h: h["number"])]
    seats = [_JsonSeat(s) for s in sorted(t.seats_json or (), key=lambda s: s["seat"])]
    return _stored(t, seats, known, hands, cache)


class _JsonSeat:
    """A seat's row as ``WHOLE_BY_ID`` gives it (JSON: its times as ISO text)."""

    __slots__ = ("covered", "live_until", "name", "player_id", "sat_at", "seat")

    def __init__(self, j: dict[str, Any]) -> None:
        self.seat: int = j["seat"]
        self.player_id: str | None = j["player_id"]
        self.sat_at = _when(j["sat_at"])
        self.covered: bool = j["covered"]
        self.live_until = _when(j["live_until"])
        self.name: str | None = j["name"]


class _JsonHand:
    """A hand's row as ``WHOLE_BY_ID`` gives it (JSON: its seed as hex)."""

    __slots__ = ("done", "hints", "moves", "number", "seed")

    def __init__(self, j: dict[str, Any]) -> None:
        self.number: int = j["number"]
        self.seed = bytes.fromhex(j["seed"])
        self.moves: list[str] = j["moves"]
        self.done: bool = j["done"]
        self.hints: list[int] | None = j["hints"]


def _when(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _stored(
    t: Row[Any], seats: Sequence[Any], known: Done, rows: Sequence[Any], cache: DoneHands
) -> StoredTable:
    """The table from its row, its seats' rows and its hands' rows after ``known``'s."""
    read = tuple(StoredHand(h.number, bytes(h.seed), tuple(h.moves), h.done) for h in rows)
    hands = known.hands + read
    hints = known.hints + tuple(None if not h.hints else tuple(h.hints) for h in rows)
    finished = next((i for i, h in enumerate(hands) if not h.done), len(hands))
    if finished > len(known.hands):
        cache.put(t.id, Done(hands[:finished], hints[:finished]))
    acted: datetime = utc(t.acted_at)
    return StoredTable(
        id=t.id,
        code=t.code,
        host_id=t.host_id,
        rules=dict(t.rules),
        level=t.level,
        seconds=t.seconds,
        hints=t.hints,
        first_dealer=t.first_dealer,
        bot_seed=t.bot_seed,
        version=t.version,
        stamp=t.stamp,
        status=t.status,
        turn_seat=t.turn_seat,
        deadline=utc(t.deadline),
        messages=tuple(t.messages),
        acted_at=acted,
        seats=tuple(
            StoredSeat(s.seat, s.player_id, utc(s.sat_at), s.covered, utc(s.live_until), s.name)
            for s in seats
        ),
        hands=hands,
        hint_counts={h.number: c for h, c in zip(hands, hints, strict=True) if c},
    )
