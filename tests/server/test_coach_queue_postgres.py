"""The coach's queue on PostgreSQL: workers share it, each job goes to one of them,
and a job whose worker died comes back when its lease runs out."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, update

from server.test_postgres import postgres_url  # noqa: F401 (the fixture)
from sheepshead.store import Store, migrate, open_engine
from sheepshead.store.coach import CoachJob, CoachStore
from sheepshead.store.identity import IdentityStore

pytestmark = pytest.mark.postgres


@pytest.fixture
def engine(postgres_url: str) -> Iterator[Engine]:  # noqa: F811
    engine = open_engine(postgres_url)
    migrate(engine)
    yield engine
    engine.dispose()


def test_each_job_goes_to_one_worker_and_a_dead_workers_job_comes_back(engine: Engine) -> None:
    store = Store(engine)
    coach = CoachStore(engine)
    assert coach.postgres
    player = IdentityStore(engine).new_player()
    game = store.create_game(player, {}, "standard", 0, 1, 1, [])
    record = {"format": "sheepshead-hand/1"}
    first = coach.enqueue(player, game, 1, 0, record)
    second = coach.enqueue(player, game, 2, 0, record)
    assert coach.enqueue(player, game, 1, 0, record).id == first.id  # queued once
    a = coach.claim("worker a")
    b = coach.claim("worker b")
    assert a is not None
    assert b is not None
    assert {a.id, b.id} == {first.id, second.id}
    assert coach.claim("worker c") is None
    # Worker a dies: once its lease has run out, another worker takes the job over.
    with engine.begin() as conn:
        past = datetime.now(UTC) - timedelta(seconds=1)
        conn.execute(update(CoachJob).where(CoachJob.id == a.id).values(lease_until=past))
    c = coach.claim("worker c")
    assert c is not None
    assert c.id == a.id
    assert not coach.progress(a.id, "worker a", 1, 5)  # the dead worker's writes are refused
    coach.finish(c.id, "worker c", [])
    assert coach.find(player, game, a.hand_number, 0).status == "done"  # type: ignore[union-attr]
