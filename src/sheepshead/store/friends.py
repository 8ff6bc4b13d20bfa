"""Friends' tables in the database: the table (its rules, clock and version), its
seats (who sits where, since when, whether their socket is there) and its hands
(seeds plus moves, as a solo game's).

Every write takes the table's row lock first (``Store.write``): on PostgreSQL an
``UPDATE`` of the row, which a second writer waits behind; on SQLite the same
statement takes the database's write lock before anything is read, so no writer
ever works from a stale snapshot. The game's version is checked again in the
write's ``WHERE``, so of two requests that saw one version exactly one applies,
whichever process served them. After the commit, every process holding a socket
at the table is woken: ``NOTIFY table_events`` on PostgreSQL (sent only when the
transaction commits), a call in this process on SQLite.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    insert,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from sheepshead.store.games import StoredHand, new_id
from sheepshead.store.identity import DisplayName
from sheepshead.store.models import Base

#: The PostgreSQL channel every process listens on; payload ``<table id>:<stamp>``.
CHANNEL = "table_events"
#: Bytes of randomness in an invitation code (96 bits: the issue asks for 64 at least).
CODE_BYTES = 12
#: The fixed messages kept per table (the newest).
MESSAGES_KEPT = 20


def now() -> datetime:
    return datetime.now(UTC)


def _aware(when: datetime | None) -> datetime | None:
    # SQLite gives naive datetimes back: they were written in UTC.
    if when is None or when.tzinfo is not None:
        return when
    return when.replace(tzinfo=UTC)


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


def new_code() -> str:
    """An invitation code: 96 random bits, URL-safe text."""
    return secrets.token_urlsafe(CODE_BYTES)


def _hand_values(table_id: str, hand: StoredHand) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "number": hand.number,
        "seed": hand.seed,
        "seed_sha256": hashlib.sha256(hand.seed).hexdigest(),
        "moves": list(hand.moves),
        "done": hand.done,
    }


def _load(conn: Connection, where: Any) -> StoredTable | None:
    t = conn.execute(select(FriendTableRow.__table__).where(where)).first()
    if t is None:
        return None
    shown = (DisplayName.player_id == FriendSeatRow.player_id) & DisplayName.hidden.is_(False)
    seats = conn.execute(
        select(FriendSeatRow.__table__, DisplayName.text.label("name"))
        .outerjoin(DisplayName, shown)
        .where(FriendSeatRow.table_id == t.id)
        .order_by(FriendSeatRow.seat)
    ).all()
    hands = conn.execute(
        select(
            FriendHandRow.number,
            FriendHandRow.seed,
            FriendHandRow.moves,
            FriendHandRow.done,
            FriendHandRow.hints,
        )
        .where(FriendHandRow.table_id == t.id)
        .order_by(FriendHandRow.number)
    ).all()
    acted = _aware(t.acted_at)
    assert acted is not None
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
        deadline=_aware(t.deadline),
        messages=tuple(t.messages),
        acted_at=acted,
        seats=tuple(
            StoredSeat(
                s.seat, s.player_id, _aware(s.sat_at), s.covered, _aware(s.live_until), s.name
            )
            for s in seats
        ),
        hands=tuple(StoredHand(h.number, bytes(h.seed), tuple(h.moves), h.done) for h in hands),
        hint_counts={h.number: tuple(h.hints) for h in hands if h.hints},
    )


class Stale(Exception):
    """The game's version moved between the lock and the write (never expected: the
    lock serializes writers; kept as the last guard)."""


class Write:
    """One locked write to one table; its changes commit together, or none does."""

    def __init__(self, conn: Connection, table: StoredTable) -> None:
        self.conn = conn
        self.table = table
        self.changes: dict[str, Any] = {}
        #: What ``after`` needs: the seats' changes, the game's version and hands.
        self._seats: dict[int, dict[str, Any]] = {}
        self._version = table.version
        self._hands: dict[int, StoredHand] = {}
        #: What this process may show its own sockets from memory once the write has
        #: committed (the table after it, built by the caller), or None: they read it.
        #: Only a fast path: the other processes are woken by NOTIFY all the same.
        self.local: object | None = None

    def set(self, **values: Any) -> None:
        """Columns of the table's row to change (``status``, ``host_id``, ...)."""
        self.changes.update(values)

    def seat(self, seat: int, **values: Any) -> None:
        self._seats.setdefault(seat, {}).update(values)
        self.conn.execute(
            update(FriendSeatRow)
            .where(FriendSeatRow.table_id == self.table.id, FriendSeatRow.seat == seat)
            .values(**values)
        )

    def game(
        self,
        version: int,
        changed: Sequence[StoredHand] = (),
        added: Sequence[StoredHand] = (),
    ) -> None:
        """The game's new version and hands, checked against the version loaded."""
        bumped = self.conn.execute(
            update(FriendTableRow)
            .where(FriendTableRow.id == self.table.id, FriendTableRow.version == self.table.version)
            .values(version=version)
        )
        if bumped.rowcount != 1:
            raise Stale(self.table.id)
        self._version = version
        self._hands.update((h.number, h) for h in (*changed, *added))
        for hand in changed:
            self.conn.execute(
                update(FriendHandRow)
                .where(FriendHandRow.table_id == self.table.id, FriendHandRow.number == hand.number)
                .values(moves=list(hand.moves), done=hand.done)
            )
        for hand in added:
            self.conn.execute(insert(FriendHandRow).values(_hand_values(self.table.id, hand)))

    def hint(self, number: int, seat: int) -> int:
        """One more hint for ``seat`` in hand ``number``; its count in that hand now."""
        counts = list(self.table.hint_counts.get(number, (0,) * len(self.table.seats)))
        counts[seat] += 1
        self.conn.execute(
            update(FriendHandRow)
            .where(FriendHandRow.table_id == self.table.id, FriendHandRow.number == number)
            .values(hints=counts)
        )
        return counts[seat]

    def message(self, seat: int, key: str) -> None:
        stamp = self.table.stamp + 1
        kept = [*self.table.messages, {"seat": seat, "key": key, "stamp": stamp}]
        self.set(messages=kept[-MESSAGES_KEPT:])

    def after(self) -> StoredTable:
        """The table as this write leaves it once committed: what loading it again
        would give, without the queries (a seat's new person's name aside: a write
        that seats somebody loads the table again instead)."""
        t = self.table
        assert all("player_id" not in v for v in self._seats.values()), "load it again"
        changes = dict(self.changes)
        if "messages" in changes:
            changes["messages"] = tuple(changes["messages"])
        hands = {h.number: h for h in t.hands} | self._hands
        return replace(
            t,
            **changes,
            version=self._version,
            stamp=t.stamp + 1,
            seats=tuple(replace(s, **self._seats.get(s.seat, {})) for s in t.seats),
            hands=tuple(hands[n] for n in sorted(hands)),
        )

    def finish(self) -> None:
        self.conn.execute(
            update(FriendTableRow)
            .where(FriendTableRow.id == self.table.id)
            .values(stamp=self.table.stamp + 1, **self.changes)
        )


class FriendsStore:
    """Friends' tables. ``wake(table_id, stamp, local)`` is called after each commit on
    SQLite; on PostgreSQL the commit itself sends ``NOTIFY`` to every process, and
    ``wake`` is called too when the write left a ``local`` table for this process's own
    sockets (which then need no read; the NOTIFY it also hears names a stamp they have).
    ``expect(table_id, stamp)`` says so before such a write commits; if it then fails,
    ``wake(table_id, None, None)``: read the table, whatever it holds."""

    def __init__(
        self,
        engine: Engine,
        wake: Callable[[str, int | None, object | None], None] | None = None,
        expect: Callable[[str, int], None] | None = None,
    ) -> None:
        self.engine = engine
        self.wake = wake
        #: Called before the commit of a write with a ``local`` table: its stamp.
        self.expect = expect
        self.postgres = engine.dialect.name == "postgresql"

    def create(
        self,
        host_id: str,
        players: int,
        rules: dict[str, Any],
        level: str,
        seconds: int | None,
        hints: bool,
        first_dealer: int,
        bot_seed: int,
    ) -> StoredTable:
        table_id, at = new_id(), now()
        with self.engine.begin() as conn:
            conn.execute(
                insert(FriendTableRow).values(
                    id=table_id,
                    code=new_code(),
                    host_id=host_id,
                    rules=rules,
                    level=level,
                    seconds=seconds,
                    hints=hints,
                    first_dealer=first_dealer,
                    bot_seed=bot_seed,
                    version=0,
                    stamp=0,
                    status="lobby",
                    turn_seat=None,
                    deadline=None,
                    messages=[],
                    created_at=at,
                    acted_at=at,
                )
            )
            for seat in range(players):
                conn.execute(
                    insert(FriendSeatRow).values(
                        table_id=table_id,
                        seat=seat,
                        player_id=host_id if seat == 0 else None,
                        sat_at=at if seat == 0 else None,
                        covered=False,
                        live_until=None,
                    )
                )
            table = _load(conn, FriendTableRow.id == table_id)
        assert table is not None
        return table

    def load(self, code: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            return _load(conn, FriendTableRow.code == code)

    def load_id(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            return _load(conn, FriendTableRow.id == table_id)

    @contextmanager
    def write(self, code: str, quiet: bool = False) -> Iterator[Write | None]:
        """The table locked for one write (None: no such code). The changes commit
        when the block ends without an exception; then the table's sockets wake
        (``quiet``: they do not, and the stamp stays: nothing they show changed)."""
        announced: str | None = None
        try:
            with self.engine.begin() as conn:
                locked = conn.execute(
                    update(FriendTableRow)
                    .where(FriendTableRow.code == code)
                    .values(stamp=FriendTableRow.stamp)
                )
                if locked.rowcount != 1:
                    yield None
                    return
                table = _load(conn, FriendTableRow.code == code)
                assert table is not None
                write = Write(conn, table)
                yield write
                if quiet:
                    assert not write.changes, "a quiet write changes no column of the table"
                    return
                write.finish()
                self._notify(conn, table.id, table.stamp + 1)
                if write.local is not None and self.expect is not None:
                    # Before the commit, so that this process's listener, hearing the
                    # NOTIFY first, leaves the change to the table in memory.
                    self.expect(table.id, table.stamp + 1)
                    announced = table.id
        except BaseException:
            if announced is not None and self.wake is not None:
                self.wake(announced, None, None)  # committed or not: read it
            raise
        if self.wake is not None and (not self.postgres or write.local is not None):
            self.wake(table.id, table.stamp + 1, write.local)

    def _notify(self, conn: Connection, table_id: str, stamp: int) -> None:
        if self.postgres:
            notify = text("SELECT pg_notify(:channel, :payload)")
            conn.execute(notify, {"channel": CHANNEL, "payload": f"{table_id}:{stamp}"})

    def due(self, at: datetime, limit: int = 20) -> list[str]:
        """Codes of the tables with something due: a clock that ran out, or the seat
        to act away (its socket gone). Read without a lock: each is then claimed."""
        with self.engine.connect() as conn:
            clocks = conn.execute(
                select(FriendTableRow.code)
                .where(FriendTableRow.status == "playing", FriendTableRow.deadline <= at)
                .limit(limit)
            ).scalars()
            away = conn.execute(
                select(FriendTableRow.code)
                .join(
                    FriendSeatRow,
                    (FriendSeatRow.table_id == FriendTableRow.id)
                    & (FriendSeatRow.seat == FriendTableRow.turn_seat),
                )
                .where(
                    FriendTableRow.status == "playing",
                    FriendSeatRow.player_id.is_not(None),
                    FriendSeatRow.live_until < at,
                )
                .limit(limit)
            ).scalars()
            idle = conn.execute(
                select(FriendTableRow.code)
                .where(
                    FriendTableRow.status != "closed",
                    FriendTableRow.acted_at < at - timedelta(hours=1),
                )
                .limit(limit)
            ).scalars()
            return sorted({*clocks, *away, *idle})

    @contextmanager
    def claim(self, code: str) -> Iterator[Write | None]:
        """As ``write``, but a table another process holds is skipped (None), so that
        a due clock is handled by one process: ``FOR UPDATE SKIP LOCKED`` on
        PostgreSQL; SQLite has one writer at a time anyway."""
        if not self.postgres:
            with self.write(code) as write:
                yield write
            return
        with self.engine.begin() as conn:
            found = conn.execute(
                select(FriendTableRow.id)
                .where(FriendTableRow.code == code)
                .with_for_update(skip_locked=True)
            ).scalar()
            if found is None:
                yield None
                return
            table = _load(conn, FriendTableRow.id == found)
            assert table is not None
            write = Write(conn, table)
            yield write
            write.finish()
            self._notify(conn, table.id, table.stamp + 1)

    def renew(self, sockets: Sequence[tuple[str, str]], until: datetime) -> None:
        """Open sockets' sign of life, ``(table id, player)`` each: their people's seats
        there until ``until`` (one statement for them all; no wake-up: nothing anyone
        sees changed)."""
        if not sockets:
            return
        with self.engine.begin() as conn:
            conn.execute(
                update(FriendSeatRow)
                .where(tuple_(FriendSeatRow.table_id, FriendSeatRow.player_id).in_(sockets))
                .values(live_until=until)
            )

    def live(self, table_id: str, seat: int, player_id: str, until: datetime) -> bool:
        """Renew a socket's presence (no wake-up: nothing anyone sees changed);
        False when the seat is no longer this player's."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(FriendSeatRow)
                .where(
                    FriendSeatRow.table_id == table_id,
                    FriendSeatRow.seat == seat,
                    FriendSeatRow.player_id == player_id,
                )
                .values(live_until=until)
            )
            return done.rowcount == 1

    def names(self, player_ids: Sequence[str]) -> dict[str, str]:
        """The display names these players may be shown by (none hidden), in one read."""
        if not player_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(DisplayName.player_id, DisplayName.text).where(
                    DisplayName.player_id.in_(list(player_ids)), DisplayName.hidden.is_(False)
                )
            ).all()
        return {r.player_id: r.text for r in rows}

    def stamps(self, table_ids: Sequence[str]) -> dict[str, int]:
        """Each table's stamp: to find what a lost wake-up missed."""
        if not table_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(FriendTableRow.id, FriendTableRow.stamp).where(
                    FriendTableRow.id.in_(list(table_ids))
                )
            ).all()
        return {r.id: r.stamp for r in rows}
