"""Bots think off the event loop: one table's thinking never holds up another table.

A real uvicorn server (in a thread, on a free port) serves the app. The first bot
decision of table A is made to wait until the test lets it go; meanwhile table B is
read and played. If the bots ran on the event loop, or one table's request blocked
the others, B could not answer while A waits, and the test would time out instead.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

import sheepshead.bots
from sheepshead.actions import Action
from sheepshead.view import SeatView

WAIT = 30.0  # seconds: only ever reached if the server is stuck


@pytest.fixture
def server_url(app: FastAPI) -> Iterator[str]:
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(int(WAIT * 20)):
        if server.started:
            break
        threading.Event().wait(0.05)
    assert server.started, "uvicorn did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://localhost:{port}"
    server.should_exit = True
    thread.join(WAIT)


def test_one_tables_thinking_does_not_hold_up_another(
    server_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with httpx.Client(base_url=server_url, timeout=WAIT) as client:
        game_a = client.post("/api/v1/games", json={}).json()["state"]
        game_b = client.post("/api/v1/games", json={}).json()["state"]
        cookies = dict(client.cookies)

    thinking, release = threading.Event(), threading.Event()
    decide = sheepshead.bots.decide
    calls = 0

    def slow_first_decision(
        level: str, view: SeatView, seed: int = 0, version: str | None = None
    ) -> Action:
        nonlocal calls
        calls += 1
        if calls == 1:
            thinking.set()
            assert release.wait(WAIT), "table A was never let go"
        return decide(level, view, seed, version)

    monkeypatch.setattr(sheepshead.bots, "decide", slow_first_decision)
    a_reply: dict[str, Any] = {}

    def play_a() -> None:
        with httpx.Client(base_url=server_url, cookies=cookies, timeout=WAIT) as tab:
            response = tab.post(
                f"/api/v1/games/{game_a['id']}/actions",
                json={"action": "pass", "version": game_a["version"]},
            )
            a_reply["status"] = response.status_code

    thread = threading.Thread(target=play_a)
    thread.start()
    try:
        assert thinking.wait(WAIT), "table A's bots never started thinking"
        with httpx.Client(base_url=server_url, cookies=cookies, timeout=WAIT) as tab:
            # While A's bot thinks: B's state, B's action with its bots, and A's state.
            assert tab.get(f"/api/v1/games/{game_b['id']}").status_code == 200
            played = tab.post(
                f"/api/v1/games/{game_b['id']}/actions",
                json={"action": "pass", "version": game_b["version"]},
            )
            assert played.status_code == 200
            assert len(played.json()["events"]) > 1  # B's bots answered
            assert tab.get(f"/api/v1/games/{game_a['id']}").json() == game_a
            assert "status" not in a_reply, "A finished before it was let go"
    finally:
        release.set()
        thread.join(WAIT)
    assert a_reply["status"] == 200
