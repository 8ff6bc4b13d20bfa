"""The coach at the table: a hint on request (counted), the review of a finished hand
as a job run off the request path, and a queue that loses no job.

A hint and a review show only the player's own seat: no other seat's cards.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from server.helpers import TestClient, act, identify, new_game, play_hand
from sheepshead.server import Settings, create_app
from sheepshead.server.coach import WORKER_ENV
from sheepshead.store.coach import CoachStore

Json = dict[str, Any]


def _cards_in(value: object) -> set[str]:
    """Every two-character card text found anywhere in a JSON value."""
    found: set[str] = set()
    if isinstance(value, str):
        for word in value.replace(",", " ").split():
            if len(word) == 2 and word[0] in "789TJQKA" and word[1] in "CSHD":
                found.add(word)
    elif isinstance(value, dict):
        for v in value.values():
            found |= _cards_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= _cards_in(v)
    return found


def _my_turn(client: TestClient) -> Json:
    state: Json = new_game(client, level="standard")["state"]
    assert state["view"]["legal"], state
    return state


def test_a_hint_is_one_of_my_choices_is_counted_and_shows_only_my_cards(
    app: FastAPI, client: TestClient
) -> None:
    identify(app, client)
    state = _my_turn(client)
    game = state["id"]
    reply = client.post(f"/api/v1/games/{game}/hint", json={"version": state["version"]})
    assert reply.status_code == 200, reply.text
    hint = reply.json()
    assert hint["action"] in state["view"]["legal"]
    assert hint["hints"] == 1
    assert hint["hand"] == state["hand_number"]
    mine = set(state["view"]["cards"]) | set(state["view"]["blind"] or [])
    assert _cards_in(hint["action"]) <= mine
    again = client.post(f"/api/v1/games/{game}/hint", json={"version": state["version"]})
    assert again.json()["hints"] == 2
    counts = client.get(f"/api/v1/games/{game}/hints").json()
    assert counts == {"hints": {str(state["hand_number"]): 2}}


def test_a_hint_is_refused_out_of_turn_or_on_a_moved_table(
    app: FastAPI, client: TestClient
) -> None:
    identify(app, client)
    state = _my_turn(client)
    game = state["id"]
    stale = client.post(f"/api/v1/games/{game}/hint", json={"version": state["version"] - 1})
    assert stale.status_code == 409
    assert stale.json()["code"] == "stale-version"
    play_hand(client, state)
    state = client.get("/api/v1/games/current").json()
    over = client.post(f"/api/v1/games/{game}/hint", json={"version": state["version"]})
    assert over.status_code == 409
    assert over.json()["code"] == "not-your-turn"


def _wait_done(client: TestClient, url: str, seconds: float = 30.0) -> Json:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        body: Json = client.get(url).json()
        if body["status"] in ("done", "failed"):
            return body
        time.sleep(0.05)
    pytest.fail(f"the review did not finish: {body}")


def test_a_finished_hand_is_reviewed_off_the_request_path(app: FastAPI, client: TestClient) -> None:
    identify(app, client)
    state = new_game(client, level="standard")["state"]
    game, number = state["id"], state["hand_number"]
    url = f"/api/v1/games/{game}/hands/{number}/review"
    assert client.post(url).status_code == 404  # not over yet
    steps = play_hand(client, state)
    final = steps[-1]["state"] if steps else state
    started = client.post(url)
    assert started.status_code == 202
    assert started.json()["status"] in ("queued", "running", "done")
    review = _wait_done(client, url)
    assert review["status"] == "done"
    decisions = review["decisions"]
    record = client.get(f"/api/v1/games/{game}/hands/{number}/record").json()
    mine = [i for i, a in enumerate(record["actions"]) if a.startswith("0 ")]
    assert [d["index"] for d in decisions] == mine
    others = {c for seat, hand in enumerate(record["hands"]) if seat != 0 for c in hand}
    for d in decisions:
        assert d["view"]["seat"] == 0
        assert d["label"] in (None, "inaccuracy", "mistake", "blunder")
        # The position as the player saw it: its own cards, never another seat's hand.
        assert not set(d["view"]["cards"]) & (others - set(record["blind"]))
        if d["reason"] is not None:
            assert d["reason"]["text"]
    assert final["hand_over"]


def test_another_player_cannot_see_or_start_my_review(
    app: FastAPI, client: TestClient, other: TestClient
) -> None:
    identify(app, client)
    identify(app, other)
    state = new_game(client, level="standard")["state"]
    play_hand(client, state)
    url = f"/api/v1/games/{state['id']}/hands/{state['hand_number']}/review"
    assert other.post(url).status_code == 404
    assert other.get(url).status_code == 404


def test_jobs_left_unfinished_resume_at_start(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(WORKER_ENV, "external")
    first = create_app(settings)
    client = TestClient(first, base_url="http://localhost")
    identify(first, client)
    state = new_game(client, level="standard")["state"]
    play_hand(client, state)
    url = f"/api/v1/games/{state['id']}/hands/{state['hand_number']}/review"
    assert client.post(url).json()["status"] == "queued"
    # A worker took it and died: the job is "running" under a lease nobody renews.
    store: CoachStore = first.state.coach_store
    assert store.claim("a worker that dies") is not None
    assert client.get(url).json()["status"] == "running"
    first.state.engine.dispose()
    monkeypatch.setenv(WORKER_ENV, "thread")
    second = create_app(settings)
    client2 = TestClient(second, base_url="http://localhost")
    client2.cookies.update(client.cookies)
    review = _wait_done(client2, url)
    assert review["status"] == "done"
    assert review["decisions"]
    second.state.coach_worker.close(5)
    second.state.engine.dispose()


def test_an_act_is_unchanged_by_the_coach(app: FastAPI, client: TestClient) -> None:
    identify(app, client)
    state = _my_turn(client)
    step = act(client, state, state["view"]["legal"][0])
    assert step["state"]["version"] > state["version"]
