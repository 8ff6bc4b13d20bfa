"""The coach's jobs and hint counts (``server/coach.py``, ``server/coach_worker.py``).

A review is a job: a row holding the hand's record and the seat, claimed by a worker,
its progress written as it goes, its result stored as JSON. The same table is the
queue on SQLite and on PostgreSQL:

- a worker claims the oldest queued job (or one whose worker's lease ran out: a
  killed worker loses none) with ``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL,
  so any number of worker processes on any number of hosts share the queue, each job
  run by one of them; on SQLite, whose writers take turns, by a plain update in a
  write transaction;
- the lease is renewed at each progress step; ``resume`` puts every running job back
  in the queue (the in-process worker calls it at start).

Why not procrastinate or pgqueuer: see docs/deploy.md ("The coach's workers").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from sheepshead.store.daily_models import DailyAttempt
from sheepshead.store.games import new_id
from sheepshead.store.models import Base

#: How long a claimed job stays its worker's without a sign of life.
LEASE = timedelta(minutes=2)


class CoachJob(Base):
    """One review: a hand's record and a seat, judged by the coach."""

    __tablename__ = "coach_jobs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id", ondelete="CASCADE"))
    #: The free-play game the hand is of; None for a daily attempt's deal.
    game_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=True
    )
    #: The daily attempt the deal is of (reviewed once its day is over); else None.
    attempt_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey(DailyAttempt.id, ondelete="CASCADE"), nullable=True
    )
    hand_number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    #: The finished hand's record (hand-record.md).
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: queued, running, done or failed.
    status: Mapped[str] = mapped_column(String(8))
    #: Decisions judged so far, of ``total`` (0 before the worker counts them).
    progress: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    result: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    #: A daily deal's: the computer players the expert in the seat meets (``level``,
    #: ``version``, ``bot_seed``) and, once done, its game points (``points``).
    expert: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    worker: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        UniqueConstraint("game_id", "hand_number", "seat", name="uq_coach_jobs_hand_seat"),
        UniqueConstraint(
            "attempt_id", "hand_number", "seat", name="uq_coach_jobs_attempt_hand_seat"
        ),
        Index("ix_coach_jobs_status_created", "status", "created_at"),
    )


class CoachHint(Base):
    """How many hints the player asked for in a hand (shown on its score line)."""

    __tablename__ = "coach_hints"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    hand_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    count: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True, slots=True)
class Job:
    id: str
    #: The free-play game, or None for a daily attempt's deal (``attempt_id``).
    game_id: str | None
    hand_number: int
    seat: int
    record: dict[str, Any]
    status: str
    progress: int
    total: int
    result: list[dict[str, Any]] | None
    attempt_id: str | None = None
    expert: dict[str, Any] | None = None


def _now() -> datetime:
    return datetime.now(UTC)


def _job(row: Any) -> Job:
    return Job(
        row.id,
        row.game_id,
        row.hand_number,
        row.seat,
        dict(row.record),
        row.status,
        row.progress,
        row.total,
        None if row.result is None else list(row.result),
        row.attempt_id,
        None if row.expert is None else dict(row.expert),
    )


class CoachStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"

    def enqueue(
        self, player_id: str, game_id: str, hand_number: int, seat: int, record: dict[str, Any]
    ) -> Job:
        """The hand's review job, queued now unless it exists already."""
        return self._enqueue(player_id, {"game_id": game_id}, hand_number, seat, record)

    def enqueue_deal(
        self,
        player_id: str,
        attempt_id: str,
        number: int,
        seat: int,
        record: dict[str, Any],
        expert: dict[str, Any] | None,
    ) -> Job:
        """A daily attempt's deal's review job (with ``expert``: the computer players the
        expert in the seat meets, None for no expert's result), queued now unless it
        exists already."""
        subject = {"attempt_id": attempt_id, "expert": expert}
        return self._enqueue(player_id, subject, number, seat, record)

    def find_deal(self, player_id: str, attempt_id: str, number: int, seat: int) -> Job | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(CoachJob).where(
                    CoachJob.player_id == player_id,
                    CoachJob.attempt_id == attempt_id,
                    CoachJob.hand_number == number,
                    CoachJob.seat == seat,
                )
            ).first()
        return None if row is None else _job(row)

    def _enqueue(
        self,
        player_id: str,
        subject: dict[str, Any],
        hand_number: int,
        seat: int,
        record: dict[str, Any],
    ) -> Job:
        def found() -> Job | None:
            if "game_id" in subject:
                return self.find(player_id, subject["game_id"], hand_number, seat)
            return self.find_deal(player_id, subject["attempt_id"], hand_number, seat)

        job = found()
        if job is not None:
            return job
        now = _now()
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(CoachJob).values(
                        id=new_id(),
                        player_id=player_id,
                        **subject,
                        hand_number=hand_number,
                        seat=seat,
                        record=record,
                        status="queued",
                        progress=0,
                        total=0,
                        created_at=now,
                        updated_at=now,
                    )
                )
        except IntegrityError:
            pass  # a second request queued it first
        job = found()
        assert job is not None
        return job

    def find(self, player_id: str, game_id: str, hand_number: int, seat: int) -> Job | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(CoachJob).where(
                    CoachJob.player_id == player_id,
                    CoachJob.game_id == game_id,
                    CoachJob.hand_number == hand_number,
                    CoachJob.seat == seat,
                )
            ).first()
        return None if row is None else _job(row)

    def claim(self, worker: str) -> Job | None:
        """The oldest job waiting (queued, or running under a lapsed lease), now this
        worker's; None when there is none."""
        now = _now()
        with self.engine.begin() as conn:
            query = (
                select(CoachJob.id)
                .where(
                    or_(
                        CoachJob.status == "queued",
                        (CoachJob.status == "running") & (CoachJob.lease_until < now),
                    )
                )
                .order_by(CoachJob.created_at, CoachJob.id)
                .limit(1)
            )
            if self.postgres:
                query = query.with_for_update(skip_locked=True)
            job_id = conn.execute(query).scalar()
            if job_id is None:
                return None
            conn.execute(
                update(CoachJob)
                .where(CoachJob.id == job_id)
                .values(status="running", worker=worker, lease_until=now + LEASE, updated_at=now)
            )
            row = conn.execute(select(CoachJob).where(CoachJob.id == job_id)).one()
        return _job(row)

    def progress(self, job_id: str, worker: str, done: int, total: int) -> bool:
        """Write the progress and renew the lease; False if the job is no longer ours."""
        now = _now()
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(CoachJob)
                .where(CoachJob.id == job_id, CoachJob.worker == worker)
                .values(progress=done, total=total, lease_until=now + LEASE, updated_at=now)
            )
        return moved.rowcount == 1

    def finish(
        self,
        job_id: str,
        worker: str,
        result: list[dict[str, Any]] | None,
        expert: dict[str, Any] | None = None,
    ) -> None:
        """Store the result (None: the job failed, and will not be retried), and a daily
        deal's ``expert`` with its points."""
        values: dict[str, Any] = {} if expert is None else {"expert": expert}
        with self.engine.begin() as conn:
            conn.execute(
                update(CoachJob)
                .where(CoachJob.id == job_id, CoachJob.worker == worker)
                .values(
                    status="failed" if result is None else "done",
                    result=result,
                    lease_until=None,
                    updated_at=_now(),
                    **values,
                )
            )

    def resume(self) -> int:
        """Every running job back in the queue (at start, when this process was the only
        worker); how many."""
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(CoachJob)
                .where(CoachJob.status == "running")
                .values(status="queued", worker=None, lease_until=None)
            )
        return moved.rowcount

    def waiting(self) -> int:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(CoachJob.id).where(CoachJob.status.in_(("queued", "running")))
            ).all()
        return len(rows)

    # Hints ----------------------------------------------------------------

    def count_hint(self, game_id: str, hand_number: int) -> int:
        """One more hint in the hand; the hand's count now."""
        with self.engine.begin() as conn:
            bumped = conn.execute(
                update(CoachHint)
                .where(CoachHint.game_id == game_id, CoachHint.hand_number == hand_number)
                .values(count=CoachHint.count + 1)
            )
            if bumped.rowcount == 0:
                try:
                    with conn.begin_nested():
                        conn.execute(
                            insert(CoachHint).values(
                                game_id=game_id, hand_number=hand_number, count=1
                            )
                        )
                except IntegrityError:
                    conn.execute(
                        update(CoachHint)
                        .where(CoachHint.game_id == game_id, CoachHint.hand_number == hand_number)
                        .values(count=CoachHint.count + 1)
                    )
        return self.hints(game_id).get(hand_number, 0)

    def hints(self, game_id: str) -> dict[int, int]:
        """Hints asked for, per hand of the game."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(CoachHint.hand_number, CoachHint.count).where(CoachHint.game_id == game_id)
            ).all()
        return {int(r[0]): int(r[1]) for r in rows}
