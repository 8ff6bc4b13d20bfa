"""Your games (/me): a friends' table's hands in the history of each person seated.

Three people at a five-seat table: every hand each of them held a seat in at its end
joins their history, with their seat's game points from the table's score sheet; it
counts in their figures only when they made every decision of their seat (not when
the computer stood in after their clock ran out, nor for a person who sat down after
the deal). Each line opens the hand's review (its seed) and its record, the record the
table gave that seat, even after the table has closed; nobody else gets it.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import update

from server.helpers import Json, TestClient, identify, make_client
from sheepshead.server import Settings, create_app
from sheepshead.store.friends import FriendTableRow, now

API = "/api/v1/tables"
ME = "/api/v1/me"


@pytest.fixture
def app(tmp_path: Path) -> Any:
    settings = Settings(
        data_dir=tmp_path,
        dev=True,
        rate_identities=None,
        rate_actions=None,
        rate_actions_per_address=None,
        rate_joins=None,
    )
    app = create_app(settings)
    yield app
    app.state.engine.dispose()


def person(app: FastAPI, name: str) -> TestClient:
    client = make_client(app)
    identify(app, client)
    assert client.put("/api/v1/daily/me/name", json={"name": name}).status_code == 200
    return client


def ok(response: Any, status: int = 200) -> Json:
    assert response.status_code == status, response.text
    body: Json = response.json()
    return body


def state_of(client: TestClient, code: str) -> Json:
    return ok(client.get(f"{API}/{code}"))


def play_to_end(people: dict[int, TestClient], code: str) -> Json:
    """The people play the first legal action on their turns until the hand is over."""
    while True:
        turn = next(
            (
                (c, s)
                for c in people.values()
                if (s := state_of(c, code)).get("view", {}).get("legal")
            ),
            None,
        )
        if turn is None:
            done = state_of(next(iter(people.values())), code)
            assert done["hand_over"]
            return done
        client, state = turn
        body = {"action": state["view"]["legal"][0], "version": state["version"]}
        ok(client.post(f"{API}/{code}/actions", json=body))


def run_out_clock(app: FastAPI, code: str) -> None:
    with app.state.engine.begin() as conn:
        conn.execute(
            update(FriendTableRow)
            .where(FriendTableRow.code == code)
            .values(deadline=now() - timedelta(seconds=1))
        )
    app.state.friends.tick(code)


def friends_hands(client: TestClient) -> list[Json]:
    page = ok(client.get(f"{ME}/hands", params={"kind": "friends"}))
    lines: list[Json] = page["hands"]
    assert page["total"] == len(lines)
    return lines


def test_each_seated_person_gets_the_hands_they_held_at_the_end(app: FastAPI) -> None:
    host, guest, late = person(app, "Hostess"), person(app, "Guest"), person(app, "Latecomer")
    code = ok(host.post(API, json={"rules": {"players": 5}}), 201)["code"]
    seat = ok(guest.post(f"{API}/{code}/seats"))["seat"]
    ok(host.post(f"{API}/{code}/start"))
    # Hand 1: both make every decision of their seats.
    first = play_to_end({0: host, seat: guest}, code)
    # Hand 2: the guest's clock runs out once (the computer stands in for them), and a
    # third person sits down after the deal.
    ok(host.post(f"{API}/{code}/next-hand", json={"version": first["version"]}))
    while state_of(host, code)["turn"] != seat:
        play_one = state_of(host, code)
        assert play_one["turn"] == 0, "only the host and the guest are people here"
        body = {"action": play_one["view"]["legal"][0], "version": play_one["version"]}
        ok(host.post(f"{API}/{code}/actions", json=body))
    run_out_clock(app, code)
    assert state_of(host, code)["covered"] == [seat]
    late_seat = ok(late.post(f"{API}/{code}/seats"))["seat"]
    second = play_to_end({0: host, late_seat: late}, code)
    sheet = second["score_sheet"]
    assert [line["hand"] for line in sheet] == [1, 2]

    mine = friends_hands(host)
    assert [(h["number"], h["counted"]) for h in mine] == [(2, True), (1, True)]
    assert [h["points"] for h in mine] == [sheet[1]["scores"][0], sheet[0]["scores"][0]]
    theirs = friends_hands(guest)
    assert [(h["number"], h["counted"]) for h in theirs] == [(2, False), (1, True)]
    assert [h["points"] for h in theirs] == [sheet[1]["scores"][seat], sheet[0]["scores"][seat]]
    assert [(h["number"], h["counted"]) for h in friends_hands(late)] == [(2, False)]
    # The figures count what each person played in full.
    assert ok(host.get(f"{ME}/stats"))["hands_played"] == 2
    figures = ok(guest.get(f"{ME}/stats"))
    assert figures["hands_played"] == 1
    assert figures["game_points"] == sheet[0]["scores"][seat]
    assert ok(late.get(f"{ME}/stats"))["hands_played"] == 0
    for line in (*mine, *theirs):
        assert line["kind"] == "friends"
        assert line["preset"] == "standard"
        assert line["players"] == 5

    # Review: the hand's seed, as the table's score sheet shows it once the hand is over.
    assert mine[0]["links"]["review"] == f"/verify?seed={sheet[1]['seed']}&players=5"
    # Record: the one the table gives its seats, also once the table has closed.
    url = theirs[1]["links"]["record"]
    table_record = ok(guest.get(f"{API}/{code}/hands/1/record"))
    for client in (host, late, guest):
        left = client.delete(f"{API}/{code}/seats/{state_of(client, code)['seat']}")
        assert left.status_code == 204, left.text
    assert guest.get(f"{API}/{code}").status_code == 404  # closed
    reply = guest.get(url)
    assert ok(reply) == table_record
    assert reply.headers["content-disposition"].startswith("attachment")
    # Nobody else: not a person who sat down later, not a stranger, not a visitor.
    stranger = person(app, "Stranger")
    for other in (late, stranger, make_client(app)):
        refused = other.get(url)
        assert refused.status_code == 404
        assert refused.json()["code"] == "no-such-hand"


def test_the_page_offers_friends_tables_and_marks_a_hand_not_counted(app: FastAPI) -> None:
    host, guest = person(app, "Hostess"), person(app, "Guest")
    code = ok(host.post(API, json={"rules": {"players": 3}}), 201)["code"]
    seat = ok(guest.post(f"{API}/{code}/seats"))["seat"]
    ok(host.post(f"{API}/{code}/start"))
    while state_of(host, code)["turn"] != seat:
        state = state_of(host, code)
        body = {"action": state["view"]["legal"][0], "version": state["version"]}
        ok(host.post(f"{API}/{code}/actions", json=body))
    run_out_clock(app, code)
    play_to_end({0: host}, code)
    for lang, kind, note in (
        ("en", "Friends' table", "Not in your figures"),
        ("de", "Tisch mit Freunden", "Nicht in deiner Statistik"),
        ("bn", "বন্ধুদের টেবিল", "আপনার পরিসংখ্যানে নেই"),
    ):
        page = guest.get("/me", params={"kind": "friends", "lang": lang})
        assert page.status_code == 200
        assert f'<option value="friends" selected>{kind}</option>' in page.text
        assert page.text.count(note) == 1
        assert note not in host.get("/me", params={"lang": lang}).text
