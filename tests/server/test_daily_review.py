"""The coach's review of a past day's five daily deals (issue 17).

Until the day is over nothing of it opens, started or not: no review, no expert's
result, no job queued (the 409 says why). Once over, each deal the player played gets
the ordinary review of its decisions, and where the expert in the player's seat would
have ended: deterministic, from the deal's record, against the day's computer players.
The fixtures are ``daily_helpers``'s (a fresh app per test), on SQLite alone.
"""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient

from server.daily_helpers import (
    DAY_SEED,
    NOON,
    Clock,
    Json,
    app,  # noqa: F401 (fixtures)
    clock,  # noqa: F401
    make_app,  # noqa: F401
    ok,
    play_day,
    visitor,
)
from sheepshead import bots, daily_game
from sheepshead.record import start_of
from sheepshead.server.daily_review import REVIEW_LATER
from sheepshead.store.coach import CoachStore

DAY = NOON.date().isoformat()


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    # SQLite only: what is shown is decided above the store, the same on PostgreSQL.
    return f"sqlite:///{tmp_path / 'daily.db'}"


def _url(state: Json, number: int) -> str:
    return f"/api/v1/daily/attempts/{state['id']}/deals/{number}/review"


def _wait_done(client: TestClient, url: str, seconds: float = 60.0) -> Json:
    deadline = time.monotonic() + seconds
    body: Json = {}
    while time.monotonic() < deadline:
        body = ok(client.get(url))
        if body["status"] in ("done", "failed"):
            return body
        time.sleep(0.05)
    pytest.fail(f"the review did not finish: {body}")


def _jobs(served: FastAPI) -> int:
    store: CoachStore = served.state.coach_store
    return store.waiting() + (1 if store.claim("test") is not None else 0)


def test_before_the_days_end_no_review_opens_and_nothing_is_queued(
    app: FastAPI,  # noqa: F811
    clock: Clock,  # noqa: F811
) -> None:
    ann = visitor(app)
    state = play_day(ann)
    for number in range(1, daily_game.DEALS + 1):
        for method in (ann.post, ann.get):
            refused = method(_url(state, number))
            assert refused.status_code == 409, refused.text
            assert refused.json()["detail"] == REVIEW_LATER
    # A minute before the end: still refused; the day's list and pages too.
    clock.now = daily_game.day_end(NOON.date()) - timedelta(minutes=1)
    assert ann.post(_url(state, 1)).status_code == 409
    assert ann.get(f"/api/v1/daily/days/{DAY}/reviews").status_code == 409
    assert ann.get(f"/daily/{DAY}/deals/1/review").status_code == 409
    assert _jobs(app) == 0, "a review of today's deals was queued"


def test_after_the_days_end_each_deal_is_reviewed_with_the_expert_in_my_seat(
    app: FastAPI,  # noqa: F811
    clock: Clock,  # noqa: F811
) -> None:
    ann, bob = visitor(app), visitor(app)
    state = play_day(ann)
    clock.now = daily_game.day_end(NOON.date()) + timedelta(minutes=1)
    listed = ok(ann.get(f"/api/v1/daily/days/{DAY}/reviews"))
    assert listed["attempt"] == state["id"]
    assert [d["deal"] for d in listed["deals"]] == [1, 2, 3, 4, 5]
    assert all(d["review"] is None and d["expert"] is None for d in listed["deals"])
    # Another player sees none of mine.
    assert bob.get(_url(state, 2)).status_code == 404
    assert bob.post(_url(state, 2)).status_code == 404
    assert ok(bob.get(f"/api/v1/daily/days/{DAY}/reviews"))["deals"] == []

    started = ann.post(_url(state, 2))
    assert started.status_code == 202, started.text
    review = _wait_done(ann, _url(state, 2))
    assert review["status"] == "done"
    record = ok(ann.get(f"/api/v1/daily/attempts/{state['id']}/deals/2/record"))
    mine = [i for i, a in enumerate(record["actions"]) if a.startswith("0 ")]
    assert [d["index"] for d in review["decisions"]] == mine
    assert all(d["view"]["seat"] == 0 for d in review["decisions"])
    assert review["points"] == state["score_sheet"][1]["scores"][0]
    # The expert in seat 0, against the day's own computer players: the same figure
    # worked out here, from the record alone.
    level, _, version = app.state.daily.store.day(NOON.date()).bot_version.partition("/")
    expected = daily_game.expert_in_seat(
        start_of(record), 0, level, app.state.daily.bot_seed(NOON.date()), version
    )
    assert review["expert"] == {
        "points": expected,
        "level": "expert",
        "against": level,
        "version": version,
    }
    assert version in bots.versions()
    listed = ok(ann.get(f"/api/v1/daily/days/{DAY}/reviews"))
    assert listed["deals"][1]["review"] == "done"
    assert listed["deals"][1]["expert"] == expected
    # Asking again gives the same job, not a second one.
    assert ok(ann.post(_url(state, 2)), 202)["decisions"] == review["decisions"]
    # The day's page and the review's page link the player's deals.
    page = ann.get(f"/daily/{DAY}")
    assert page.status_code == 200
    for number in range(1, 6):
        assert f"/daily/{DAY}/deals/{number}/review" in page.text
    assert 'id="daily-reviews"' not in bob.get(f"/daily/{DAY}").text
    deal_page = ann.get(f"/daily/{DAY}/deals/2/review")
    assert deal_page.status_code == 200
    assert f'data-api="/daily/attempts/{state["id"]}/deals/2/review"' in deal_page.text
    assert bob.get(f"/daily/{DAY}/deals/2/review").status_code == 404


def test_the_expert_in_the_seat_is_deterministic_and_meets_the_days_players() -> None:
    dealt = daily_game.deal(DAY_SEED, 0)
    one = daily_game.expert_in_seat(dealt, 0, "standard", 7, bots.VERSION)
    assert one == daily_game.expert_in_seat(dealt, 0, "standard", 7, bots.VERSION)
    assert daily_game.expert_seed(dealt) == daily_game.expert_seed(daily_game.deal(DAY_SEED, 0))
    assert daily_game.expert_seed(dealt) != daily_game.expert_seed(daily_game.deal(DAY_SEED, 1))
    # The whole table the expert: its seat's points are the board's expert points'.
    everyone = daily_game.expert_points(DAY_SEED, "expert", daily_game.expert_seed(dealt))
    assert (
        daily_game.expert_in_seat(dealt, 0, "expert", daily_game.expert_seed(dealt))
        == (everyone[0])
    )
