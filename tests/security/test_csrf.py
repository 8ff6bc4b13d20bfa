"""Cross-site request forgery: a page on another site cannot make a visitor's browser
change anything here (docs/api.md, Security).

Browsers say where a request comes from (``Sec-Fetch-Site``, and ``Origin`` on every
POST, PUT, PATCH and DELETE); a change from anywhere but the site's own pages is
refused with 403 before any route runs.
"""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from starlette.datastructures import Headers

from security.helpers import MakeApp
from security.routes import operations, send
from server.helpers import TestClient, make_client, new_game
from sheepshead.server.identity import COOKIE
from sheepshead.server.security import cross_site

EVIL = "https://evil.example"
#: What a browser sends with a forged POST from a page on another site.
FORGED = {"sec-fetch-site": "cross-site", "origin": EVIL}
#: What it sends with one from the site's own page (http://localhost in these tests).
OWN = {"sec-fetch-site": "same-origin", "origin": "http://localhost"}
IDS = {
    "game_id": "0" * 32,
    "attempt_id": "0" * 32,
    "number": 1,
    "day": "2025-06-01",
    "code": "A" * 16,
    "seat": 1,
}
IDS |= {"club_id": "0" * 32, "member": "0" * 32}


def test_a_forged_action_is_refused_with_a_reason_and_changes_nothing(client: TestClient) -> None:
    state = new_game(client)["state"]
    url = f"/api/v1/games/{state['id']}/actions"
    body = {"action": state["view"]["legal"][0], "version": state["version"]}
    refused = client.post(url, json=body, headers=FORGED)
    assert refused.status_code == 403
    assert refused.json() == {
        "detail": "refused: this request came from another site (Sec-Fetch-Site: cross-site); "
        "changes are accepted from Sheepshead's own pages only"
    }
    assert client.get(f"/api/v1/games/{state['id']}").json() == state
    # The same action from the site's own page goes through.
    assert client.post(url, json=body, headers=OWN).status_code == 200


def test_every_change_the_api_offers_is_refused_from_another_site(client: TestClient) -> None:
    client.get("/api/v1/daily/me")  # an identity, so that nothing is refused for want of one
    unsafe = [op for op in operations(client) if op.unsafe]
    assert len(unsafe) >= 9, [str(op) for op in unsafe]
    for op in unsafe:
        for headers in (
            FORGED,
            {"sec-fetch-site": "same-site", "origin": "https://other.localhost"},
            {"origin": EVIL},  # a browser without Fetch Metadata
            {"origin": "null"},  # a sandboxed frame, a data: URL
        ):
            response = send(client, op, op.url(**IDS), headers=headers)
            assert response.status_code == 403, (str(op), headers, response.text)
            assert "another site" in response.json()["detail"]


def test_a_forged_request_does_not_create_an_identity(app: FastAPI) -> None:
    visitor = make_client(app)
    response = visitor.post("/api/v1/games", json={}, headers=FORGED)
    assert response.status_code == 403
    assert "set-cookie" not in response.headers
    assert COOKIE not in visitor.cookies


def test_links_and_reads_from_other_sites_still_work(client: TestClient) -> None:
    for url in ("/", "/play", "/api/v1/daily/today"):
        response = client.get(url, headers={"sec-fetch-site": "cross-site", "origin": EVIL})
        assert response.status_code == 200, url


def test_clients_that_are_not_browsers_need_nothing_more(client: TestClient) -> None:
    # No Origin and no Sec-Fetch-Site: not a browser, so not a page tricking one.
    assert client.post("/api/v1/games", json={}).status_code == 201


def test_a_trusted_origin_may_send_changes(make_app: MakeApp) -> None:
    app = make_app(trusted_origins=("https://sheepshead.example",))
    client = make_client(app)
    trusted = {"sec-fetch-site": "cross-site", "origin": "https://sheepshead.example"}
    assert client.post("/api/v1/games", json={}, headers=trusted).status_code == 201
    assert client.post("/api/v1/games", json={}, headers=FORGED).status_code == 403


@pytest.mark.parametrize(
    ("method", "headers", "refused"),
    [
        ("POST", {"sec-fetch-site": "same-origin"}, False),
        ("POST", {"sec-fetch-site": "none"}, False),  # typed by the user, not by a page
        ("POST", {"sec-fetch-site": "same-site", "host": "a.example"}, True),
        ("POST", {"sec-fetch-site": "cross-site", "origin": "https://a.example"}, True),
        # Same host, but the browser says cross-site (another scheme or port): refused.
        (
            "POST",
            {"sec-fetch-site": "cross-site", "origin": "http://a.example", "host": "a.example"},
            True,
        ),
        ("DELETE", {"origin": "https://a.example", "host": "a.example"}, False),
        ("PUT", {"origin": "https://A.example:8443", "host": "a.example:8443"}, False),
        ("PATCH", {"origin": "https://a.example:8443", "host": "a.example"}, True),
        ("POST", {"origin": "null", "host": "a.example"}, True),
        ("POST", {"host": "a.example"}, False),
        ("GET", {"sec-fetch-site": "cross-site", "origin": "https://b.example"}, False),
        ("OPTIONS", {"sec-fetch-site": "cross-site"}, False),
    ],
)
def test_the_rule(method: str, headers: dict[str, str], refused: bool) -> None:
    assert (cross_site(method, Headers(headers)) is not None) is refused
