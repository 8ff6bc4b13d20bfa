"""A day's deals stay secret until the day is over (issue 13).

A scout needs no replay if one finished attempt shows the whole deal: until the day
ends, a finished daily deal shows what seat 0 saw, its record waits, and today's
deals are played once, ranked, never replayed. Once the day is over every hand is
shown and the day's archive replays it, unranked, beside the day's board. The
fixtures are ``daily_helpers``'s (a fresh app per test), on SQLite alone.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from fastapi import FastAPI

from server.daily_helpers import (
    DAY_SEED,
    NOON,
    Clock,
    Json,
    app,  # noqa: F401 (fixtures)
    board,
    clock,  # noqa: F401
    first,
    last,
    make_app,  # noqa: F401
    ok,
    play_day,
    visitor,
)
from sheepshead import bots, daily_game
from sheepshead.store.daily_store import DailyStore

DAY = NOON.date().isoformat()


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    # SQLite only: what is shown is decided above the store, the same on PostgreSQL.
    return f"sqlite:///{tmp_path / 'daily.db'}"


def buries(moves: list[str]) -> dict[int, str]:
    return {int(m.split()[0]): m for m in moves if m.split()[1] == "bury"}


def check_sealed(state: Json, truth: list[str]) -> None:
    """A finished deal of a day not over, against its true moves (the store's)."""
    summary, view = state["summary"], state["view"]
    assert summary["sealed"] is True
    assert state["seed"] is None
    assert summary["hands"][0] is not None
    assert summary["hands"][1:] == [None] * 4, "another seat's hand showed"
    picked = summary["result"]["picker"] == 0
    for seen in (summary["blind"], summary["bury"], view["blind"], view["bury"]):
        assert (seen is not None) == picked, "the blind or bury showed to a seat that saw neither"
    for seat, move in buries(truth).items():
        shown = buries(view["moves"])[seat]
        assert shown == (move if seat == 0 else f"{seat} bury")


def test_a_finished_deal_of_today_shows_only_what_seat_0_saw_until_the_day_ends(
    app: FastAPI,  # noqa: F811
    clock: Clock,  # noqa: F811
) -> None:
    store = DailyStore(app.state.engine)
    checked_picker = set()
    for choose in (first, last):  # seat 0 never picks; seat 0 picks when it may
        client = visitor(app)
        state = play_day(client, choose)
        player = client.cookies["sheepshead_player"]
        url = f"/api/v1/daily/attempts/{state['id']}"
        attempt = store.attempt(state["id"], player)
        assert attempt is not None
        check_sealed(state, list(attempt.moves[4]))
        check_sealed(ok(client.get(url)), list(attempt.moves[4]))
        check_sealed(ok(client.get("/api/v1/daily/attempts/current")), list(attempt.moves[4]))
        refused = client.get(f"{url}/deals/5/record")
        assert refused.status_code == 409
        assert "when the day is over" in refused.json()["detail"]
        checked_picker.add(state["summary"]["result"]["picker"] == 0)
    assert checked_picker == {True, False}
    # The day ends: every hand is shown, and the record can be had.
    clock.now = daily_game.day_end(NOON.date()) + timedelta(seconds=1)
    revealed = ok(client.get(url))
    assert revealed["summary"]["sealed"] is False
    dealt = daily_game.deal(DAY_SEED, 4).dealt
    assert revealed["summary"]["hands"] == [[c.text for c in hand] for hand in dealt]
    assert attempt is not None
    assert revealed["view"]["moves"] == list(attempt.moves[4])
    assert ok(client.get(f"{url}/deals/5/record"))["hands"] == revealed["summary"]["hands"]


def test_a_replay_of_today_is_refused_and_the_archive_replays_a_past_day(
    app: FastAPI,  # noqa: F811
    clock: Clock,  # noqa: F811
) -> None:
    ann, bob = visitor(app), visitor(app)
    ranked = play_day(ann, first)
    play_day(bob, last)
    # Today's deals: once, ranked. No replay, from either door.
    again = ann.post("/api/v1/daily/attempts")
    assert again.status_code == 409
    assert "replays of them open when the day is over" in again.json()["detail"]
    for reply in (
        ann.get(f"/api/v1/daily/days/{DAY}"),
        ann.post(f"/api/v1/daily/days/{DAY}/replays"),
    ):
        assert reply.status_code == 409, reply.text
    assert ann.get(f"/daily/{DAY}", follow_redirects=False).headers["location"] == "/daily"
    assert ok(ann.get("/api/v1/daily/today"))["attempts"] == 1
    tomorrow = (NOON.date() + timedelta(days=1)).isoformat()
    assert ann.post(f"/api/v1/daily/days/{tomorrow}/replays").status_code == 404

    clock.now = daily_game.day_end(NOON.date()) + timedelta(minutes=1)
    before = board(ann, date=DAY)
    past = ok(ann.get(f"/api/v1/daily/days/{DAY}"))
    assert past["seed"] == DAY_SEED.hex()
    assert past["bot_version"] == f"standard/{bots.VERSION}"
    assert past["field"] == 2
    assert past["replay"] is None
    replay = ok(ann.post(f"/api/v1/daily/days/{DAY}/replays"), 201)["state"]
    assert replay["daily"]["ranked"] is False
    assert replay["id"] != ranked["id"]
    # Ann replays the day as Bob played it: the same answers, so Bob's points and rank.
    done = play_day(ann, last, replay)
    assert done["summary"]["sealed"] is False
    compared = ok(ann.get(f"/api/v1/daily/days/{DAY}"))["replay"]
    assert compared["id"] == replay["id"]
    assert compared["finished"] is True
    bobs = board(bob, date=DAY)["me"]
    assert compared["compare"]["points"] == bobs["points"]
    assert compared["compare"]["rank"] == bobs["rank"]
    # Unranked: the board is as it was, and a second replay is a new attempt.
    assert board(ann, date=DAY)["top"] == before["top"]
    assert ok(ann.post(f"/api/v1/daily/days/{DAY}/replays"), 201)["state"]["id"] != replay["id"]
    page = ann.get(f"/daily/{DAY}")
    assert page.status_code == 200
    assert DAY_SEED.hex() in page.text
    # A day nobody played has no board to replay beside.
    assert ann.post("/api/v1/daily/days/2025-05-01/replays").status_code == 404
