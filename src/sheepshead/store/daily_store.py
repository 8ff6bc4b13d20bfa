"""The daily game's storage: days, attempts, results and the board, over the tables
of ``daily_models.py`` (the moderators' evidence is written here and read by
``moderation.py``; a day's stored end, by ``day_end.py``). Names and recovery codes
are ``identity.py``'s.

Like the rest of the store it knows the game only as text: an attempt is its day
and its moves per deal, a result is five numbers the server computed by replaying
those moves. The day's seed is never stored: the server derives it from its secret.

The board is duplicate-bridge matchpoints (``sheepshead.daily_game`` has the pure
reference). ``refresh_board`` recomputes a day's matchpoints and shared ranks in
one set-based UPDATE with window functions, so that reading the top 100 and a
player's own rank are index lookups, whatever the field's size.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

from sheepshead.store.daily_models import DailyAttempt, DailyDay, DailyResult
from sheepshead.store.games import new_id
from sheepshead.store.identity import DisplayName, shown_name
from sheepshead.store.instants import utc

DEALS = 5
#: More to write in an attempt's save, in its transaction, at its instant.
Evidence = Callable[[Connection, datetime], None]
_DEAL_COLUMNS = ("d1", "d2", "d3", "d4", "d5")


def _now() -> datetime:
    return datetime.now(UTC)


# Values handed to the server ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Day:
    day: date
    commitment: str
    bot_version: str
    expert_points: tuple[int, ...] | None
    field: int
    spreads: tuple[dict[str, int], ...] | None
    refreshed_at: datetime | None
    #: When the day was recorded as over (its seed published), None while it is open.
    ended_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Attempt:
    id: str
    player_id: str
    day: date
    number: int
    ranked: bool
    moves: tuple[tuple[str, ...], ...]
    version: int
    finished: bool
    flagged: bool


@dataclass(frozen=True, slots=True)
class BoardLine:
    player_id: str
    #: The display name, or None: the server shows the player's label instead.
    name: str | None
    points: tuple[int, ...]
    total: int
    #: Matchpoints per deal, their sum and the shared rank (None until refreshed).
    marks: tuple[int, ...] | None
    mp: int | None
    rank: int | None


def _attempt(row: Any) -> Attempt:
    return Attempt(
        id=row.id,
        player_id=row.player_id,
        day=row.day,
        number=row.number,
        ranked=row.ranked,
        moves=tuple(tuple(m) for m in row.moves),
        version=row.version,
        finished=row.finished,
        flagged=row.flagged,
    )


class DailyStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # Days -------------------------------------------------------------------

    def ensure_day(self, day: date, commitment: str, bot_version: str) -> Day:
        """The day's row, created with this commitment and bot version if it is new."""
        found = self.day(day)
        if found is not None:
            return found
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(DailyDay).values(
                        day=day,
                        commitment=commitment,
                        bot_version=bot_version,
                        field=0,
                        created_at=_now(),
                    )
                )
        except IntegrityError:
            pass  # another request created it first: theirs stands
        found = self.day(day)
        assert found is not None
        return found

    def day(self, day: date) -> Day | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(DailyDay).where(DailyDay.day == day)).first()
        if row is None:
            return None
        return Day(
            day=row.day,
            commitment=row.commitment,
            bot_version=row.bot_version,
            expert_points=None if row.expert_points is None else tuple(row.expert_points),
            field=row.field,
            spreads=None if row.spreads is None else tuple(row.spreads),
            refreshed_at=utc(row.refreshed_at),
            ended_at=utc(row.ended_at),
        )

    def days(self, before: date, limit: int = 60) -> list[Day]:
        """Past days, newest first."""
        with self.engine.connect() as conn:
            days = conn.execute(
                select(DailyDay.day)
                .where(DailyDay.day < before)
                .order_by(DailyDay.day.desc())
                .limit(limit)
            ).scalars()
            wanted = list(days)
        return [d for d in (self.day(x) for x in wanted) if d is not None]

    def set_expert_points(self, day: date, points: Sequence[int]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(DailyDay).where(DailyDay.day == day).values(expert_points=list(points))
            )

    # Attempts ---------------------------------------------------------------------

    def attempts(self, player_id: str, day: date) -> list[Attempt]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(DailyAttempt)
                .where(DailyAttempt.player_id == player_id, DailyAttempt.day == day)
                .order_by(DailyAttempt.number)
            ).all()
        return [_attempt(r) for r in rows]

    def attempts_of_day(self, day: date) -> list[Attempt]:
        """Every attempt of a day, for moderation (flags)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(DailyAttempt)
                .where(DailyAttempt.day == day)
                .order_by(DailyAttempt.created_at, DailyAttempt.id)
            ).all()
        return [_attempt(r) for r in rows]

    def attempt(self, attempt_id: str, player_id: str) -> Attempt | None:
        """The attempt, if it exists and belongs to this player."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(DailyAttempt).where(
                    DailyAttempt.id == attempt_id, DailyAttempt.player_id == player_id
                )
            ).first()
        return None if row is None else _attempt(row)

    def create_attempt(
        self,
        player_id: str,
        day: date,
        number: int,
        moves: Sequence[Sequence[str]],
        version: int,
        address: str | None,
    ) -> Attempt | None:
        """A new attempt; None if this player's attempt ``number`` of the day exists
        already (a double click, a second tab): the caller loads that one instead."""
        ranked = number == 1
        now = _now()
        attempt_id = new_id()
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(DailyAttempt).values(
                        id=attempt_id,
                        player_id=player_id,
                        day=day,
                        number=number,
                        ranked=ranked,
                        moves=[list(m) for m in moves],
                        version=version,
                        finished=False,
                        flagged=False,
                        # Only the ranked attempt's: a replay is nobody's concern.
                        address=address if ranked else None,
                        created_at=now,
                        updated_at=now,
                    )
                )
        except IntegrityError:
            return None
        return self.attempt(attempt_id, player_id)

    def save_attempt(
        self,
        attempt: Attempt,
        moves: Sequence[Sequence[str]],
        version: int,
        finished: bool,
        points: Sequence[int] | None = None,
        evidence: Evidence | None = None,
    ) -> bool:
        """Write the attempt's new moves if it is still at its loaded version and, for a
        ranked attempt, its day has not ended in the database; with ``points``, the
        finished ranked attempt's result, and ``evidence`` (the moderators' record of
        the move: ``moderation.record_play``), in the same transaction. Returns False,
        writing nothing, when another request changed it first or the day ended
        (``DayEndStore.ended`` tells which)."""
        now = _now()
        still = [
            DailyAttempt.id == attempt.id,
            DailyAttempt.player_id == attempt.player_id,
            DailyAttempt.version == attempt.version,
        ]
        if attempt.ranked:
            # Checked in the write itself: a server whose clock lags the stored end of
            # the day (its seed published) cannot slip a move in.
            ended = select(DailyDay.day).where(
                DailyDay.day == attempt.day, DailyDay.ended_at.is_not(None)
            )
            still.append(~ended.exists())
        with self.engine.begin() as conn:
            bumped = conn.execute(
                update(DailyAttempt)
                .where(*still)
                .values(
                    moves=[list(m) for m in moves],
                    version=version,
                    finished=finished,
                    updated_at=now,
                )
            )
            if bumped.rowcount != 1:
                conn.rollback()
                return False
            if points is not None:
                if len(points) != DEALS:
                    raise ValueError(f"a result has {DEALS} deals")
                conn.execute(
                    insert(DailyResult).values(
                        day=attempt.day,
                        player_id=attempt.player_id,
                        attempt_id=attempt.id,
                        **dict(zip(_DEAL_COLUMNS, points, strict=True)),
                        total=sum(points),
                        finished_at=now,
                    )
                )
            if evidence is not None:
                evidence(conn, now)
        return True

    # The board --------------------------------------------------------------------

    def refresh_board(self, day: date) -> int:
        """Recompute the day's matchpoints and shared ranks; returns the field.

        mp on deal k = 2 * (players below) + (players level, oneself excluded):
        RANK() over the deal's points counts those below, plus one; COUNT() over
        the same value counts those level, oneself included.
        """
        spread_sql = text(
            " UNION ALL ".join(
                f"SELECT {i} AS deal, {c} AS points, COUNT(*) AS n FROM daily_results "
                f"WHERE day = :day GROUP BY {c}"
                for i, c in enumerate(_DEAL_COLUMNS)
            )
        )
        with self.engine.begin() as conn:
            conn.execute(text(_refresh_sql(conn.dialect.name)), {"day": day})
            spreads: list[dict[str, int]] = [{} for _ in range(DEALS)]
            field = 0
            for deal, points, n in conn.execute(spread_sql, {"day": day}):
                spreads[deal][str(points)] = n
                if deal == 0:
                    field += n
            conn.execute(
                update(DailyDay)
                .where(DailyDay.day == day)
                .values(field=field, spreads=spreads, refreshed_at=_now())
            )
        return field

    def field_points(self, day: date) -> list[tuple[int, ...]]:
        """Every finished ranked attempt's game points per deal that day (no player):
        what a replay of a past day is compared with."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*(getattr(DailyResult, c) for c in _DEAL_COLUMNS)).where(
                    DailyResult.day == day
                )
            ).all()
        return [tuple(row) for row in rows]

    def has_unranked(self, day: date) -> bool:
        """Whether a result came in since the last refresh."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(DailyResult.player_id)
                .where(DailyResult.day == day, DailyResult.rank.is_(None))
                .limit(1)
            ).first()
        return found is not None

    def board(self, day: date, limit: int = 100) -> list[BoardLine]:
        """The day's top ``limit`` as of the last refresh, best first."""
        query = (
            select(*_LINE_COLUMNS)
            .outerjoin(DisplayName, DisplayName.player_id == DailyResult.player_id)
            .where(DailyResult.day == day, DailyResult.rank.is_not(None))
            .order_by(DailyResult.rank, DailyResult.player_id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [self._line(r) for r in rows]

    def line(self, day: date, player_id: str) -> BoardLine | None:
        """One player's line of the day (a primary-key lookup)."""
        query = (
            select(*_LINE_COLUMNS)
            .outerjoin(DisplayName, DisplayName.player_id == DailyResult.player_id)
            .where(DailyResult.day == day, DailyResult.player_id == player_id)
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else self._line(row)

    def level_with(self, day: date, rank: int) -> int:
        """How many players share ``rank`` on the day (the player's own line included)."""
        with self.engine.connect() as conn:
            count = conn.execute(
                select(func.count())
                .select_from(DailyResult)
                .where(DailyResult.day == day, DailyResult.rank == rank)
            ).scalar_one()
        return int(count)

    @staticmethod
    def _line(row: Any) -> BoardLine:
        return BoardLine(
            player_id=row.player_id,
            name=shown_name(row.name_text, row.name_hidden),
            points=tuple(getattr(row, c) for c in _DEAL_COLUMNS),
            total=row.total,
            marks=None if row.marks is None else tuple(row.marks),
            mp=row.mp,
            rank=row.rank,
        )

    def week(
        self, monday: date, sunday: date
    ) -> list[tuple[str, str | None, list[tuple[int, int]], int]]:
        """Each player's days in the week: (player, name or None, [(mp, field)], total)."""
        query = (
            select(
                DailyResult.player_id,
                DailyResult.mp,
                DailyDay.field,
                DailyResult.total,
                DisplayName.text,
                DisplayName.hidden,
            )
            .join(DailyDay, DailyDay.day == DailyResult.day)
            .outerjoin(DisplayName, DisplayName.player_id == DailyResult.player_id)
            .where(
                DailyResult.day >= monday,
                DailyResult.day <= sunday,
                DailyResult.mp.is_not(None),
            )
        )
        players: dict[str, tuple[str | None, list[tuple[int, int]], int]] = {}
        with self.engine.connect() as conn:
            for player_id, mp, field, total, name, hidden in conn.execute(query):
                shown, days, sum_total = players.get(player_id, (shown_name(name, hidden), [], 0))
                days.append((mp or 0, field))
                players[player_id] = (shown, days, sum_total + total)
        return [(p, s, d, t) for p, (s, d, t) in players.items()]


def attempts_in_progress(conn: Connection, since: datetime) -> int:
    """Daily attempts not finished, played since ``since`` (a gauge)."""
    attempts = select(func.count()).where(
        DailyAttempt.updated_at >= since, DailyAttempt.finished.is_(False)
    )
    return int(conn.execute(attempts).scalar_one())


_LINE_COLUMNS = (
    DailyResult.player_id,
    DailyResult.d1,
    DailyResult.d2,
    DailyResult.d3,
    DailyResult.d4,
    DailyResult.d5,
    DailyResult.total,
    DailyResult.marks,
    DailyResult.mp,
    DailyResult.rank,
    DisplayName.text.label("name_text"),
    DisplayName.hidden.label("name_hidden"),
)


def _refresh_sql(dialect: str) -> str:
    per_deal = ", ".join(
        f"2 * (RANK() OVER (ORDER BY {c}) - 1) + COUNT(*) OVER (PARTITION BY {c}) - 1 AS m{i}"
        for i, c in enumerate(_DEAL_COLUMNS, start=1)
    )
    ms = [f"m{i}" for i in range(1, DEALS + 1)]
    total = " + ".join(ms)
    listed = ", ".join(f"r.{m}" for m in ms)
    marks = f"to_json(ARRAY[{listed}])" if dialect == "postgresql" else f"json_array({listed})"
    return f"""
        WITH m AS (
            SELECT player_id, total, {per_deal}
            FROM daily_results WHERE day = :day
        ), r AS (
            SELECT player_id, {", ".join(ms)}, {total} AS mp,
                   RANK() OVER (ORDER BY {total} DESC, total DESC) AS rk
            FROM m
        )
        UPDATE daily_results
        SET mp = r.mp, rank = r.rk, marks = {marks}
        FROM r
        WHERE daily_results.day = :day AND daily_results.player_id = r.player_id
    """
