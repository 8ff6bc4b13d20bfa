"""Friends' tables on PostgreSQL with two apps (as two worker processes would be): a
move made through one reaches a socket held by the other (LISTEN/NOTIFY), and a clock
that ran out is handled once although both apps' tickers look for it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import update

from server.helpers import TestClient, identify, make_client
from server.test_postgres import postgres_url, settings  # noqa: F401  (fixtures)
from sheepshead.server import Settings, create_app
from sheepshead.store.friends import FriendTableRow, now

pytestmark = pytest.mark.postgres

API = "/api/v1/tables"


@pytest.fixture
def apps(settings: Settings) -> Iterator[tuple[FastAPI, FastAPI]]:  # noqa: F811
    quick = replace(settings, friends_tick_seconds=0.2)
    one, two = create_app(quick), create_app(replace(quick, migrate=False))
    # Each app's lifespan runs (as uvicorn's would): its ticker and listener start.
    with make_client(one), make_client(two):
        yield one, two
    for app in (one, two):
        app.state.engine.dispose()


def person(app: FastAPI, name: str) -> TestClient:
    client = make_client(app)
    identify(app, client)
    assert client.put("/api/v1/daily/me/name", json={"name": name}).status_code == 200
    return client


def test_a_move_through_one_process_reaches_a_socket_on_the_other(
    apps: tuple[FastAPI, FastAPI],
) -> None:
    one, two = apps
    host = person(one, "Hostess")
    code = host.post(API, json={"rules": {"players": 3}, "seconds": 15}).json()["code"]
    guest = person(two, "Guest")
    assert guest.post(f"{API}/{code}/seats").status_code == 200
    assert host.post(f"{API}/{code}/start").status_code == 200
    with guest.websocket_connect(f"{API}/{code}/live") as ws:
        first = ws.receive_json()
        assert first["state"]["seat"] == 1
        start = first["state"]["version"]
        # Whoever is to act does, through their own process.
        for _ in range(6):
            for client in (host, guest):
                state = client.get(f"{API}/{code}").json()
                if state["view"]["legal"]:
                    client.post(
                        f"{API}/{code}/actions",
                        json={"action": state["view"]["legal"][0], "version": state["version"]},
                    )
                    break
        latest = state["version"]
        message = ws.receive_json()
        while message["state"]["version"] < latest:
            message = ws.receive_json()
        assert message["state"]["version"] > start
        assert message["state"]["seat"] == 1
        # A clock run out (moved into the past here) is played once by the computer.
        before = guest.get(f"{API}/{code}").json()
        with one.state.engine.begin() as conn:
            conn.execute(
                update(FriendTableRow)
                .where(FriendTableRow.code == code)
                .values(deadline=now() - timedelta(seconds=1))
            )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            after = guest.get(f"{API}/{code}").json()
            if after["version"] > before["version"]:
                break
            time.sleep(0.1)
        waiting = before["turn"]
        assert after["version"] > before["version"], "the clock did not fire"
        assert waiting in after["covered"]
