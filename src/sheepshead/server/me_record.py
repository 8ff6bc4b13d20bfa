"""Where the statistics learn of a hand's end: one call from the table's save
(``tables.py``) and one from the daily attempt's (``daily_play.py``), each after the
game's own write went through. Each is idempotent (a hand is recorded once, by its
game or attempt and number), so a retry or a race records nothing twice."""

from __future__ import annotations

import logging
from collections.abc import Callable

from sqlalchemy import Connection, Engine

from sheepshead import daily_game as daily
from sheepshead.store.daily_store import Attempt
from sheepshead.store.hand_lines import hand_line, preset_name
from sheepshead.store.stats import StatsStore, record_hand
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
