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
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, func, insert, select, tuple_, update

from sheepshead.store.friends_rows import (
    BY_CODE,
    BY_ID,
    CLAIM,
    DUE,
    FINISH,
    ID_BY_CODE,
    LOCK,
    MOVES,
    DoneHands,
    FriendHandRow,
    FriendSeatRow,
    FriendTableRow,
    StoredSeat,
    StoredTable,
    assemble,
    now,
    read_whole,
)
from sheepshead.store.games import StoredHand, new_id
from sheepshead.store.identity import DisplayName

__all__ = [
    "CHANNEL",
    "FriendHandRow",
    "FriendSeatRow",
    "FriendTableRow",
    "FriendsStore",
    "Stale",
    "StoredSeat",
    "StoredTable",
    "Write",
    "new_code",
    "now",
]

#: The PostgreSQL channel every process listens on; payload ``<table id>:<stamp>``.
CHANNEL = "table_events"
#: Bytes of randomness in an invitation code (96 bits: the issue asks for 64 at least).
CODE_BYTES = 12
#: A table with no person's action for this long is due to close.
IDLE_CLOSE = timedelta(hours=1)
#: The fixed messages kept per table (the newest).
MESSAGES_KEPT = 20


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
        """The game's new version and hands (the version is written, and the one loaded
        checked, by ``finish``)."""
        self._version = version
        self._hands.update((h.number, h) for h in (*changed, *added))
        for hand in changed:
            values = {"moves": list(hand.moves), "done": hand.done}
            self.conn.execute(MOVES, {"b_table": self.table.id, "b_number": hand.number, **values})
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

    def finish(self, notify: str | None = None) -> None:
        """The table's row: the new stamp, version and columns, the version loaded
        checked again (``Stale`` else); ``notify``: the ``NOTIFY`` payload (PostgreSQL),
        sent by the same statement."""
        t = self.table
        values = {"stamp": t.stamp + 1, "version": self._version, **self.changes}
        where = {"b_id": t.id, "b_version": t.version}
        if notify is None:
            done = self.conn.execute(FINISH, {**where, **values}).rowcount
        else:
            note = {"b_channel": CHANNEL, "b_payload": notify}
            done = len(self.conn.execute(_NOTIFYING, {**where, **note, **values}).all())
        if done != 1:
            raise Stale(t.id)


#: ``FINISH`` that also sends the ``NOTIFY`` (once the transaction commits).
_NOTIFYING = FINISH.returning(func.pg_notify(bindparam("b_channel"), bindparam("b_payload")))


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
        #: The same pool, its connections in autocommit: a read of one statement needs
        #: no transaction (no ``BEGIN``, no ``ROLLBACK``).
        self.reader = engine.execution_options(isolation_level="AUTOCOMMIT")
        #: Each table's finished hands as last read here (they never change).
        self.done = DoneHands()

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
            table = assemble(conn, conn.execute(BY_ID, {"b_id": table_id}).first(), self.done)
        assert table is not None
        return table

    def load(self, code: str) -> StoredTable | None:
        """The table as it is now: one moment of it, although a write may commit while
        it is read (its row, seats and hands all from before that write or all from
        after it). On PostgreSQL its id, then the table in one statement."""
        if self.postgres:
            with self.reader.connect() as conn:
                table_id = conn.execute(ID_BY_CODE, {"b_code": code}).scalar()
                return None if table_id is None else read_whole(conn, table_id, self.done)
        with self.engine.connect() as conn:
            _one_snapshot(conn)
            return assemble(conn, conn.execute(BY_CODE, {"b_code": code}).first(), self.done)

    def load_id(self, table_id: str) -> StoredTable | None:
        """The table as it is now (what every wake-up reads), one moment of it as
        ``load``'s: on PostgreSQL in one statement, outside a transaction (one round
        trip instead of five)."""
        if self.postgres:
            with self.reader.connect() as conn:
                return read_whole(conn, table_id, self.done)
        with self.engine.connect() as conn:
            _one_snapshot(conn)
            return assemble(conn, conn.execute(BY_ID, {"b_id": table_id}).first(), self.done)

    @contextmanager
    def write(self, code: str, quiet: bool = False) -> Iterator[Write | None]:
        """The table locked for one write (None: no such code). The changes commit
        when the block ends without an exception; then the table's sockets wake
        (``quiet``: they do not, and the stamp stays: nothing they show changed)."""
        announced: str | None = None
        try:
            with self.engine.begin() as conn:
                # The lock and the row in one statement; then the seats and hands.
                table = assemble(conn, conn.execute(LOCK, {"b_code": code}).first(), self.done)
                if table is None:
                    yield None
                    return
                write = Write(conn, table)
                yield write
                if quiet:
                    assert not write.changes, "a quiet write changes no column of the table"
                    return
                write.finish(self._payload(table.id, table.stamp + 1))
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

    def _payload(self, table_id: str, stamp: int) -> str | None:
        """The ``NOTIFY`` payload of a change (PostgreSQL; SQLite wakes its own)."""
        return f"{table_id}:{stamp}" if self.postgres else None

    def due(self, at: datetime, limit: int = 20) -> list[str]:
        """Codes of the tables with something due: a clock that ran out, or the seat
        to act away (its socket gone). Read without a lock: each is then claimed."""
        with self.engine.connect() as conn:
            found = conn.execute(DUE, {"b_at": at, "b_idle": at - IDLE_CLOSE, "b_limit": limit})
            return sorted(set(found.scalars()))

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
            table = assemble(conn, conn.execute(CLAIM, {"b_code": code}).first(), self.done)
            if table is None:
                yield None
                return
            write = Write(conn, table)
            yield write
            write.finish(self._payload(table.id, table.stamp + 1))

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

    def arrive(self, code: str, player_id: str, at: datetime, until: datetime) -> bool:
        """A socket of ``player_id``'s opened at table ``code`` (not closed): their
        seat's presence renewed until ``until`` if they are there already (not
        covered, not away at ``at``), in one statement; False (nothing written) when
        they are not, or have no seat: their arrival is then a locked write."""
        table = (
            select(FriendTableRow.id)
            .where(FriendTableRow.code == code, FriendTableRow.status != "closed")
            .scalar_subquery()
        )
        with self.engine.begin() as conn:
            done = conn.execute(
                update(FriendSeatRow)
                .where(
                    FriendSeatRow.table_id == table,
                    FriendSeatRow.player_id == player_id,
                    FriendSeatRow.covered.is_(False),
                    (FriendSeatRow.live_until.is_(None)) | (FriendSeatRow.live_until >= at),
                )
                .values(live_until=until)
            )
            return done.rowcount == 1

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


def _one_snapshot(conn: Connection) -> None:
    """SQLite: the statements that follow read one snapshot of the database. Python's
    sqlite3 opens a transaction only before a write, so each ``SELECT`` alone would
    see whatever had committed by then; the read ends with the connection's rollback."""
    conn.exec_driver_sql("BEGIN")
