"""Where the statistics learn of a hand's end: one call from the table's save
(``tables.py``), one from the daily attempt's (``daily_play.py``) and one from a
friends' table's (``friends_play.py``), each with or after the game's own write. Each
is idempotent (a hand is recorded once, by its game, attempt or table, its number and
the player), so a retry or a race records nothing twice."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import Connection, Engine

from sheepshead import daily_game as daily
from sheepshead.store.daily_store import Attempt
from sheepshead.store.friends import StoredTable
from sheepshead.store.hand_lines import hand_line, preset_name
from sheepshead.store.stats import StatsStore, record_hand
from sheepshead.store.stats_friends import Sitter, hand_dealt, hand_ended, mask_of, stood_in
from sheepshead.table import HUMAN, Table

log = logging.getLogger(__name__)


def free_hand_ended(
    player_id: str, game_id: str, table: Table
) -> Callable[[Connection], None] | None:
    """The table's current hand has just ended: what puts it into the player's history
    and figures, written in the step's own transaction (``Store.save``'s ``also``)."""
    game = table.finished(table.hand_number)
    if game is None:
        return None
    line = hand_line(game, HUMAN)
    preset, number = preset_name(table.rules), table.hand_number

    def write(conn: Connection) -> None:
        record_hand(conn, player_id, "free", preset, game_id, number, line, None)

    return write


def daily_saved(engine: Engine, attempt: Attempt, table: Table, counted: bool) -> None:
    """A daily attempt's save went through: a deal that ended goes into the history (a
    ranked one into the figures too), and ``counted`` (the ranked attempt finished with
    its result) counts the day for the streak."""
    stats = StatsStore(engine)
    if table.hand_over:
        game = table.finished(table.hand_number)
        assert game is not None
        kind = "daily" if attempt.ranked else "replay"
        stats.record_hands(
            attempt.player_id,
            kind,
            preset_name(daily.RULES),
            attempt.id,
            [(table.hand_number, hand_line(game, HUMAN))],
            day=attempt.day,
        )
    if counted:
        stats.count_day(attempt.player_id, attempt.day, attempt.id)


def friends_step(conn: Connection, stored: StoredTable, before: Table, after: Table) -> None:
    """A step of a friends' table is being written (``conn``: its transaction; ``stored``
    the table as locked; ``before`` and ``after`` the game around the step, ``humans``
    the seats people decided for). Keeps the hand's row of who the computer stood in
    for, and when the step ends the hand, puts it into each seated person's history
    (``store/stats_friends.py``). Writes nothing on most steps."""
    number = after.hand_number
    dealt = number != before.hand_number
    game = after.game
    first = 0 if dealt else len(before.game.moves)
    people = [s for s in stored.seats if s.player_id is not None]
    held = {s.seat for s in people}
    computer = {m.seat for m in game.moves[first:] if m.seat not in after.humans} & held
    at = datetime.now(UTC)
    if dealt:
        hand_dealt(conn, stored.id, number, at, mask_of(computer))
    elif computer:
        stood_in(conn, stored.id, number, mask_of(computer))
    if not after.hand_over or (before.hand_over and not dealt):
        return
    lines = [
        (Sitter(s.seat, s.player_id, s.sat_at), hand_line(game, s.seat))
        for s in people
        if s.player_id is not None
    ]
    hand_ended(conn, stored.id, number, preset_name(after.rules), lines, at)
