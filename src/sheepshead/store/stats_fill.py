"""Fill the statistics for the players from before them (migration ``stats_0002``; run
again on a database already filled, it adds nothing).

Free play: each stored game is replayed from its seeds and moves, and each finished
hand goes into its player's history and tallies, oldest game first. The daily: the
days with a finished ranked result count, and the streaks are worked out from them.
A daily deal's own line needs the day's seed, which only the server's secret gives
(the migration has none): the daily deals played before this migration count in the
daily figures (days, streaks, percentiles) but are not in the hand history.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.dialects import postgresql, sqlite

from sheepshead.actions import parse_move
from sheepshead.match import Match
from sheepshead.rules import Rules
from sheepshead.store.daily_models import DailyResult
from sheepshead.store.hand_lines import hand_line, preset_name
from sheepshead.store.models import GameRow, HandRow
from sheepshead.store.stats import record_hand, recount, settle
from sheepshead.store.stats_models import StatDay

#: The player's seat at every table of theirs (``table.HUMAN``).
HUMAN = 0


def fill(conn: Connection) -> None:
    for game in conn.execute(select(GameRow).order_by(GameRow.created_at, GameRow.id)).all():
        _fill_game(conn, game)
    for day, player_id, attempt_id in conn.execute(
        select(DailyResult.day, DailyResult.player_id, DailyResult.attempt_id)
    ).all():
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        conn.execute(
            dialect.insert(StatDay)
            .values(
                player_id=player_id,
                day=day,
                attempt_id=attempt_id,
                counted=True,
                percentile=None,
                final=False,
            )
            .on_conflict_do_nothing(index_elements=["player_id", "day"])
        )
    players = conn.execute(select(StatDay.player_id).distinct()).scalars().all()
    for player_id in players:
        recount(conn, player_id)
    settle(conn)


def _fill_game(conn: Connection, game: Any) -> None:
    try:
        rules = Rules.from_record(game.rules)
    except ValueError:
        return  # rules this code cannot read: nothing to count
    hands = conn.execute(
        select(HandRow.number, HandRow.seed, HandRow.moves)
        .where(HandRow.game_id == game.id, HandRow.done.is_(True))
        .order_by(HandRow.number)
    ).all()
    match = Match(rules, game.first_dealer)
    at = game.updated_at or datetime.now(UTC)
    preset = preset_name(rules)
    for number, seed, moves in hands:
        try:
            match = match.start_hand(bytes(seed))
            for text in moves:
                match = match.apply(parse_move(text).action)
        except ValueError:
            return  # moves that do not replay: the rest of this game is not counted
        finished = match.hands[-1] if match.current is None and match.hands else None
        if finished is None:
            return
        line = hand_line(finished, HUMAN)
        record_hand(conn, game.player_id, "free", preset, game.id, number, line, at=at)
