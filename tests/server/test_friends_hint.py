"""The coach's hint at friends' tables: only where the host allows it, only for your
own seat on your turn, counted per seat and shown to everyone once the hand is over;
and the coach's controls only on the pages that offer hints."""

from __future__ import annotations

from fastapi import FastAPI

from server.helpers import Json, TestClient, make_client
from server.test_friends import open_table, play_out_hand, seated, sit, whose_turn

API = "/api/v1/tables"


def started(app: FastAPI, hints: bool, n: int = 1) -> tuple[str, dict[int, TestClient]]:
    """A three-handed table of two people and a computer player, dealt (``n``: the
    people's names, one table's apart from another's)."""
    host = seated(app, f"Hostess{n}")
    code = open_table(host, rules={"players": 3}, hints=hints)["code"]
    clients = {0: host}
    guest = seated(app, f"Guest{n}")
    clients[sit(guest, code)] = guest
    assert host.post(f"{API}/{code}/start").status_code == 200
    return code, clients


def hint(client: TestClient, code: str, version: int) -> tuple[int, Json]:
    reply = client.post(f"{API}/{code}/hint", json={"version": version})
    body: Json = reply.json()
    return reply.status_code, body


def test_a_hint_is_the_seats_own_counted_and_shown_to_everyone_after_the_hand(
    app: FastAPI,
) -> None:
    code, clients = started(app, hints=True)
    found = whose_turn(clients, code)
    assert found is not None
    asker, state = found
    seat = state["seat"]
    other = next(c for s, c in clients.items() if s != seat)
    version = state["version"]
    # Not your turn, not seated, a stale version: refused with a code, nothing counted.
    status, body = hint(other, code, version)
    assert (status, body["code"]) == (403, "not-your-turn")
    visitor = seated(app, "Visitor")
    status, body = hint(visitor, code, version)
    assert (status, body["code"]) == (403, "not-seated")
    status, body = hint(asker, code, version + 1)
    assert (status, body["code"]) == (409, "stale-version")
    # Your turn: the expert's choice among your own legal actions, with its reason.
    status, body = hint(asker, code, version)
    assert status == 200, body
    assert body["action"] in state["view"]["legal"]
    assert body["hand"] == 1
    assert body["hints"] == 1
    assert body["reason"] is None or body["reason"]["text"]
    status, body = hint(asker, code, version)
    assert body["hints"] == 2
    # During the hand nobody is told (no signal); the table did not move.
    during = other.get(f"{API}/{code}").json()
    assert during["hints_used"] == {}
    assert during["version"] == version
    over = play_out_hand(clients, code)
    expected = [0, 0, 0]
    expected[seat] = 2
    for client in clients.values():
        assert client.get(f"{API}/{code}").json()["hints_used"] == {"1": expected}
    assert over["hand_over"]
    # Between hands there is no decision to hint at.
    status, body = hint(asker, code, over["version"])
    assert (status, body["code"]) == (403, "not-your-turn")


def test_a_table_whose_host_allows_no_hints_refuses_them_with_a_code(app: FastAPI) -> None:
    code, clients = started(app, hints=False)
    found = whose_turn(clients, code)
    assert found is not None
    asker, state = found
    status, body = hint(asker, code, state["version"])
    assert (status, body["code"]) == (403, "hints-off")
    assert asker.get(f"{API}/{code}").json()["hints_used"] == {}


def test_the_coachs_controls_are_on_the_pages_that_offer_hints_only(app: FastAPI) -> None:
    on, _ = started(app, hints=True)
    off, _ = started(app, hints=False, n=2)
    visitor = make_client(app)
    pages = {
        "/play": True,
        f"/friends/{on}": True,
        f"/friends/{off}": False,
        "/friends": False,
        "/daily": False,
    }
    for path, offered in pages.items():
        html = visitor.get(path).text
        assert ('id="coach-hint-ask"' in html) is offered, path
        assert ('id="coach-hint"' in html) is offered, path
    play = visitor.get("/play").text
    assert "/js/coach.js" in play
    assert 'id="summary-coach"' in play
    at_friends = visitor.get(f"/friends/{on}").text
    assert "/js/friends_hint.js" in at_friends
    assert "/js/coach.js" not in at_friends
    assert 'id="summary-coach"' not in at_friends  # reviews serve free play's games
