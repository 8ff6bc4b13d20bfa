"""A player's own statistics and history, kept up to date as hands end and daily
attempts finish (migration ``stats_0001`` fills them for the players before it).

- ``stat_hands``: the history, one line per finished hand (free play, ranked daily
  deals, replays of past days, friends' tables), newest first by its id; ``counted``
  says whether it is in the figures.
- ``stat_tallies``: running sums per player and figure (``all``, ``role:<role>``,
  ``pos:<1..n-1|dealer>``), bumped with one upsert per figure at each hand's end, so
  that reading the statistics reads a handful of rows whatever the history's length.
- ``stat_daily``: the daily days counted and the streaks (``hand_lines.Streaks``),
  bumped when a ranked attempt finishes, recounted when a moderator voids a result.
- ``stat_days``: the days counted, with the day's percentile once known (final when
  the day's end is stored), for the chart and the calendar.

Replays of past days are kept in the history only: the statistics count what was
played blind; so is a hand at a friends' table in which the computer played some of
the player's decisions (``stats_friends.py``, ``docs/stats.md``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    bindparam,
    case,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import aliased

from sheepshead.store.daily_models import DailyDay, DailyResult
from sheepshead.store.hand_lines import THROWN_IN, HandLine, Streaks, streaks_of
from sheepshead.store.instants import utc
from sheepshead.store.stats_models import (
    COUNTS,
    STAT_TABLES,
    StatDaily,
    StatDay,
    StatHand,
    StatTally,
)

#: Lines of history per page.
PAGE_SIZE = 20


def _now() -> datetime:
    return datetime.now(UTC)


# Values ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tally:
    figure: str
    hands: int = 0
    points: int = 0
    picks: int = 0
    picker_wins: int = 0
    wins: int = 0
    schneider_won: int = 0
    schneider_lost: int = 0
    no_trick_won: int = 0
    no_trick_lost: int = 0


@dataclass(frozen=True, slots=True)
class PlayedDay:
    day: date
    counted: bool
    percentile: float | None


@dataclass(frozen=True, slots=True)
class Figures:
    """Everything the statistics page shows, as stored."""

    tallies: dict[str, Tally]
    streaks: Streaks
    days: tuple[PlayedDay, ...]


@dataclass(frozen=True, slots=True)
class HistoryLine:
    kind: str
    preset: str
    source: str
    number: int
    day: date | None
    players: int
    position: int
    role: str
    result: str
    points: int
    multiplier: int
    finished_at: datetime
    #: A free-play or friends' hand's seed (hex), to review its deal; None for a daily deal.
    seed: str | None
    counted: bool = True


def figures_of(line: HandLine) -> list[str]:
    """The tallies a hand adds to."""
    out = ["all", f"pos:{line.position_key}"]
    if line.role != THROWN_IN:
        out.append(f"role:{line.role}")
    return out


def counts_of(line: HandLine) -> dict[str, int]:
    return {
        "hands": 1,
        "points": line.points,
        "picks": int(line.picked),
        "picker_wins": int(line.picker_won),
        "wins": int(line.points > 0),
        "schneider_won": int(line.schneider == "won"),
        "schneider_lost": int(line.schneider == "lost"),
        "no_trick_won": int(line.no_trick == "won"),
        "no_trick_lost": int(line.no_trick == "lost"),
    }


#: The statements of a hand's recording, built once per database and number of figures
#: (building and compiling one costs more than running it: a hand's end at a friends'
#: table took 12 ms of CPU with them built each time).
_BUILT: dict[tuple[str, str, int], Any] = {}


def _tally_upsert(dialect_name: str, rows: int) -> Any:
    key = ("tally", dialect_name, rows)
    built = _BUILT.get(key)
    if built is None:
        dialect = postgresql if dialect_name == "postgresql" else sqlite
        table = StatTally.__table__
        stmt = dialect.insert(table).values(
            [
                {
                    "player_id": bindparam("b_player"),
                    "figure": bindparam(f"b_figure_{i}"),
                    **{name: bindparam(f"b_{name}") for name in COUNTS},
                }
                for i in range(rows)
            ]
        )
        built = _BUILT[key] = stmt.on_conflict_do_update(
            index_elements=["player_id", "figure"],
            set_={name: table.c[name] + stmt.excluded[name] for name in COUNTS},
        )
    return built


_HAND_COLUMNS = (
    "player_id",
    "kind",
    "preset",
    "source",
    "number",
    "day",
    "players",
    "position",
    "role",
    "result",
    "points",
    "multiplier",
    "finished_at",
    "counted",
)


def _hand_insert(dialect_name: str) -> Any:
    key = ("hand", dialect_name, 1)
    built = _BUILT.get(key)
    if built is None:
        dialect = postgresql if dialect_name == "postgresql" else sqlite
        table = StatHand.__table__
        built = _BUILT[key] = (
            dialect.insert(table)
            .values({name: bindparam(f"b_{name}") for name in _HAND_COLUMNS})
            .on_conflict_do_nothing(index_elements=["source", "number", "player_id"])
            .returning(table.c.id)
        )
    return built


def _upsert(conn: Connection, player_id: str, figures: list[str], counts: dict[str, int]) -> None:
    """Add ``counts`` to each figure's row, made if missing: one statement, atomic on
    both databases (a second tab's hand ending at the same time adds, never replaces)."""
    assert tuple(counts) == COUNTS, "the tallies' counts are counts_of's"
    params: dict[str, Any] = {"b_player": player_id}
    params.update((f"b_figure_{i}", figure) for i, figure in enumerate(figures))
    params.update((f"b_{name}", value) for name, value in counts.items())
    conn.execute(_tally_upsert(conn.dialect.name, len(figures)), params)


def record_hand(
    conn: Connection,
    player_id: str,
    kind: str,
    preset: str,
    source: str,
    number: int,
    line: HandLine,
    day: date | None = None,
    at: datetime | None = None,
    counted: bool = True,
) -> bool:
    """Add a finished hand to the player's history and, if ``counted`` and not a replay,
    to their tallies. A hand already recorded (its source, number and player) is left
    alone: False."""
    counted = counted and kind != "replay"
    # One statement says whether the hand is new: a hand recorded already (its source,
    # number and player) inserts nothing and adds nothing.
    values = {
        "player_id": player_id,
        "kind": kind,
        "preset": preset,
        "source": source,
        "number": number,
        "day": day,
        "players": line.players,
        "position": line.position,
        "role": line.role,
        "result": line.result,
        "points": line.points,
        "multiplier": line.multiplier,
        "finished_at": at or _now(),
        "counted": counted,
    }
    added = conn.execute(
        _hand_insert(conn.dialect.name), {f"b_{name}": v for name, v in values.items()}
    ).first()
    if added is None:
        return False
    if counted:
        _upsert(conn, player_id, figures_of(line), counts_of(line))
    return True


def _write_streaks(conn: Connection, player_id: str, streaks: Streaks) -> None:
    values = {
        "days": streaks.days,
        "run": streaks.run,
        "run_end": streaks.end,
        "best": streaks.best,
    }
    done = conn.execute(update(StatDaily).where(StatDaily.player_id == player_id).values(values))
    if done.rowcount == 0:
        conn.execute(insert(StatDaily).values(player_id=player_id, **values))


def _streaks(conn: Connection, player_id: str) -> Streaks:
    row = conn.execute(select(StatDaily).where(StatDaily.player_id == player_id)).first()
    if row is None:
        return Streaks()
    return Streaks(row.days, row.run, row.run_end, row.best)


def count_day(conn: Connection, player_id: str, day: date, attempt_id: str) -> None:
    """A ranked attempt of ``day`` finished with its result on the board: the day counts."""
    known = conn.execute(
        select(StatDay.day).where(StatDay.player_id == player_id, StatDay.day == day)
    ).first()
    if known is not None:
        return
    conn.execute(
        insert(StatDay).values(
            player_id=player_id,
            day=day,
            attempt_id=attempt_id,
            counted=True,
            percentile=None,
            final=False,
        )
    )
    _write_streaks(conn, player_id, _streaks(conn, player_id).add(day))


def recount(conn: Connection, player_id: str) -> None:
    """Work the streaks out again from the days that count (after a voided result)."""
    days = conn.execute(
        select(StatDay.day).where(StatDay.player_id == player_id, StatDay.counted.is_(True))
    ).scalars()
    _write_streaks(conn, player_id, streaks_of(list(days)))


def _percentile_now() -> Any:
    """The player's percentile on the stat day's board as it last ranked (as the board's
    own line works it out), a scalar subquery on ``StatDay``; None before it is ranked."""
    other = aliased(DailyResult)
    level = (
        select(func.count())
        .where(other.day == DailyResult.day, other.rank == DailyResult.rank)
        .scalar_subquery()
    )
    field = DailyDay.field
    behind = field - (DailyResult.rank - 1) - level
    percentile = case(
        (DailyResult.rank.is_(None), None),
        (field <= 1, 50.0),
        else_=100.0 * (behind + (level - 1) / 2.0) / (field - 1),
    )
    return (
        select(percentile)
        .select_from(DailyResult)
        .join(DailyDay, DailyDay.day == DailyResult.day)
        .where(DailyResult.day == StatDay.day, DailyResult.player_id == StatDay.player_id)
        .scalar_subquery()
    )


def _settle_where(one_player: bool) -> list[ColumnElement[bool]]:
    ended = (
        select(DailyDay.day)
        .where(DailyDay.day == StatDay.day, DailyDay.ended_at.is_not(None))
        .exists()
    )
    where: list[ColumnElement[bool]] = [StatDay.final.is_(False), ended]
    if one_player:
        where.append(StatDay.player_id == bindparam("player"))
    return where


# Built once: the statements a statistics read runs, the player bound at each run.
_SETTLE_FIND = {
    one: select(StatDay.day).where(*_settle_where(one)).limit(1) for one in (True, False)
}
_SETTLE = {
    one: update(StatDay).where(*_settle_where(one)).values(percentile=_percentile_now(), final=True)
    for one in (True, False)
}
_TALLIES = select(StatTally).where(StatTally.player_id == bindparam("player"))
# A day still on has its percentile from the board as it stands (read, not kept: it
# moves as others finish); a day over, the one kept.
_DAYS = (
    select(
        StatDay.day,
        StatDay.counted,
        case((StatDay.final, StatDay.percentile), else_=_percentile_now()).label("percentile"),
    )
    .where(StatDay.player_id == bindparam("player"))
    .order_by(StatDay.day)
)


def settle(conn: Connection, player_id: str | None = None) -> None:
    """Keep the final percentile of the days that are over (their end stored) and not
    settled yet, in one statement (every player's without ``player_id``: the
    migration's fill). Nothing is written when there is no such day."""
    one = player_id is not None
    params = {"player": player_id} if one else {}
    if conn.execute(_SETTLE_FIND[one], params).first() is None:
        return
    conn.execute(_SETTLE[one], params)


class StatsStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def record_hands(
        self,
        player_id: str,
        kind: str,
        preset: str,
        source: str,
        lines: Iterable[tuple[int, HandLine]],
        day: date | None = None,
    ) -> int:
        """Record finished hands (number, line) in one transaction; returns how many
        were new."""
        with self.engine.begin() as conn:
            return sum(
                record_hand(conn, player_id, kind, preset, source, n, line, day)
                for n, line in lines
            )

    def count_day(self, player_id: str, day: date, attempt_id: str) -> None:
        with self.engine.begin() as conn:
            count_day(conn, player_id, day, attempt_id)

    def void_day(self, day: date, attempt_id: str) -> None:
        """A moderator voided the attempt's result: its day stops counting."""
        with self.engine.begin() as conn:
            player_id = conn.execute(
                select(StatDay.player_id).where(
                    StatDay.day == day, StatDay.attempt_id == attempt_id
                )
            ).scalar()
            if player_id is None:
                return
            conn.execute(
                update(StatDay)
                .where(StatDay.player_id == player_id, StatDay.day == day)
                .values(counted=False, percentile=None, final=True)
            )
            recount(conn, player_id)

    def figures(self, player_id: str) -> Figures:
        """The tallies, the streaks and the days counted with their percentiles (the
        days over since the last read get theirs kept for good first)."""
        with self.engine.begin() as conn:
            params = {"player": player_id}
            tallies = {
                row.figure: Tally(row.figure, *(getattr(row, c) for c in COUNTS))
                for row in conn.execute(_TALLIES, params).all()
            }
            streaks = _streaks(conn, player_id)
            settle(conn, player_id)
            rows = conn.execute(_DAYS, params).all()
        days = tuple(PlayedDay(r.day, r.counted, r.percentile) for r in rows)
        return Figures(tallies, streaks, days)

    def streaks(self, player_id: str) -> Streaks:
        with self.engine.connect() as conn:
            return _streaks(conn, player_id)

    def history(
        self,
        player_id: str,
        page: int,
        kind: str | None = None,
        preset: str | None = None,
        size: int = PAGE_SIZE,
    ) -> tuple[int, list[HistoryLine]]:
        """The number of hands (with the filters) and page ``page`` (from 1), newest first."""
        count, lines = history_statements(player_id, page, kind, preset, size)
        with self.engine.connect() as conn:
            total = conn.execute(count).scalar_one()
            rows = conn.execute(lines).all()
        return int(total), [_history_line(r) for r in rows]

    def has_hand(self, player_id: str, kind: str, source: str, number: int) -> bool:
        """Whether the player's history holds this hand."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(StatHand.id).where(
                    StatHand.source == source,
                    StatHand.number == number,
                    StatHand.player_id == player_id,
                    StatHand.kind == kind,
                )
            ).first()
        return found is not None

    def delete_player(self, player_id: str) -> None:
        """Everything kept here about the player (their identity is being deleted)."""
        with self.engine.begin() as conn:
            forget_player(conn, player_id)


def history_statements(
    player_id: str, page: int, kind: str | None, preset: str | None, size: int = PAGE_SIZE
) -> tuple[Any, Any]:
    """The history's two statements: the count of the player's hands (with the
    filters), and page ``page``'s lines with their seeds (``bench/stats.py`` explains
    them)."""
    from sheepshead.store.friends import FriendHandRow
    from sheepshead.store.models import HandRow

    where: list[Any] = [StatHand.player_id == player_id]
    if kind is not None:
        where.append(StatHand.kind == kind)
    if preset is not None:
        where.append(StatHand.preset == preset)
    # The page first (an index range), then the seeds of its free and friends' hands:
    # joining before the OFFSET would join every hand skipped.
    page_ids = (
        select(StatHand.id)
        .where(*where)
        .order_by(StatHand.id.desc())
        .offset((page - 1) * size)
        .limit(size)
        .subquery()
    )
    lines = (
        select(StatHand, func.coalesce(HandRow.seed, FriendHandRow.seed).label("seed"))
        .join(page_ids, page_ids.c.id == StatHand.id)
        .outerjoin(
            HandRow,
            (HandRow.game_id == StatHand.source)
            & (HandRow.number == StatHand.number)
            & (StatHand.kind == "free"),
        )
        .outerjoin(
            FriendHandRow,
            (FriendHandRow.table_id == StatHand.source)
            & (FriendHandRow.number == StatHand.number)
            & (StatHand.kind == "friends"),
        )
        .order_by(StatHand.id.desc())
    )
    count = select(func.count()).select_from(StatHand).where(*where)
    return count, lines


def _history_line(row: Any) -> HistoryLine:
    return HistoryLine(
        kind=row.kind,
        preset=row.preset,
        source=row.source,
        number=row.number,
        day=row.day,
        players=row.players,
        position=row.position,
        role=row.role,
        result=row.result,
        points=row.points,
        multiplier=row.multiplier,
        finished_at=utc(row.finished_at),
        seed=None if row.seed is None else bytes(row.seed).hex(),
        counted=row.counted,
    )


def forget_player(conn: Connection, player_id: str) -> None:
    """Everything kept here about the player, in the transaction deleting them
    (``store/forget.py``)."""
    # Explicit, not only ON DELETE CASCADE: SQLite enforces it only with the pragma.
    for table in STAT_TABLES:
        conn.execute(delete(table).where(table.player_id == player_id))
