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
from server.test_friends import a_move_lands_during_a_read
from server.test_postgres import postgres_url, settings  # noqa: F401  (fixtures)
from sheepshead.server import Settings, create_app
from sheepshead.store.friends import FriendHandRow, FriendTableRow, now

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


def test_a_wake_ups_one_statement_read_is_the_table_a_transaction_reads(
    apps: tuple[FastAPI, FastAPI],
) -> None:
    """``load_id`` reads a table in one statement (its seats and hands as JSON) outside
    a transaction: it must give what the three statements of ``load`` give, on a
    process that has the finished hands already and on one reading them first."""
    one, two = apps
    host = person(one, "Reading Host")
    code = host.post(API, json={"rules": {"players": 3}, "seconds": 30}).json()["code"]
    guest = person(one, "Reading Guest")
    assert guest.post(f"{API}/{code}/seats").status_code == 200
    friends = one.state.friends
    table_id = friends.load(code).id
    assert friends.store.load_id(table_id) == friends.load(code)  # the lobby
    assert host.post(f"{API}/{code}/start").status_code == 200
    players = [s.player_id for s in friends.load(code).seats]
    friends.presence(code, players[1], True)  # a presence time, a deadline
    with one.state.engine.begin() as conn:  # hints asked for in the first hand
        conn.execute(
            update(FriendHandRow)
            .where(FriendHandRow.table_id == table_id, FriendHandRow.number == 1)
            .values(hints=[0, 2, 0])
        )
    seen_hints = False
    for _ in range(60):
        stored = friends.load(code)
        assert friends.store.load_id(table_id) == stored
        assert two.state.friends.store.load_id(table_id) == stored
        seen_hints = seen_hints or bool(stored.hint_counts)
        table = friends.restore(stored)
        assert table is not None
        if table.hand_over:
            if stored.version > 60:
                break
            friends.next_hand(code, players[0], stored.version)
            continue
        seat = table.game.turn
        assert seat is not None
        action = friends.state(stored, seat, table)["view"]["legal"][0]
        player = players[seat] if players[seat] is not None else players[0]
        friends.act(code, player, action, stored.version)
    assert stored.hands[0].done
    assert seen_hints
    assert two.state.friends.store.load_id("no-such-table") is None


def test_a_read_is_one_moment_of_the_table_though_a_move_lands_during_it(
    apps: tuple[FastAPI, FastAPI],
) -> None:
    a_move_lands_during_a_read(apps[0])
