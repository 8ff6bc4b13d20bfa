"""The fast path of a friends' table's sockets on PostgreSQL, with two apps (as two
worker processes would be): the process that made an action sends its own sockets the
table from memory, reading nothing, and the NOTIFY it hears afterwards for that change
is not read again; the other process still reads the table (the database stays the
truth) and its socket gets the same change. Each socket's message is its own seat's."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI

from server.helpers import TestClient, identify, make_client
from server.test_postgres import postgres_url, settings  # noqa: F401  (fixtures)
from sheepshead.server import Settings, create_app
from sheepshead.server.friends_play import Step
from sheepshead.server.live import READ, Wake, _merge
from sheepshead.store.friends import now

pytestmark = pytest.mark.postgres

API = "/api/v1/tables"


@pytest.fixture
def apps(settings: Settings) -> Iterator[tuple[FastAPI, FastAPI]]:  # noqa: F811
    one, two = create_app(settings), create_app(replace(settings, migrate=False))
    with make_client(one), make_client(two):
        yield one, two
    for app in (one, two):
        app.state.engine.dispose()


def person(app: FastAPI, name: str) -> TestClient:
    client = make_client(app)
    identify(app, client)
    assert client.put("/api/v1/daily/me/name", json={"name": name}).status_code == 200
    return client


def stamps_read(app: FastAPI) -> list[int]:
    """Record the stamp of every table this app's sockets read from the database."""
    store = app.state.friends.store
    reads: list[int] = []
    load: Callable[[str], Any] = store.load_id

    def counted(table_id: str) -> Any:
        stored = load(table_id)
        if stored is not None:
            reads.append(stored.stamp)
        return stored

    store.load_id = counted
    return reads


def settled(apps: tuple[FastAPI, ...], table_id: str, stamp: int) -> None:
    """Wait until every app's sockets were sent the table at ``stamp``."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if all(a.state.hub.sent.get(table_id, -1) >= stamp for a in apps):
            return
        time.sleep(0.02)
    raise AssertionError("the sockets were not sent the table's last change")


def test_the_acting_process_sends_its_sockets_from_memory_and_the_other_reads(
    apps: tuple[FastAPI, FastAPI],
) -> None:
    one, two = apps
    host = person(one, "Hostess")
    code = host.post(API, json={"rules": {"players": 3}}).json()["code"]
    guest = person(two, "Guest")
    assert guest.post(f"{API}/{code}/seats").status_code == 200
    assert host.post(f"{API}/{code}/start").status_code == 200
    table_id = one.state.friends.store.load(code).id
    with (
        host.websocket_connect(f"{API}/{code}/live") as mine,
        guest.websocket_connect(f"{API}/{code}/live") as theirs,
    ):
        assert mine.receive_json()["state"]["seat"] == 0
        assert theirs.receive_json()["state"]["seat"] == 1
        # The sockets' own presence writes have reached both processes.
        settled((one, two), table_id, one.state.friends.store.load(code).stamp)
        reads_one, reads_two = stamps_read(one), stamps_read(two)
        state = host.get(f"{API}/{code}").json()
        actor, app, ws, other, other_ws = host, one, mine, guest, theirs
        if not state["view"]["legal"]:
            state = guest.get(f"{API}/{code}").json()
            actor, app, ws, other, other_ws = guest, two, theirs, host, mine
        assert state["view"]["legal"], "a person is to act at the start"
        body = {"action": state["view"]["legal"][0], "version": state["version"]}
        reply = actor.post(f"{API}/{code}/actions", json=body)
        assert reply.status_code == 200
        after = reply.json()["state"]
        stamp = app.state.friends.store.load(code).stamp
        # Both sockets get the change, each its own seat's state and events.
        for socket, client in ((ws, actor), (other_ws, other)):
            message = socket.receive_json()
            while message["state"]["version"] < after["version"]:
                message = socket.receive_json()
            assert message["state"] == client.get(f"{API}/{code}").json()
            assert message["events"], "the action's events"
            seat = message["state"]["seat"]
            hands = [e for e in message["events"] if e.get("seat") not in (None, seat)]
            assert all("cards" not in e for e in hands if e["type"] == "bury")
        settled((one, two), table_id, stamp)
        acted, watched = (reads_one, reads_two) if app is one else (reads_two, reads_one)
        # The acting process read nothing for its sockets (its NOTIFY was seen)...
        assert stamp not in acted
        # ... the other read the change from the database.
        assert stamp in watched


def test_wake_ups_waiting_merge_into_one_that_covers_both() -> None:
    step = Step.__new__(Step)  # only its identity matters to the merge
    later = Step.__new__(Step)
    assert _merge(None, Wake(3, step)) == Wake(3, step)
    # A client's hello (read whatever was sent) covers any other wake-up.
    assert _merge(Wake(3, step), READ) is READ
    assert _merge(READ, Wake(5, step)) is READ
    # The newest table from memory covers the NOTIFY of an older change...
    assert _merge(Wake(4), Wake(5, later)).step is later
    assert _merge(Wake(5, later), Wake(4)).step is later
    # ... but a newer NOTIFY than the table in memory is read from the database.
    assert _merge(Wake(5, later), Wake(6)) == Wake(6)


def test_one_statement_renews_every_socket_of_a_process(
    apps: tuple[FastAPI, FastAPI],
) -> None:
    one, _ = apps
    host, guest = person(one, "Marta"), person(one, "Oskar")
    codes = [host.post(API, json={"rules": {"players": 3}}).json()["code"] for _ in range(2)]
    assert guest.post(f"{API}/{codes[0]}/seats").status_code == 200
    store, hub = one.state.friends.store, one.state.hub
    with (
        host.websocket_connect(f"{API}/{codes[0]}/live") as a,
        host.websocket_connect(f"{API}/{codes[1]}/live") as b,
    ):
        a.receive_json()
        b.receive_json()
        sockets = hub._sockets()
        assert len(sockets) == 2  # the host's two sockets; the guest has none
        until = now() + timedelta(hours=2)
        store.renew(sockets, until)
        first, second = (store.load(code) for code in codes)
        assert first.seats[0].live_until == until
        assert second.seats[0].live_until == until
        assert first.seats[1].live_until != until  # the guest's seat: no socket here
