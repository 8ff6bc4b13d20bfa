"""Hundreds of random hands through the API, under every preset and several house
rules, and the daily game's deals: not one response body shows a card seat 0 may not
know, nor a seed before its time (``tests/server/test_leaks.py`` has the checker's core).

Every body of a hand is kept (replies to actions, refused cards, stale copies, reads
of the game and of the current game) with the number of moves made when it was sent.
Once the hand is over its record gives the truth, and each body must:

- name (as ``QC`` or as "queen of clubs") only cards seat 0 could know at that point;
- carry, where it holds the game, exactly seat 0's view of the true game then, with
  ``seed`` and ``summary`` still null;
- never hold the hand's seed before the hand is over, nor, in the daily game, the
  day's seed or any deal's seed while the day lasts.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import FastAPI

from security.helpers import SECRET, UNLIMITED, MakeApp
from server.helpers import Json, TestClient, make_client
from server.test_leaks import (
    TWO_PASSES,
    Bodies,
    cards_in,
    moves_of,
    play_and_record,
    visible_to_seat_0,
)
from sheepshead import daily_game
from sheepshead.game import Game
from sheepshead.record import replay
from sheepshead.rules import PRESETS
from sheepshead.server.identity import COOKIE
from sheepshead.store.daily_store import DailyStore
from sheepshead.table import view_json

RULES: list[dict[str, Any]] = [
    *(PRESETS[name].to_record() for name in sorted(PRESETS)),
    {"cracking": True, "leaster_blind": "named-trick"},
    {"players": 6, "second_partner": True},
    {"alone": False, "call_ten": False, "call_unknown": False},
    {"nobody_picks": "doubler", "double_on_the_bump": False},
    {"nobody_picks": "forced-pick", "forced_pick_bump": False},
    {"leaster_blind": "aside", "leaster_needs_trick": False},
    {"players": 4, "partner": "called-ace", "cracking": True},
    {"jd_picker_holds": "call-jack-of-hearts", "partner": "jack-of-diamonds"},
]
#: Noon in Chicago: the daily game's day, well away from its midnight.
NOON = datetime(2025, 6, 1, 17, 0, tzinfo=UTC)
#: Hands per set of rules: 14 sets, so 210 hands in all.
HANDS = 15


def check_bodies(
    bodies: Bodies, record: Json, hand_secrets: list[str], day_secrets: list[str]
) -> int:
    """Check each body of one hand against the truth; how many were checked."""
    full = replay(record)
    games: list[Game] = [replay({**record, "actions": []})]
    for move in full.moves:
        games.append(games[-1].apply_move(move))
    checked = 0
    for moves, body in bodies:
        for secret in day_secrets:
            assert secret not in body, "a daily seed showed while its day lasts"
        game = games[moves]
        if game.is_done:
            continue
        checked += 1
        for secret in hand_secrets:
            assert secret not in body, f"the seed showed after {moves} moves"
        leaked = cards_in(body) - visible_to_seat_0(game)
        assert not leaked, f"after {moves} moves a body shows {sorted(c.text for c in leaked)}"
        data = json.loads(body)
        state = data.get("state", data)
        if "view" in state:
            assert state["view"] == view_json(game), f"not seat 0's view at {moves}"
            assert state["seed"] is None
            assert state["summary"] is None
    return checked


@pytest.mark.parametrize("rules", RULES, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
def test_hundreds_of_random_hands_never_show_a_hidden_card_or_seed(
    make_app: MakeApp, rules: dict[str, Any]
) -> None:
    client = make_client(make_app(**UNLIMITED))
    rng = random.Random(json.dumps(rules, sort_keys=True))
    response = client.post("/api/v1/games", json={"rules": rules, "level": "beginner"})
    assert response.status_code == 201, response.text
    state = response.json()["state"]
    game_id = state["id"]
    reads = ["/api/v1/games/{id}", "/api/v1/games/current"]
    checked = 0
    for _ in range(HANDS):
        start = (moves_of(state), response.text)
        state, bodies = play_and_record(client, rng, state, "/api/v1/games", reads)
        number = state["hand_number"]
        record = client.get(f"/api/v1/games/{game_id}/hands/{number}/record").json()
        checked += check_bodies([start, *bodies], record, [state["seed"]], [])
        response = client.post(
            f"/api/v1/games/{game_id}/next-hand", json={"version": state["version"]}
        )
        assert response.status_code == 200, response.text
        state = response.json()["state"]
    assert checked >= HANDS * 3


def _daily_truth(app: FastAPI, client: TestClient, attempt_id: str, seed: bytes, deal: int) -> Json:
    """The record of one deal of an attempt, from the day's seed and the stored moves."""
    attempt = DailyStore(app.state.engine).attempt(attempt_id, client.cookies[COOKIE])
    assert attempt is not None
    dealt = daily_game.deal(seed, deal - 1)
    return {
        "format": "sheepshead-hand/1",
        "dealer": dealt.dealer,
        "hands": [[c.text for c in hand] for hand in dealt.dealt],
        "blind": [c.text for c in dealt.blind],
        "actions": list(attempt.moves[deal - 1]),
    }


def test_the_daily_deals_never_show_a_hidden_card_or_a_seed(make_app: MakeApp) -> None:
    app = make_app(**UNLIMITED)
    app.state.daily_clock = lambda: NOON
    day_seed = daily_game.day_seed(SECRET.encode(), daily_game.day_of(NOON))
    day_secrets = [day_seed.hex(), *(daily_game.deal_seed(day_seed, k).hex() for k in range(5))]
    reads = ["/api/v1/daily/attempts/{id}", "/api/v1/daily/attempts/current"]
    for player in range(2):
        client = make_client(app)
        rng = random.Random(player)
        response = client.post("/api/v1/daily/attempts")
        assert response.status_code == 201, response.text
        state = response.json()["state"]
        for deal in range(1, 6):
            start = (moves_of(state), response.text)
            state, bodies = play_and_record(client, rng, state, "/api/v1/daily/attempts", reads)
            bodies.append((moves_of(state), client.get("/api/v1/daily/board").text))
            # A deal's record holds every hand: it waits for the day's end.
            refused = client.get(f"/api/v1/daily/attempts/{state['id']}/deals/{deal}/record")
            assert refused.status_code == 409
            bodies.append((moves_of(state), refused.text))
            assert state["seed"] is None  # the deal is over, the day is not
            truth = _daily_truth(app, client, state["id"], day_seed, deal)
            check_bodies([start, *bodies], truth, [], day_secrets)
            if deal < 5:
                response = client.post(
                    f"/api/v1/daily/attempts/{state['id']}/next-deal",
                    json={"version": state["version"]},
                )
                assert response.status_code == 200, response.text
                state = response.json()["state"]


def test_the_checker_catches_each_kind_of_leak() -> None:
    record = TWO_PASSES
    game = replay({**record, "actions": ["0 pass"]})
    view = game.view(0).to_json()
    honest = json.dumps({"view": view, "seed": None, "summary": None})
    assert check_bodies([(1, honest)], record, ["ab" * 32], ["cd" * 32]) == 1
    other_seat = replay({**record, "actions": ["0 pass"]}).view(1).to_json()
    for leak in (
        json.dumps({"detail": "seat 1 holds the 7S"}),  # another seat's card
        json.dumps({"view": {**view, "cards": view["cards"][:-1]}, "seed": None, "summary": None}),
        json.dumps({"view": other_seat, "seed": None, "summary": None}),  # not seat 0's
        json.dumps({"view": view, "seed": "ab" * 32, "summary": None}),  # the seed, early
    ):
        with pytest.raises(AssertionError):
            check_bodies([(1, leak)], record, ["ab" * 32], [])
    # A day's secret may not show even once the deal is over (thrown in, here).
    thrown_in = {
        **record,
        "rules": {"nobody_picks": "doubler"},
        "actions": ["0 pass", "1 pass", "2 pass", "3 pass", "4 pass"],
    }
    assert replay(thrown_in).is_done
    over = json.dumps({"seed": "ab" * 32})
    assert check_bodies([(5, over)], thrown_in, ["ab" * 32], []) == 0
    with pytest.raises(AssertionError):
        check_bodies([(5, over)], thrown_in, [], ["ab" * 32])
