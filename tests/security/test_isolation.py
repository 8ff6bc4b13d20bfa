"""One player cannot act on, read, or list another's game or daily attempt, even
knowing its id: every endpoint that takes a game's or an attempt's id answers another
player exactly as it answers an id that does not exist, and changes nothing."""

from __future__ import annotations

from security.routes import operations, send
from server.helpers import Json, TestClient, play_hand


def _finish_a_daily_deal(client: TestClient) -> Json:
    response = client.post("/api/v1/daily/attempts")
    assert response.status_code == 201, response.text
    state: Json = response.json()["state"]
    while not state["hand_over"]:
        response = client.post(
            f"/api/v1/daily/attempts/{state['id']}/actions",
            json={"action": state["view"]["legal"][0], "version": state["version"]},
        )
        assert response.status_code == 200, response.text
        state = response.json()["state"]
    return state


def _snapshot(client: TestClient, game_id: str, attempt_id: str) -> tuple[Json, Json]:
    game = client.get(f"/api/v1/games/{game_id}")
    attempt = client.get(f"/api/v1/daily/attempts/{attempt_id}")
    assert game.status_code == attempt.status_code == 200
    return game.json(), attempt.json()


def test_no_endpoint_lets_a_player_read_or_touch_anothers_game_or_attempt(
    client: TestClient, other: TestClient
) -> None:
    # The victim: a game with a finished hand, a daily attempt with a finished deal.
    response = client.post("/api/v1/games", json={})
    assert response.status_code == 201
    game = play_hand(client, response.json()["state"])[-1]["state"]
    attempt = _finish_a_daily_deal(client)
    ids = {"game_id": game["id"], "attempt_id": attempt["id"], "number": 1}
    before = _snapshot(client, game["id"], attempt["id"])
    other.get("/api/v1/daily/me")  # the other player's own identity

    ops = [op for op in operations(client) if op.params & {"game_id", "attempt_id"}]
    assert len(ops) >= 8, [str(op) for op in ops]
    for op in ops:
        url = op.url(**ids)
        if not op.unsafe:
            # The owner may (so the 404 below is about whose it is, nothing else); a
            # daily deal's record, which holds every hand, waits for the day's end, and
            # so does its review.
            sealed = op.path.startswith("/api/v1/daily/") and op.path.endswith(
                ("/record", "/review")
            )
            assert client.get(url).status_code == (409 if sealed else 200), str(op)
        stranger = send(other, op, url)
        unknown = send(other, op, op.url(**{**ids, "game_id": "f" * 32, "attempt_id": "f" * 32}))
        assert stranger.status_code == 404, (str(op), stranger.text)
        assert stranger.json() == unknown.json(), str(op)
    assert _snapshot(client, game["id"], attempt["id"]) == before

    # Nor does anything list them for another player.
    assert other.get("/api/v1/games/current").status_code == 404
    assert other.get("/api/v1/daily/attempts/current").status_code == 404
    today = other.get("/api/v1/daily/today").json()
    assert today["ranked"] is None
    assert today["attempts"] == 0
    for op in operations(other):
        if op.unsafe or op.params:
            continue
        body = other.get(op.path).text
        assert game["id"] not in body, str(op)
        assert attempt["id"] not in body, str(op)
