"""Helpers for the API tests: a client per visitor, and walking games through the API."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

from sheepshead.server.identity import COOKIE

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

__all__ = [
    "BASE",
    "Json",
    "TestClient",
    "act",
    "identify",
    "make_client",
    "new_game",
    "play_hand",
]

BASE = "http://localhost"
Json = dict[str, Any]


def make_client(app: FastAPI, base_url: str = BASE) -> TestClient:
    return TestClient(app, base_url=base_url)


def identify(app: FastAPI, client: TestClient) -> str:
    """Give the visitor an identity, as an earlier change would have (none of the
    rate limits is charged for it); its id."""
    player: str = app.state.identities.new_player()
    client.cookies.set(COOKIE, player)
    return player


def new_game(client: TestClient, **body: Any) -> Json:
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.text
    step: Json = response.json()
    return step


def act(client: TestClient, state: Json, action: str) -> Json:
    response = client.post(
        f"/api/v1/games/{state['id']}/actions",
        json={"action": action, "version": state["version"]},
    )
    assert response.status_code == 200, response.text
    step: Json = response.json()
    return step


Chooser = Callable[[list[str]], str]


def play_hand(
    client: TestClient, state: Json, choose: Chooser = lambda legal: legal[0]
) -> list[Json]:
    """Play the human's part of the current hand; every step's reply, in order."""
    steps = []
    while not state["hand_over"]:
        step = act(client, state, choose(state["view"]["legal"]))
        steps.append(step)
        state = step["state"]
    return steps
