"""Filling the score-sheet line and running scores of finished hands stored before
``perf_0001``: each game is replayed once from its seeds and moves (migration only)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select, update

from sheepshead.actions import parse_move
from sheepshead.match import Match, sheet_line
from sheepshead.rules import Rules
from sheepshead.store.models import GameRow, HandRow


def fill_sheets(conn: Connection) -> int:
    """Write ``sheet`` and ``scores`` of every finished hand that lacks them; how many."""
    games = conn.execute(
        select(GameRow.id, GameRow.rules, GameRow.first_dealer)
        .where(GameRow.id.in_(select(HandRow.game_id).where(HandRow.done, HandRow.sheet.is_(None))))
        .order_by(GameRow.id)
    ).all()
    filled = 0
    for game_id, rules, first_dealer in games:
        hands = conn.execute(
            select(HandRow.number, HandRow.seed, HandRow.moves, HandRow.done)
            .where(HandRow.game_id == game_id)
            .order_by(HandRow.number)
        ).all()
        for number, sheet, scores in finished_lines(Rules.from_record(rules), first_dealer, hands):
            conn.execute(
                update(HandRow)
                .where(HandRow.game_id == game_id, HandRow.number == number)
                .values(sheet=sheet, scores=scores)
            )
            filled += 1
    return filled


def finished_lines(
    rules: Rules, first_dealer: int, hands: Any
) -> list[tuple[int, dict[str, Any], list[int]]]:
    """Each finished hand's number, sheet line and running scores after it."""
    match = Match(rules, first_dealer)
    lines = []
    for number, seed, moves, done in hands:
        if not done:
            break
        match = match.start_hand(bytes(seed))
        for text in moves:
            match = match.apply(parse_move(text).action)
        if match.current is not None:
            break  # stored as done, yet not over: left for the replay to refuse
        lines.append((number, sheet_line(number, match.hands[-1], bytes(seed)), list(match.scores)))
    return lines
