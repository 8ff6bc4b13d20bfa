"""Friends' tables: sitting, starting, acting, the clocks and the stand-ins.

The game itself is the solo table's: a stored table is restored through
``Tables.restore`` and every step is ``Table.act`` / ``Table.next_hand`` /
``Table.cover`` with ``humans`` set to the seats whose people are there, so the
computer players act, as at a solo table, for every other seat. Each write runs
under the table's lock (``FriendsStore.write``) and checks the version again.

A person is *there* unless their clock ran out (``covered``: the computer plays
for them until they act again or reconnect) or their socket has gone
(``live_until`` past). When nobody is there, nothing is played.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sheepshead.events import Event, hand_events
from sheepshead.names import NameRefused, check_name, player_label
from sheepshead.refusals import IllegalAction
from sheepshead.rules import Rules, RulesError
from sheepshead.server.friends_view import COMPUTER_NAMES, seat_events, seat_state
from sheepshead.server.me_record import friends_step
from sheepshead.server.observability import bots_thinking
from sheepshead.server.tables import Tables, new_seed
from sheepshead.store import StoredGame, StoredHand
from sheepshead.store.friends import FriendsStore, StoredTable, Write, now
from sheepshead.store.identity import IdentityStore, NameTaken
from sheepshead.table import BadAction, Table, TableConflict, Turn, check_level

#: The decision clocks a table may have (seconds; None: no clock).
CLOCKS: tuple[int | None, ...] = (None, 15, 30, 60)
#: The fixed messages (their words are the page's, in the reader's language).
MESSAGES: tuple[str, ...] = (
    "hello",
    "good-luck",
    "well-played",
    "good-game",
    "thanks",
    "one-more",
    "bye",
)
#: How long a socket counts as there without a sign of life (it renews every 10 s).
LIVE_SECONDS = 30
#: A table nobody acted at for this long closes.
IDLE = timedelta(hours=1)


class Refusal(Exception):
    """A request refused: HTTP status, sentence, code and params (``refused.py``);
    ``state`` the caller's state as it now is, for a 409."""

    def __init__(
        self,
        status: int,
        reason: str,
        code: str,
        params: dict[str, Any] | None = None,
        state: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.code = code
        self.params = params or {}
        self.state = state


def not_found() -> Refusal:
    return Refusal(404, "no such table: check the invitation link", "no-such-table")


@dataclass(frozen=True, slots=True)
class Step:
    """A table after a change: its stored form and its game (None before the start)."""

    stored: StoredTable
    table: Table | None


def _humans(stored: StoredTable, at: datetime) -> frozenset[int]:
    return frozenset(
        s.seat for s in stored.seats if s.player_id is not None and not s.covered and not s.away(at)
    )


class Friends:
    def __init__(self, store: FriendsStore, tables: Tables, secret: bytes) -> None:
        self.store = store
        self.tables = tables
        self.names = IdentityStore(store.engine)  # the daily's names are the table's
        self.secret = secret

    # Reading -------------------------------------------------------------------------

    def restore(self, stored: StoredTable, at: datetime | None = None) -> Table | None:
        if stored.status == "lobby" or not stored.hands:
            return None
        game = StoredGame(
            stored.id,
            stored.host_id or "",
            stored.rules,
            stored.level,
            stored.first_dealer,
            stored.bot_seed,
            stored.version,
            stored.hands,
        )
        table = self.tables.restore(game)
        return replace(table, humans=_humans(stored, at or now()))

    def load(self, code: str) -> StoredTable:
        stored = self.store.load(code) if _code_shape(code) else None
        if stored is None or stored.status == "closed":
            raise not_found()
        return stored

    def names_of(self, stored: StoredTable) -> list[str]:
        """Each seat's name: a person's display name (their label if it has none or
        it is hidden), a computer player's seat name."""
        names = []
        for seat in stored.seats:
            if seat.player_id is None:
                names.append(COMPUTER_NAMES[seat.seat])
            else:
                names.append(seat.name or player_label(self.secret, seat.player_id))
        return names

    def lobby(self, stored: StoredTable, names: list[str] | None = None) -> dict[str, Any]:
        """What anyone holding the code may see: seats, names, rules, level, clock."""
        names = self.names_of(stored) if names is None else names
        at = now()
        host = stored.seat_of(stored.host_id) if stored.host_id else None
        return {
            "code": stored.code,
            "status": stored.status,
            "players": len(stored.seats),
            "rules": stored.rules,
            "level": stored.level,
            "seconds": stored.seconds,
            "hints": stored.hints,
            "host": host,
            "names": names,
            "computers": [s.seat for s in stored.seats if s.player_id is None],
            "away": [s.seat for s in stored.seats if s.away(at)],
            "covered": [s.seat for s in stored.seats if s.covered and s.player_id],
            "messages": list(stored.messages),
            "stamp": stored.stamp,
        }

    def state(
        self,
        stored: StoredTable,
        seat: int | None,
        table: Table | None,
        names: list[str] | None = None,
    ) -> dict[str, Any]:
        """``seat``'s state (the lobby's fields too); the lobby alone for a visitor."""
        lobby = self.lobby(stored, names)
        if seat is None:
            return lobby
        if table is None:
            return {**lobby, "seat": seat, "started": False}
        deadline = stored.deadline
        return {
            **seat_state(table, seat),
            **lobby,
            "id": stored.code,
            "seat": seat,
            "started": True,
            "turn": table.game.turn,
            "deadline": None if deadline is None else deadline.isoformat(),
            "hints_used": _hints_used(stored, table),
        }

    def view(self, code: str, player: str) -> dict[str, Any]:
        stored = self.load(code)
        return self.state(stored, stored.seat_of(player), self.restore(stored))

    def record(self, code: str, player: str, number: int) -> dict[str, Any]:
        """A finished hand's record, for a seated person."""
        stored = self.load(code)
        if stored.seat_of(player) is None:
            raise Refusal(403, "you have no seat at this table", "not-seated")
        table = self.restore(stored)
        record = None if table is None else table.hand_record(number)
        if record is None:
            raise Refusal(404, f"hand {number} is not over", "hand-not-over", {"number": number})
        return record

    def events_since(
        self,
        stored: StoredTable,
        table: Table | None,
        seat: int,
        version: int,
        names: list[str] | None = None,
        every: Sequence[Event] | None = None,
    ) -> list[dict[str, Any]]:
        """The events ``seat`` has not seen since ``version``, as it may see them:
        [] when the current hand began after it (the state then says it all).
        ``every``: the hand's events, when the caller made them once for every seat."""
        if table is None or version >= table.version:
            return []
        game = table.game
        hand_start = table.version - len(game.moves)
        if version < hand_start:
            return []
        every = hand_events(game) if every is None else every
        seen = _events_of_moves(every, version - hand_start)
        names = self.names_of(stored) if names is None else names
        return seat_events(every[seen:], seat, game, names)

    # Writing -------------------------------------------------------------------------

    @contextmanager
    def _write(self, code: str) -> Iterator[Write]:
        if not _code_shape(code):
            raise not_found()
        with self.store.write(code) as write:
            if write is None or write.table.status == "closed":
                raise not_found()
            yield write

    def ensure_name(self, player: str, name: str | None) -> None:
        """A seat needs a display name: the player's, or ``name`` checked as the
        daily's names are (422 refused, 409 taken)."""
        known = self.names.name_of(player)
        if name is None:
            if known is None:
                raise Refusal(422, "choose a display name to take a seat", "name-required")
            return
        if known is not None and known[0] == name.strip():
            return
        try:
            checked = check_name(name)
        except NameRefused as exc:
            raise Refusal(422, exc.reason, exc.code, dict(exc.params)) from None
        try:
            self.names.set_name(player, checked.text, checked.key, checked.look)
        except NameTaken:
            taken = "That name, or one that looks like it, is taken."
            raise Refusal(409, taken, "name-taken") from None

    def create(
        self,
        player: str,
        rules_record: dict[str, Any],
        level: str,
        seconds: int | None,
        hints: bool,
        name: str | None,
    ) -> StoredTable:
        try:
            rules = Rules.from_record(rules_record)
        except RulesError as exc:
            raise Refusal(422, f"rules: {exc}", "bad-rules", {"reason": str(exc)}) from None
        try:
            check_level(level)
        except ValueError as exc:
            raise Refusal(422, f"level: {exc}", "bad-level", {"reason": str(exc)}) from None
        if seconds not in CLOCKS:
            raise Refusal(422, "the clock is off (null), 15, 30 or 60 seconds", "bad-clock")
        self.ensure_name(player, name)
        return self.store.create(
            player,
            rules.players,
            rules.to_record(),
            level,
            seconds,
            hints,
            rules.players - 1,
            secrets.randbits(63),
        )

    def sit(self, code: str, player: str, name: str | None) -> tuple[int, StoredTable]:
        self.load(code)  # a wrong code is 404 before anything else is said
        self.ensure_name(player, name)
        with self._write(code) as write:
            stored = write.table
            mine = stored.seat_of(player)
            if mine is not None:
                return mine, stored
            free = next((s.seat for s in stored.seats if s.player_id is None), None)
            if free is None:
                raise Refusal(409, "every seat at this table is taken", "table-full")
            write.seat(free, player_id=player, sat_at=now(), covered=False, live_until=None)
            write.set(acted_at=now())
            if stored.host_id is None:
                write.set(host_id=player)
        return free, self.load(code)

    def leave(self, code: str, player: str, seat: int) -> None:
        """Give a seat back to the computer: your own, or (the host) anyone's between
        hands. The longest-seated person becomes host when the host leaves."""
        with self._write(code) as write:
            stored = write.table
            mine = stored.seat_of(player)
            if mine is None:
                raise Refusal(403, "you have no seat at this table", "not-seated")
            target = next((s for s in stored.seats if s.seat == seat), None)
            if target is None or target.player_id is None:
                raise Refusal(404, f"nobody sits in seat {seat}", "no-such-seat", {"seat": seat})
            if seat != mine:
                if player != stored.host_id:
                    raise Refusal(
                        403, "only the host may remove a player", "not-host", {"for": "remove"}
                    )
                table = self.restore(stored)
                if table is not None and not table.hand_over:
                    raise Refusal(
                        409, "a player is removed between hands", "hand-not-over", {"for": "remove"}
                    )
            write.seat(seat, player_id=None, sat_at=None, covered=False, live_until=None)
            left = replace(
                stored,
                seats=tuple(
                    replace(s, player_id=None) if s.seat == seat else s for s in stored.seats
                ),
            )
            if stored.host_id == target.player_id:
                write.set(host_id=_longest_seated(left))
            if all(s.player_id is None for s in left.seats):
                write.set(status="closed", deadline=None, turn_seat=None)
                return
            self._settle(write, left)

    def start(self, code: str, player: str) -> Step:
        with self._write(code) as write:
            stored = write.table
            if player != stored.host_id:
                raise Refusal(403, "only the host starts the table", "not-host", {"for": "start"})
            if stored.status != "lobby":
                raise Refusal(409, "this table has started", "started")
            empty = Table.restore(
                Rules.from_record(stored.rules),
                stored.level,
                stored.bot_seed,
                stored.first_dealer,
                [],
            )
            table = replace(empty, humans=_humans(stored, now()))
            with bots_thinking(table.level):
                turn = table.next_hand(new_seed(), 0)
            write.set(status="playing", acted_at=now())
            self._save(write, table, turn, added=True)
        return self.after(code)

    def act(self, code: str, player: str, action: str, version: int) -> tuple[Step, Turn]:
        with self._write(code) as write:
            stored = write.table
            seat = self._seat(stored, player)
            table = self._playing(stored)
            if any(s.seat == seat and s.covered for s in stored.seats):
                # They are back: the seat is theirs again from this decision on.
                write.seat(seat, covered=False)
            table = replace(table, humans=table.humans | {seat})
            try:
                with bots_thinking(table.level):
                    turn = table.act(action, version, seat)
            except TableConflict as exc:
                raise self._conflict(stored, table, seat, exc) from None
            except IllegalAction as exc:
                raise Refusal(422, exc.reason, exc.refusal.code, dict(exc.refusal.params)) from None
            except BadAction as exc:
                raise Refusal(422, exc.reason, "bad-action") from None
            write.set(acted_at=now())
            self._save(write, table, turn)
            step = self._after(write, turn)
        return step, turn

    def next_hand(self, code: str, player: str, version: int) -> tuple[Step, Turn]:
        with self._write(code) as write:
            stored = write.table
            seat = self._seat(stored, player)
            table = self._playing(stored)
            table = replace(table, humans=table.humans | {seat})
            try:
                with bots_thinking(table.level):
                    turn = table.next_hand(new_seed(), version)
            except TableConflict as exc:
                raise self._conflict(stored, table, seat, exc) from None
            write.set(acted_at=now())
            self._save(write, table, turn, added=True)
            step = self._after(write, turn)
        return step, turn

    def say(self, code: str, player: str, key: str) -> None:
        """A fixed message: in the lobby and between hands only."""
        if key not in MESSAGES:
            known = ", ".join(MESSAGES)
            words = {"message": key, "messages": known}
            raise Refusal(422, f"no message {key}; messages: {known}", "bad-message", words)
        with self._write(code) as write:
            stored = write.table
            seat = self._seat(stored, player)
            table = self.restore(stored)
            if table is not None and not table.hand_over:
                raise Refusal(409, "messages wait for the end of the hand", "not-between-hands")
            write.message(seat, key)

    def presence(self, code: str, player: str, there: bool) -> None:
        """A socket opened (``there``) or closed: the seat is the person's again, or
        the computer player stands in at once when it is their turn. A socket of a
        person who is there already (not covered, not away: the usual opening of the
        page) changes nothing anyone sees: one ``UPDATE`` of the seat's presence, no
        lock of the table, no wake-up."""
        at = now()
        until = at + timedelta(seconds=LIVE_SECONDS) if there else at
        if there and _code_shape(code) and self.store.arrive(code, player, at, until):
            return
        with self._write(code) as write:
            stored = write.table
            seat = stored.seat_of(player)
            if seat is None:
                return
            write.seat(seat, live_until=until, **({"covered": False} if there else {}))
            seats = tuple(
                replace(s, live_until=until, covered=s.covered and not there)
                if s.seat == seat
                else s
                for s in stored.seats
            )
            self._settle(write, replace(stored, seats=seats))

    def tick(self, code: str) -> None:
        """A due table (clock, away seat, idle hour), claimed by one process."""
        with self.store.claim(code) as write:
            if write is None or write.table.status == "closed":
                return
            stored, at = write.table, now()
            if stored.acted_at < at - IDLE:
                write.set(status="closed", deadline=None, turn_seat=None)
                return
            seats = stored.seats
            ran_out = stored.deadline is not None and stored.deadline <= at
            if ran_out and stored.turn_seat is not None:
                # The clock ran out: the computer plays for them until they are back.
                write.seat(stored.turn_seat, covered=True)
                seats = tuple(
                    replace(s, covered=True) if s.seat == stored.turn_seat else s for s in seats
                )
            self._settle(write, replace(stored, seats=seats))

    # The shared steps ------------------------------------------------------------------

    def _settle(self, write: Write, stored: StoredTable) -> None:
        """After the people at a table changed: if the decision now belongs to a seat
        nobody is there for, the computer takes it (and the bots after it), as long
        as somebody is there at all; then the turn and the clock are written."""
        table = self.restore(stored)
        if table is None:
            return
        game = table.match.current
        if game is None or game.turn in table.humans or not table.humans:
            self._clock(write, table, stored.version != table.version)
            return
        with bots_thinking(table.level):
            turn = table.cover(table.version)
        self._save(write, table, turn)

    def _save(self, write: Write, before: Table, turn: Turn, added: bool = False) -> None:
        after = turn.table
        number = after.hand_number
        seed, moves = after.hand(number)
        hand = _stored_hand(number, seed, moves, after.hand_over)
        if added:
            changed = []
            if number > 1:
                s, m = after.hand(number - 1)
                changed = [_stored_hand(number - 1, s, m, True)]
            write.game(after.version, changed=changed, added=[hand])
        else:
            write.game(after.version, changed=[hand])
        # A hand that ended goes into each seated person's history, in this transaction.
        friends_step(write.conn, write.table, before, after)
        self._clock(write, after, True)

    def _clock(self, write: Write, table: Table, fresh: bool) -> None:
        game = table.match.current
        turn = None if game is None else game.turn
        seconds = write.table.seconds
        if turn is None or turn not in table.humans:
            # Between hands, or nobody there to decide: no clock, nothing due.
            write.set(turn_seat=None, deadline=None)
        elif fresh or write.table.deadline is None:
            deadline = None if seconds is None else now() + timedelta(seconds=seconds)
            write.set(turn_seat=turn, deadline=deadline)

    def _seat(self, stored: StoredTable, player: str) -> int:
        seat = stored.seat_of(player)
        if seat is None:
            raise Refusal(403, "you have no seat at this table", "not-seated")
        return seat

    def _playing(self, stored: StoredTable) -> Table:
        table = self.restore(stored)
        if table is None:
            raise Refusal(409, "the host has not started this table yet", "not-started")
        return table

    def _conflict(
        self, stored: StoredTable, table: Table, seat: int, exc: TableConflict
    ) -> Refusal:
        status = 403 if exc.code == "not-your-turn" else 409
        reason, params = exc.reason, exc.params
        if exc.code == "not-your-turn":
            # Named as this table names the seat (the solo table's names are not its).
            name = self.names_of(stored)[table.game.turn or 0]
            reason, params = f"it is {name}'s turn, not yours", {**params, "name": name}
        return Refusal(status, reason, exc.code, params, self.state(stored, seat, table))

    def _after(self, write: Write, turn: Turn) -> Step:
        """The step this write makes, from memory (no second read): the reply's, and
        what this process's own sockets at the table are sent once it commits."""
        stored = write.after()
        step = Step(stored, replace(turn.table, humans=_humans(stored, now())))
        write.local = step
        return step

    def after(self, code: str) -> Step:
        stored = self.load(code)
        return Step(stored, self.restore(stored))

    def step_json(self, step: Step, turn: Turn | None, seat: int) -> dict[str, Any]:
        """``{state, events}`` for ``seat`` after a change (its events only)."""
        state = self.state(step.stored, seat, step.table)
        if turn is None or step.table is None:
            return {"state": state, "events": []}
        names = self.names_of(step.stored)
        return {"state": state, "events": seat_events(turn.events, seat, turn.table.game, names)}


def _hints_used(stored: StoredTable, table: Table) -> dict[str, list[int]]:
    """Per finished hand with some, the hints each seat asked for: shown to everyone
    (the hand in play's only once it is over: no signal during the hand)."""
    playing = None if table.hand_over else table.hand_number
    return {str(n): list(c) for n, c in sorted(stored.hint_counts.items()) if n != playing}


def _longest_seated(stored: StoredTable) -> str | None:
    seated = [s for s in stored.seats if s.player_id is not None and s.sat_at is not None]
    if not seated:
        return None
    return min(seated, key=lambda s: (s.sat_at, s.seat)).player_id


def _stored_hand(number: int, seed: bytes, moves: list[str], done: bool) -> StoredHand:
    return StoredHand(number, seed, tuple(moves), done)


def _events_of_moves(events: Sequence[Event], moves: int) -> int:
    """How many of a hand's events its first ``moves`` moves made: each move makes one
    event, and a play may add a trick's and the last move the hand's."""
    started = 0
    for index, event in enumerate(events):
        if event.type not in ("trick", "hand"):
            if started == moves:
                return index
            started += 1
    return len(events)


def _code_shape(code: str) -> bool:
    return 8 <= len(code) <= 32 and all(c.isalnum() or c in "-_" for c in code)
