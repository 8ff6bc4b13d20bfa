"""The games API: create, read, act, next hand, hand records; refusals and conflicts."""

from __future__ import annotations

import re
import threading
from typing import Any

from fastapi import FastAPI

from server.helpers import Json, TestClient, act, make_client, new_game, play_hand
from sheepshead.deal import seed_commitment
from sheepshead.record import check
from sheepshead.server import Settings, create_app

HEX64 = re.compile(r"[0-9a-f]{64}")


def test_a_new_game_deals_and_waits_for_the_players_first_decision(client: TestClient) -> None:
    step = new_game(client)
    state = step["state"]
    assert re.fullmatch(r"[0-9a-f]{32}", state["id"])
    assert state["seat"] == 0
    assert state["players"] == 5
    assert state["rules"] == {}
    assert state["level"] == "standard"
    assert state["hand_number"] == 1
    assert state["names"] == ["You", "Ann", "Bob", "Cal", "Dot"]
    assert state["view"]["turn"] == 0
    assert state["view"]["legal"] == ["pass", "pick"]
    assert len(state["view"]["cards"]) == 6
    assert state["scores"] == [0] * 5
    assert state["score_sheet"] == []
    assert HEX64.fullmatch(state["seed_sha256"])
    assert state["seed"] is None
    assert state["summary"] is None
    assert state["hand_over"] is False
    assert step["events"] == []


def test_a_game_with_house_rules_and_a_level(client: TestClient) -> None:
    rules = {"players": 3, "nobody_picks": "doubler", "cracking": True}
    state = new_game(client, rules=rules, level="beginner")["state"]
    assert state["players"] == 3
    assert state["rules"] == rules
    assert state["level"] == "beginner"
    assert state["names"] == ["You", "Ann", "Bob"]
    assert len(state["view"]["cards"]) == 10


def test_bad_rules_levels_and_bodies_are_refused_with_a_reason(client: TestClient) -> None:
    cases: list[tuple[Any, str]] = [
        ({"rules": {"players": 7}}, "rules: players must be 3, 4, 5 or 6, not 7"),
        ({"rules": {"colour": "red"}}, "rules: unknown rules field: colour"),
        ({"rules": {"partner": "none"}}, 'rules: partner "none" is played with 3 or 4 players'),
        ({"level": "grandmaster"}, "level: no level 'grandmaster'"),
        ({"level": "standard", "seat": 2}, "seat: Extra inputs are not permitted"),
        ({"rules": []}, "rules: Input should be a valid dictionary"),
    ]
    for body, reason in cases:
        response = client.post("/api/v1/games", json=body)
        assert response.status_code == 422, body
        assert response.json()["detail"].startswith(reason), response.json()
    response = client.post(
        "/api/v1/games", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], str)
    assert client.get("/api/v1/games/current").status_code == 404


def test_the_current_game_is_the_latest_one(client: TestClient) -> None:
    response = client.get("/api/v1/games/current")
    assert response.status_code == 404
    assert response.json() == {"detail": "you have no game yet"}
    first = new_game(client)["state"]
    assert client.get("/api/v1/games/current").json() == first
    second = new_game(client, rules={"players": 4})["state"]
    assert client.get("/api/v1/games/current").json() == second
    assert client.get(f"/api/v1/games/{first['id']}").json() == first


def test_unknown_and_malformed_game_ids_are_404(client: TestClient) -> None:
    for game_id in ("0" * 32, "nope", "A" * 32, "%20"):
        for method, path, body in (
            ("GET", f"/api/v1/games/{game_id}", None),
            ("POST", f"/api/v1/games/{game_id}/actions", {"action": "pick", "version": 1}),
            ("POST", f"/api/v1/games/{game_id}/next-hand", {"version": 1}),
            ("GET", f"/api/v1/games/{game_id}/hands/1/record", None),
        ):
            response = client.request(method, path, json=body)
            assert response.status_code == 404, (method, path)
            assert response.json() == {"detail": "no such game"}


def test_another_players_game_is_404_and_untouched(client: TestClient, other: TestClient) -> None:
    state = new_game(client)["state"]
    game_id = state["id"]
    for response in (
        other.get(f"/api/v1/games/{game_id}"),
        other.post(f"/api/v1/games/{game_id}/actions", json={"action": "pick", "version": 1}),
        other.post(f"/api/v1/games/{game_id}/next-hand", json={"version": 1}),
        other.get(f"/api/v1/games/{game_id}/hands/1/record"),
    ):
        # Exactly what a game that does not exist gets: nothing says it exists.
        assert response.status_code == 404
        assert response.json() == {"detail": "no such game"}
    assert other.get("/api/v1/games/current").status_code == 404
    assert client.get(f"/api/v1/games/{game_id}").json() == state


def test_an_action_replies_with_the_events_up_to_the_next_decision(client: TestClient) -> None:
    state = new_game(client)["state"]
    step = act(client, state, "pass")
    events = step["events"]
    assert events[0] == {
        "type": "pass",
        "seat": 0,
        "nobody_picked": None,
        "text": "You pass",
    }
    new = step["state"]
    assert new["version"] == state["version"] + len(new["view"]["moves"])
    # Every move since the player's pass is in the events, in order.
    assert [e["seat"] for e in events if e["type"] in ("pass", "pick")] == [
        int(m.split()[0]) for m in new["view"]["moves"] if m.split()[1] in ("pass", "pick")
    ]
    assert new["view"]["turn"] == 0 or new["hand_over"]


def test_illegal_and_malformed_actions_are_refused_and_change_nothing(client: TestClient) -> None:
    state = new_game(client)["state"]
    url = f"/api/v1/games/{state['id']}/actions"
    cases: list[tuple[Any, str]] = [
        ({"action": "play QC", "version": 1}, "seat 0 must pick or pass now, not play"),
        ({"action": "play ZZ", "version": 1}, "cannot read the action 'play ZZ'"),
        ({"action": "dance", "version": 1}, "cannot read the action 'dance'"),
        ({"action": "", "version": 1}, "action: String should have at least 1 character"),
        ({"action": "pick"}, "version: Field required"),
        ({"action": "pick", "version": "one"}, "version: Input should be a valid integer"),
        ({"action": "pick", "version": 1, "seat": 3}, "seat: Extra inputs are not permitted"),
        ({"action": "x" * 65, "version": 1}, "action: String should have at most 64"),
        ([], "Input should be a valid dictionary"),
    ]
    for body, reason in cases:
        response = client.post(url, json=body)
        assert response.status_code == 422, body
        assert response.json()["detail"].startswith(reason), (body, response.json())
    assert client.get(f"/api/v1/games/{state['id']}").json() == state


def test_a_refused_card_gets_the_engines_reason(client: TestClient) -> None:
    for _ in range(30):
        state = new_game(client)["state"]
        while not state["hand_over"]:
            view = state["view"]
            if view["refusals"]:
                card, refusal = next(iter(view["refusals"].items()))
                assert set(refusal) == {"code", "params", "text"}
                reason = refusal["text"]
                response = client.post(
                    f"/api/v1/games/{state['id']}/actions",
                    json={"action": f"play {card}", "version": state["version"]},
                )
                assert response.status_code == 422
                # The sentence as before, and the same refusal as data for the page.
                assert response.json() == {
                    "detail": reason,
                    "code": refusal["code"],
                    "params": refusal["params"],
                }
                assert refusal["params"]["seat"] == 0
                assert re.fullmatch(r"(seat 0|the picker) (must|may) .+", reason)
                assert client.get(f"/api/v1/games/{state['id']}").json() == state
                return
            state = act(client, state, view["legal"][-1])["state"]
    raise AssertionError("no refused card in 30 hands")


def test_a_stale_version_gets_409_with_the_current_state(client: TestClient) -> None:
    state = new_game(client)["state"]
    now = act(client, state, "pick")["state"]
    response = client.post(
        f"/api/v1/games/{state['id']}/actions", json={"action": "pass", "version": 0}
    )
    assert response.status_code == 409
    assert response.json()["state"] == now
    assert "version" in response.json()["detail"]


def test_the_same_action_sent_twice_applies_once(client: TestClient) -> None:
    state = new_game(client)["state"]
    body = {"action": "pick", "version": state["version"]}
    url = f"/api/v1/games/{state['id']}/actions"
    first = client.post(url, json=body)
    second = client.post(url, json=body)
    assert first.status_code == 200
    assert second.status_code == 409
    assert second.json()["state"] == first.json()["state"]
    assert client.get(f"/api/v1/games/{state['id']}").json() == first.json()["state"]


def test_simultaneous_copies_of_an_action_apply_exactly_once(
    app: FastAPI, client: TestClient
) -> None:
    state = new_game(client)["state"]
    cookies = dict(client.cookies)
    url = f"/api/v1/games/{state['id']}/actions"
    body = {"action": "pick", "version": state["version"]}
    barrier = threading.Barrier(4)
    codes: list[int] = []

    def send() -> None:
        tab = make_client(app)
        tab.cookies.update(cookies)
        barrier.wait()
        codes.append(tab.post(url, json=body).status_code)

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [200, 409, 409, 409]
    final = client.get(f"/api/v1/games/{state['id']}").json()
    assert final["view"]["moves"].count("0 pick") == 1


def test_a_whole_hand_then_the_next(client: TestClient) -> None:
    state = new_game(client)["state"]
    steps = play_hand(client, state)
    last = steps[-1]
    end = last["state"]
    assert end["hand_over"]
    assert last["events"][-1]["type"] == "hand"
    assert sum(last["events"][-1]["scores"]) == 0
    summary = end["summary"]
    assert summary["result"]["scores"] == last["events"][-1]["scores"] == end["scores"]
    assert end["score_sheet"] == [
        {
            "hand": 1,
            "dealer": 4,
            "picker": summary["result"]["picker"],
            "partners": summary["result"]["partners"],
            "result": summary["result"]["result"],
            "multiplier": end["score_sheet"][0]["multiplier"],
            "scores": end["scores"],
            # Each finished hand's fingerprint and seed, for the score sheet's links.
            "seed_sha256": end["seed_sha256"],
            "seed": end["seed"],
        }
    ]
    # The seed comes out, and it matches the hash shown while the hand was played.
    assert end["seed_sha256"] == state["seed_sha256"] == seed_commitment(bytes.fromhex(end["seed"]))
    deal = client.get(f"/api/v1/verify?seed={end['seed']}&players=5").json()
    assert deal["hands"] == summary["hands"]
    assert deal["blind"] == summary["blind"]
    # Acting on a finished hand is a conflict: the page should deal the next hand.
    response = client.post(
        f"/api/v1/games/{state['id']}/actions", json={"action": "pass", "version": end["version"]}
    )
    assert response.status_code == 409
    assert response.json()["state"] == end

    url = f"/api/v1/games/{state['id']}/next-hand"
    response = client.post(url, json={"version": end["version"]})
    assert response.status_code == 200
    nxt = response.json()["state"]
    assert nxt["hand_number"] == 2
    assert nxt["view"]["dealer"] == 0
    assert nxt["seed"] is None
    assert nxt["seed_sha256"] != end["seed_sha256"]
    assert nxt["scores"] == end["scores"]
    assert len(nxt["score_sheet"]) == 1
    # A second copy of the same request is refused, and no third hand is dealt.
    again = client.post(url, json={"version": end["version"]})
    assert again.status_code == 409
    assert again.json()["state"] == nxt


def test_next_hand_before_the_hand_is_over_is_a_conflict(client: TestClient) -> None:
    state = new_game(client)["state"]
    response = client.post(
        f"/api/v1/games/{state['id']}/next-hand", json={"version": state["version"]}
    )
    assert response.status_code == 409
    assert response.json() == {
        "detail": "the current hand is not over yet",
        "code": "hand-not-over",
        "params": {},
        "state": state,
    }
    response = client.post(f"/api/v1/games/{state['id']}/next-hand", json={})
    assert response.status_code == 422
    assert response.json() == {"detail": "version: Field required"}


def test_a_finished_hands_record_downloads_and_checks(client: TestClient) -> None:
    state = new_game(client)["state"]
    url = f"/api/v1/games/{state['id']}/hands/1/record"
    response = client.get(url)
    assert response.status_code == 404
    assert response.json() == {"detail": "hand 1 is not over"}
    end = play_hand(client, state, lambda legal: legal[-1])[-1]["state"]
    response = client.get(url)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    assert response.headers["content-disposition"] == (
        f'attachment; filename="sheepshead-{state["id"][:8]}-hand-1.json"'
    )
    record = response.json()
    assert record["hands"] == end["summary"]["hands"]
    assert record["dealer"] == 4
    code, result = check(response.text)
    assert code == 0
    assert result["complete"]
    assert {k: result[k] for k in end["summary"]["result"]} == end["summary"]["result"]
    assert client.get(f"/api/v1/games/{state['id']}/hands/2/record").status_code == 404
    assert client.get(f"/api/v1/games/{state['id']}/hands/0/record").status_code == 404


def test_a_game_resumes_exactly_after_a_restart(settings: Settings, client: TestClient) -> None:
    state = new_game(client)["state"]
    state = act(client, state, "pick")["state"]
    # A second server process on the same database: nothing was kept in memory.
    restarted = create_app(settings)
    tab = make_client(restarted)
    tab.cookies.update(dict(client.cookies))
    assert tab.get("/api/v1/games/current").json() == state
    assert tab.get(f"/api/v1/games/{state['id']}").json() == state
    step_here = act(client, state, state["view"]["legal"][0])
    response = tab.post(
        f"/api/v1/games/{state['id']}/actions",
        json={"action": state["view"]["legal"][0], "version": state["version"]},
    )
    assert response.status_code == 409
    assert response.json()["state"] == step_here["state"]
    restarted.state.engine.dispose()


def test_the_bots_are_deterministic_across_a_reload(client: TestClient) -> None:
    # Reading a game never advances it; the same state comes back every time.
    state = new_game(client, rules={"players": 6})["state"]
    steps = play_hand(client, state)
    final: Json = steps[-1]["state"]
    for _ in range(3):
        assert client.get(f"/api/v1/games/{state['id']}").json() == final


def test_the_openapi_document_lists_every_endpoint(client: TestClient) -> None:
    document: dict[str, Any] = client.get("/api/v1/openapi.json").json()
    assert {
        "/api/v1/games",
        "/api/v1/games/current",
        "/api/v1/games/{game_id}",
        "/api/v1/games/{game_id}/actions",
        "/api/v1/games/{game_id}/next-hand",
        "/api/v1/games/{game_id}/hands/{number}/record",
        "/api/v1/verify",
    } <= set(document["paths"])
    actions = document["paths"]["/api/v1/games/{game_id}/actions"]["post"]["responses"]
    assert {"200", "404", "409", "422"} <= set(actions)
