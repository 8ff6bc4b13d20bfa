"""Friends' tables through the API: the contract of docs/api.md, and the socket."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import event, update
from starlette.websockets import WebSocketDisconnect

from server.helpers import Json, TestClient, identify, make_client
from sheepshead.server import Settings, create_app
from sheepshead.server.settings import Rate
from sheepshead.store.friends import FriendTableRow, now

API = "/api/v1/tables"


def wrong(code: str) -> str:
    """Another code of the same shape."""
    return code[:-1] + ("A" if code[-1] != "A" else "B")


def seated(app: FastAPI, name: str) -> TestClient:
    client = make_client(app)
    identify(app, client)
    response = client.put("/api/v1/daily/me/name", json={"name": name})
    assert response.status_code == 200, response.text
    return client


def open_table(host: TestClient, **body: Any) -> Json:
    response = host.post(API, json={"rules": {"players": 5}, **body})
    assert response.status_code == 201, response.text
    created: Json = response.json()
    return created


def sit(client: TestClient, code: str) -> int:
    response = client.post(f"{API}/{code}/seats")
    assert response.status_code == 200, response.text
    seat: int = response.json()["seat"]
    return seat


def whose_turn(clients: dict[int, TestClient], code: str) -> tuple[TestClient, Json] | None:
    for client in clients.values():
        state = client.get(f"{API}/{code}").json()
        if state["view"]["legal"]:
            return client, state
    return None


def play_out_hand(clients: dict[int, TestClient], code: str) -> Json:
    """Each person plays the first legal action on their turn until the hand is over."""
    while True:
        found = whose_turn(clients, code)
        if found is None:
            state: Json = next(iter(clients.values())).get(f"{API}/{code}").json()
            assert state["hand_over"]
            return state
        client, state = found
        action = state["view"]["legal"][0]
        reply = client.post(
            f"{API}/{code}/actions", json={"action": action, "version": state["version"]}
        )
        assert reply.status_code == 200, reply.text


@pytest.fixture
def table(app: FastAPI) -> tuple[str, dict[int, TestClient]]:
    host = seated(app, "Hostess")
    code = open_table(host)["code"]
    clients = {0: host}
    for name in ("Guest", "Visitor"):
        client = seated(app, name)
        clients[sit(client, code)] = client
    return code, clients


def test_a_table_opens_with_the_host_in_seat_0_and_an_unguessable_code(app: FastAPI) -> None:
    host = seated(app, "Hostess")
    created = open_table(host, level="beginner", seconds=30)
    code = created["code"]
    assert created["seat"] == 0
    assert created["url"] == f"/friends/{code}"
    assert len(code) >= 16  # 96 random bits in URL-safe base64
    state = created["state"]
    assert state["names"][0] == "Hostess"
    assert state["computers"] == [1, 2, 3, 4]
    assert state["seconds"] == 30
    assert state["hints"] is False
    assert state["level"] == "beginner"
    # Anyone holding the code sees the lobby; a wrong code is 404.
    visitor = make_client(app)
    lobby = visitor.get(f"{API}/{code}").json()
    assert lobby["names"][0] == "Hostess"
    assert "view" not in lobby
    assert "seat" not in lobby
    assert visitor.get(f"{API}/{wrong(code)}").status_code == 404
    assert visitor.post(f"{API}/nosuchtable000/seats").status_code == 404
    for bad in ({"seconds": 20}, {"level": "godlike"}, {"rules": {"players": 9}}):
        assert host.post(API, json=bad).status_code == 422


def test_a_seat_needs_a_display_name_checked_as_the_dailys(app: FastAPI) -> None:
    code = open_table(seated(app, "Hostess"))["code"]
    guest = make_client(app)
    identify(app, guest)
    refused = guest.post(f"{API}/{code}/seats")
    assert refused.status_code == 422
    assert refused.json()["code"] == "name-required"
    taken = guest.post(f"{API}/{code}/seats", json={"name": "Hostess"})
    assert taken.status_code == 409
    assert taken.json()["code"] == "name-taken"
    reply = guest.post(f"{API}/{code}/seats", json={"name": "Guest"})
    assert reply.status_code == 200
    assert reply.json()["seat"] == 1
    assert reply.json()["state"]["names"][1] == "Guest"
    # Sitting again gives the same seat.
    assert sit(guest, code) == 1


def test_a_full_table_answers_409(app: FastAPI) -> None:
    host = seated(app, "Hostess")
    code = open_table(host, rules={"players": 3})["code"]
    assert sit(seated(app, "Second"), code) == 1
    assert sit(seated(app, "Third"), code) == 2
    full = seated(app, "Fourth").post(f"{API}/{code}/seats")
    assert full.status_code == 409
    assert full.json()["code"] == "table-full"


def test_only_the_host_starts_and_each_seat_sees_its_own_cards(
    table: tuple[str, dict[int, TestClient]],
) -> None:
    code, clients = table
    refused = clients[1].post(f"{API}/{code}/start")
    assert refused.status_code == 403
    assert refused.json()["code"] == "not-host"
    started = clients[0].post(f"{API}/{code}/start")
    assert started.status_code == 200, started.text
    hands = {}
    for seat, client in clients.items():
        state = client.get(f"{API}/{code}").json()
        assert state["seat"] == seat
        assert state["view"]["seat"] == seat
        assert state["computers"] == [3, 4]
        assert state["names"][:3] == [
            "Hostess",
            "Guest",
            "Visitor",
        ]
        assert not state["hand_over"]
        assert isinstance(state["version"], int)
        hands[seat] = set(state["view"]["cards"])
    assert not hands[0] & hands[1]
    assert not hands[1] & hands[2]
    assert not hands[0] & hands[2]


def test_actions_are_checked_applied_once_and_a_whole_hand_plays(
    table: tuple[str, dict[int, TestClient]],
) -> None:
    code, clients = table
    clients[0].post(f"{API}/{code}/start")
    found = whose_turn(clients, code)
    assert found is not None
    client, state = found
    others = [c for c in clients.values() if c is not client]
    body = {"action": state["view"]["legal"][0], "version": state["version"]}
    wrong = others[0].post(f"{API}/{code}/actions", json=body)
    assert wrong.status_code == 403
    assert wrong.json()["code"] == "not-your-turn"
    stranger = make_client(clients[0].app)  # type: ignore[arg-type]
    identify(clients[0].app, stranger)  # type: ignore[arg-type]
    assert stranger.post(f"{API}/{code}/actions", json=body).status_code == 403
    illegal = client.post(f"{API}/{code}/actions", json={**body, "action": "play QX"})
    assert illegal.status_code == 422
    assert client.post(f"{API}/{code}/actions", json=body).status_code == 200
    # The same action sent twice applies once: the second is stale.
    again = client.post(f"{API}/{code}/actions", json=body)
    assert again.status_code in (403, 409)
    assert "state" in again.json()
    over = play_out_hand(clients, code)
    assert over["summary"] is not None
    assert sum(over["scores"]) == 0
    assert len(over["score_sheet"]) == 1
    dealt = clients[1].post(f"{API}/{code}/next-hand", json={"version": over["version"]})
    assert dealt.status_code == 200
    assert dealt.json()["state"]["hand_number"] == 2
    stale = clients[2].post(f"{API}/{code}/next-hand", json={"version": over["version"]})
    assert stale.status_code == 409


def test_fixed_messages_only_in_the_lobby_and_between_hands(
    table: tuple[str, dict[int, TestClient]],
) -> None:
    code, clients = table
    assert clients[1].post(f"{API}/{code}/messages", json={"message": "hello"}).status_code == 204
    bad = clients[1].post(f"{API}/{code}/messages", json={"message": "you cheat"})
    assert bad.status_code == 422
    clients[0].post(f"{API}/{code}/start")
    during = clients[1].post(f"{API}/{code}/messages", json={"message": "thanks"})
    assert during.status_code == 409
    state = clients[2].get(f"{API}/{code}").json()
    assert state["messages"][-1]["seat"] == 1
    assert state["messages"][-1]["key"] == "hello"


def test_the_host_leaving_hands_the_table_to_the_longest_seated(
    table: tuple[str, dict[int, TestClient]],
) -> None:
    code, clients = table
    removed = clients[1].delete(f"{API}/{code}/seats/2")
    assert removed.status_code == 403
    assert clients[0].delete(f"{API}/{code}/seats/0").status_code == 204
    lobby = clients[2].get(f"{API}/{code}").json()
    assert lobby["host"] == 1
    assert 0 in lobby["computers"]
    assert clients[1].post(f"{API}/{code}/start").status_code == 200


def test_joining_is_rate_limited(settings: Settings) -> None:
    app = create_app(replace(settings, rate_joins=Rate(3, 3600)))
    try:
        code = open_table(seated(app, "Hostess"))["code"]
        guest = seated(app, "Guest")
        answers = [guest.post(f"{API}/{wrong(code)}/seats").status_code for _ in range(4)]
        assert answers == [404, 404, 404, 429]
    finally:
        app.state.engine.dispose()


def test_each_socket_gets_its_own_seats_state_after_another_seat_acts(
    table: tuple[str, dict[int, TestClient]],
) -> None:
    code, clients = table
    clients[0].post(f"{API}/{code}/start")
    url = f"{API}/{code}/live"
    with (
        clients[0].websocket_connect(url) as ws0,
        clients[1].websocket_connect(url) as ws1,
        clients[2].websocket_connect(url) as ws2,
    ):
        firsts = [ws.receive_json() for ws in (ws0, ws1, ws2)]
        assert [m["state"]["seat"] for m in firsts] == [0, 1, 2]
        found = whose_turn(clients, code)
        assert found is not None
        client, state = found
        actor = next(s for s, c in clients.items() if c is client)
        client.post(
            f"{API}/{code}/actions",
            json={"action": state["view"]["legal"][0], "version": state["version"]},
        )
        for seat, ws in enumerate((ws0, ws1, ws2)):
            message = ws.receive_json()
            while message["state"]["version"] == state["version"]:
                message = ws.receive_json()  # a presence change before the action
            assert message["state"]["seat"] == seat
            assert message["events"]
            assert message["events"][0]["seat"] == actor
            cards = set(message["state"]["view"]["cards"])
            mine = set(clients[seat].get(f"{API}/{code}").json()["view"]["cards"])
            assert cards == mine
        ws1.send_text("x" * 5000)
        with pytest.raises(WebSocketDisconnect) as closed:  # noqa: PT012 (reads until closed)
            for _ in range(5):
                ws1.receive_json()
        assert closed.value.code == 1009


def test_a_socket_from_another_site_or_without_identity_is_refused(
    table: tuple[str, dict[int, TestClient]], app: FastAPI
) -> None:
    code, clients = table
    url = f"{API}/{code}/live"
    evil = {"origin": "https://evil.example"}
    with pytest.raises(WebSocketDisconnect), clients[0].websocket_connect(url, headers=evil):
        pass
    with pytest.raises(WebSocketDisconnect), make_client(app).websocket_connect(url):
        pass


def _past(app: FastAPI, code: str, **values: Any) -> None:
    with app.state.engine.begin() as conn:
        conn.execute(update(FriendTableRow).where(FriendTableRow.code == code).values(**values))


def test_a_run_out_clock_hands_the_seat_to_the_computer_until_its_person_is_back(
    app: FastAPI, table: tuple[str, dict[int, TestClient]]
) -> None:
    code, clients = table
    clients[0].post(f"{API}/{code}/start")
    before = clients[0].get(f"{API}/{code}").json()
    waiting = before["turn"]
    _past(app, code, deadline=now() - timedelta(seconds=1))
    friends = app.state.friends
    friends.tick(code)
    friends.tick(code)  # a second ticker (another process) finds nothing left to do
    after = clients[0].get(f"{API}/{code}").json()
    assert after["version"] > before["version"]
    assert after["covered"] == [waiting]
    assert after["turn"] != waiting or after["hand_over"]
    # The person is back with a socket: the seat is theirs again.
    with clients[waiting].websocket_connect(f"{API}/{code}/live") as ws:
        assert ws.receive_json()["state"]["covered"] == []


def test_a_socket_of_a_person_already_there_writes_only_their_presence(
    app: FastAPI, table: tuple[str, dict[int, TestClient]]
) -> None:
    code, clients = table
    clients[0].post(f"{API}/{code}/start")
    store = app.state.friends.store
    url = f"{API}/{code}/live"
    before = store.load(code)
    with clients[1].websocket_connect(url) as ws:
        assert ws.receive_json()["state"]["away"] == []
        opened = store.load(code)
        # Nothing anyone sees changed: no new stamp (no wake-up), the presence kept.
        assert opened.stamp == before.stamp
        assert opened.seats[1].live_until is not None
        assert opened.seats[1].live_until > now()
    # Gone: away (a locked write, seen by all)...
    gone = store.load(code)
    assert gone.stamp > opened.stamp
    assert clients[0].get(f"{API}/{code}").json()["away"] == [1]
    # ... and back: not there before, so a locked write again, no longer away.
    with clients[1].websocket_connect(url) as ws:
        assert ws.receive_json()["state"]["away"] == []
        assert store.load(code).stamp > gone.stamp
        assert clients[0].get(f"{API}/{code}").json()["away"] == []


def test_nothing_is_played_while_nobody_is_there_and_an_idle_table_closes(
    app: FastAPI, table: tuple[str, dict[int, TestClient]]
) -> None:
    code, clients = table
    clients[0].post(f"{API}/{code}/start")
    url = f"{API}/{code}/live"
    with (
        clients[0].websocket_connect(url) as a,
        clients[1].websocket_connect(url) as b,
        clients[2].websocket_connect(url) as c,
    ):
        for ws in (a, b, c):
            ws.receive_json()
    # Every socket closed: the computer stood in for at most the seat to act then...
    gone = clients[0].get(f"{API}/{code}").json()
    assert sorted(gone["away"]) == [0, 1, 2]
    _past(app, code, deadline=now() - timedelta(seconds=1))
    app.state.friends.tick(code)
    # ... and nothing more is played while nobody is there.
    assert clients[0].get(f"{API}/{code}").json()["version"] == gone["version"]
    _past(app, code, acted_at=now() - timedelta(hours=2))
    app.state.friends.tick(code)
    assert clients[0].get(f"{API}/{code}").status_code == 404


def test_the_openapi_document_lists_the_friends_endpoints(client: TestClient) -> None:
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert {
        "/api/v1/tables",
        "/api/v1/tables/{code}",
        "/api/v1/tables/{code}/seats",
        "/api/v1/tables/{code}/start",
        "/api/v1/tables/{code}/actions",
        "/api/v1/tables/{code}/next-hand",
        "/api/v1/tables/{code}/hint",
    } <= set(paths)
    assert {"200", "403", "404", "409", "422"} <= set(
        paths["/api/v1/tables/{code}/actions"]["post"]["responses"]
    )


def test_a_steps_table_is_what_loading_it_again_gives(
    app: FastAPI, table: tuple[str, dict[int, TestClient]]
) -> None:
    """The reply to an action is built from the write itself, not from a second read:
    it must be the very table the database now holds."""
    code, clients = table
    assert clients[0].post(f"{API}/{code}/start").status_code == 200
    friends = app.state.friends
    players = {seat: friends.load(code).seats[seat].player_id for seat in clients}
    for _ in range(12):
        found = whose_turn(clients, code)
        if found is None:
            break
        _, state = found
        step, _ = friends.act(
            code, players[state["seat"]], state["view"]["legal"][0], state["version"]
        )
        assert step.stored == friends.load(code)
        assert step.table is not None
        assert step.table.state(seat=state["seat"]) == friends.restore(step.stored).state(
            seat=state["seat"]
        )


def a_move_lands_during_a_read(app: FastAPI) -> None:
    """A person's move commits between the statements of another request's read of the
    table (after its first): that read must be one moment of the table, before the move
    or after it, never its row from before with its hands from after (a page that
    showed a move played but the clock and seats of before it)."""
    host = seated(app, "Early Reader")
    code = host.post(API, json={"rules": {"players": 3}, "seconds": 30}).json()["code"]
    sit(seated(app, "Late Reader"), code)
    assert host.post(f"{API}/{code}/start").status_code == 200
    friends = app.state.friends
    before = friends.load(code)
    table = friends.restore(before)
    seat = table.game.turn
    assert seat is not None
    assert before.seats[seat].player_id is not None
    action = friends.state(before, seat, table)["view"]["legal"][0]
    reader, armed = threading.get_ident(), [True]

    def move_now(*_: Any) -> None:
        if armed[0] and threading.get_ident() == reader:
            armed[0] = False
            friends.act(code, before.seats[seat].player_id, action, before.version)

    engine = app.state.engine
    event.listen(engine, "after_cursor_execute", move_now)
    try:
        seen = friends.load(code)
    finally:
        event.remove(engine, "after_cursor_execute", move_now)
    assert not armed[0], "the move was made during the read"
    assert friends.load(code).version > before.version
    assert seen.version in (before.version, friends.load(code).version)
    restored = friends.restore(seen)
    assert restored is not None
    assert restored.version == seen.version
    assert seen.turn_seat == restored.game.turn


def test_a_read_is_one_moment_of_the_table_though_a_move_lands_during_it(app: FastAPI) -> None:
    a_move_lands_during_a_read(app)
