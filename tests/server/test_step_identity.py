"""A step at a table reads no player row first; a step at no game of the player's still
ends as any change does: 404, and an identity issued once when the cookie names none."""

from __future__ import annotations

from fastapi import FastAPI

from server.helpers import TestClient, new_game
from sheepshead.server.identity import COOKIE

NOBODY = "0" * 32


def test_a_step_at_no_game_issues_one_identity_as_any_change(
    app: FastAPI, client: TestClient
) -> None:
    body = {"action": "pass", "version": 1}
    response = client.post(f"/api/v1/games/{'a' * 32}/actions", json=body)
    assert response.status_code == 404
    issued = response.headers.get_list("set-cookie")
    assert len(issued) == 1
    assert issued[0].startswith(f"{COOKIE}=")
    player = response.cookies[COOKIE]
    assert app.state.identities.has_player(player)
    # A cookie naming no player: a new identity, as before.
    client.cookies.set(COOKIE, NOBODY)
    response = client.post(f"/api/v1/games/{'a' * 32}/next-hand", json={"version": 1})
    assert response.status_code == 404
    assert response.cookies.get(COOKIE) not in (None, NOBODY)
    assert not app.state.identities.has_player(NOBODY)


def test_another_players_step_is_404_whatever_the_cookie_claims(
    client: TestClient, other: TestClient
) -> None:
    state = new_game(client)["state"]
    new_game(other)
    body = {"action": state["view"]["legal"][0], "version": state["version"]}
    response = other.post(f"/api/v1/games/{state['id']}/actions", json=body)
    assert response.status_code == 404
    assert "set-cookie" not in response.headers
