"""Hostile input: oversized bodies, unknown fields, malformed action and card text,
display names with markup, control characters or enormous length. Each is refused
with a reason a person can read, and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from security.helpers import MakeApp
from security.routes import operations, send
from server.helpers import Json, TestClient, make_client, new_game

IDS = {
    "game_id": "0" * 32,
    "attempt_id": "0" * 32,
    "number": 1,
    "club_id": "0" * 32,
    "code": "A" * 16,
    "seat": 1,
}


def test_a_body_over_16_kib_is_refused_with_413_before_anything_happens(
    client: TestClient,
) -> None:
    padded = b'{"rules": {}, "level": "standard"' + b" " * 16 * 1024 + b"}"
    response = client.post(
        "/api/v1/games", content=padded, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert response.json() == {
        "detail": "the request body is larger than the 16384 bytes this server accepts"
    }
    assert client.get("/api/v1/games/current").status_code == 404  # no game was made
    # Just under the limit is read as usual.
    fits = b'{"rules": {}' + b" " * (16 * 1024 - 20) + b"}"
    assert len(fits) <= 16 * 1024
    assert (
        client.post(
            "/api/v1/games", content=fits, headers={"content-type": "application/json"}
        ).status_code
        == 201
    )


def test_a_body_sent_in_chunks_is_counted_as_it_comes(make_app: MakeApp) -> None:
    client = make_client(make_app(max_body_bytes=1000))

    def chunks() -> Iterator[bytes]:
        yield b'{"rules": {}, "level": "standard"'
        for _ in range(20):
            yield b" " * 100
        yield b"}"

    # A generator body goes out chunked, with no Content-Length to refuse it by.
    response = client.post(
        "/api/v1/games", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert "1000 bytes" in response.json()["detail"]
    assert client.get("/api/v1/games/current").status_code == 404


def test_every_body_refuses_fields_it_does_not_know(client: TestClient) -> None:
    client.get("/api/v1/daily/me")
    with_body = [op for op in operations(client) if op.body_schema is not None]
    assert len(with_body) >= 7
    for op in with_body:
        assert op.body_schema is not None
        assert op.body_schema.get("additionalProperties") is False, str(op)
        body = {**(op.body() or {}), "score": 99}
        response = send(client, op, op.url(**IDS), json=body)
        assert response.status_code == 422, (str(op), response.text)
        assert response.json() == {"detail": "score: Extra inputs are not permitted"}


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"rules": {"players": 5, "trump": "all"}}, "rules: unknown rules field: trump"),
        ({"rules": {"players": "5"}}, "rules: players must be 3, 4, 5 or 6, not '5'"),
        ({"rules": {"players": 10**30}}, "rules: players must be 3, 4, 5 or 6, not 1000000"),
        ({"rules": ["players"]}, "rules: Input should be a valid dictionary"),
        ({"level": "<script>"}, "level: no level '<script>'"),
        ({"level": "x" * 17}, "level: String should have at most 16 characters"),
    ],
)
def test_bad_rules_and_levels_are_refused(client: TestClient, body: Json, reason: str) -> None:
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 422
    assert response.json()["detail"].startswith(reason)


def test_json_nested_beyond_reason_is_refused_not_a_crash(client: TestClient) -> None:
    deep = b'{"rules": {"players": ' + b"[" * 5000 + b"]" * 5000 + b"}}"
    response = client.post(
        "/api/v1/games", content=deep, headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "There was an error parsing the body"}


ACTIONS = [
    ("play " + "QC " * 30, "action: String should have at most 64 characters"),
    ("", "action: String should have at least 1 character"),
    ("play ZZ", "cannot read the action 'play ZZ'"),
    ("play <img src=x onerror=alert(1)>", "cannot read the action"),
    ("play QC\x00", "cannot read the action"),
    ("play 11H", "cannot read the action"),
    ("bury QC QC", "cannot read the action"),
    ("pick\npick", "cannot read the action"),
    ("name 99999999999999999999", "seat 0 must pick or pass now, not name"),
    ("DROP TABLE games", "cannot read the action"),
]


def _refused_and_nothing_changed(client: TestClient, url: str, state: Json, body: Json) -> str:
    response = client.post(url, json=body)
    assert response.status_code == 422, (body, response.text)
    detail: str = response.json()["detail"]
    assert len(detail) < 300
    after = client.get(url.rsplit("/", 1)[0]).json()
    assert after["version"] == state["version"]
    assert after["view"] == state["view"]
    return detail


@pytest.mark.parametrize(("action", "reason"), ACTIONS)
def test_malformed_actions_are_refused_at_the_table(
    client: TestClient, action: str, reason: str
) -> None:
    state = new_game(client)["state"]
    url = f"/api/v1/games/{state['id']}/actions"
    detail = _refused_and_nothing_changed(
        client, url, state, {"action": action, "version": state["version"]}
    )
    assert detail.startswith(reason) or reason in detail, detail


def test_malformed_actions_are_refused_in_the_daily_game(client: TestClient) -> None:
    response = client.post("/api/v1/daily/attempts")
    assert response.status_code == 201
    state = response.json()["state"]
    url = f"/api/v1/daily/attempts/{state['id']}/actions"
    for action, reason in ACTIONS:
        detail = _refused_and_nothing_changed(
            client, url, state, {"action": action, "version": state["version"]}
        )
        assert reason in detail, detail


@pytest.mark.parametrize("version", [-1, 2**31, "1; drop table games", 1.5, None, [1], {"$gt": 0}])
def test_versions_that_are_not_small_whole_numbers_are_refused(
    client: TestClient, version: object
) -> None:
    state = new_game(client)["state"]
    url = f"/api/v1/games/{state['id']}/actions"
    body = {"action": state["view"]["legal"][0], "version": version}
    detail = _refused_and_nothing_changed(client, url, state, body)
    assert detail.startswith("version: "), detail


@pytest.mark.parametrize(
    "game_id",
    ["../../etc/passwd", "0" * 33, "A" * 32, "' or 1=1 --", "%00", "x" * 2000],
)
def test_game_ids_that_are_not_ids_are_simply_not_found(client: TestClient, game_id: str) -> None:
    for path in ("", "/hands/1/record"):
        response = client.get(f"/api/v1/games/{game_id}{path}")
        assert response.status_code == 404, (game_id, response.text)


NAMES = [
    ("<script>alert(1)</script>", "A name cannot contain markup: no <, > or &."),
    ("Ann&amp;Bob", "A name cannot contain markup: no <, > or &."),
    ("Ann\x00Lee", "A name cannot contain control or invisible characters (U+0000)."),
    ("Ann\nLee", "A name cannot contain control or invisible characters (U+000A)."),
    ("Ann\u202eeeL", "A name cannot contain control or invisible characters (U+202E"),
    ("Ann\u200bLee", "A name cannot contain control or invisible characters (U+200B"),
    ("A" * 25, "A name has at most 24 characters."),
    ("A" * 200, "A name has at most 24 characters."),
    ("A" * 201, "name: String should have at most 200 characters"),
    ("Z" + "\u0301" * 10 + "ack", "A letter cannot carry the same mark twice."),
    ("Z\u0300\u0301\u0302\u0303ack", "Too many accents or marks on one letter."),
    ("Robert\u3164", "A name cannot contain control or invisible characters (U+1160"),
    ("javascript:alert(1)", 'not ":" (colon)'),
    ("admin", "That name would pass for the site or its staff."),
    ("Ann Bot", "That name would pass for a computer player."),
]


@pytest.mark.parametrize(("name", "reason"), NAMES)
def test_hostile_display_names_are_refused_with_the_reason(
    client: TestClient, name: str, reason: str
) -> None:
    response = client.put("/api/v1/daily/me/name", json={"name": name})
    assert response.status_code == 422, response.text
    assert reason in response.json()["detail"]
    assert client.get("/api/v1/daily/me").json()["name"] is None


def test_an_enormous_display_name_never_reaches_the_checks(client: TestClient) -> None:
    response = client.put("/api/v1/daily/me/name", json={"name": "A" * 100_000})
    assert response.status_code == 413


def test_an_accepted_name_is_shown_as_text(client: TestClient) -> None:
    response = client.put("/api/v1/daily/me/name", json={"name": "  O\u2019Brien  "})
    assert response.status_code == 200
    assert response.json() == {"name": "O'Brien"}
    page = client.get("/daily").text
    assert "O&#39;Brien" in page
    assert "O'Brien" not in page


@pytest.mark.parametrize("code", ["<b>", "A" * 65, "\x00" * 12, "ABCD-EFGH-JKMN-" * 4])
def test_malformed_recovery_codes_are_refused(client: TestClient, code: str) -> None:
    response = client.post("/api/v1/daily/recover", json={"code": code})
    assert response.status_code in (404, 422), response.text
    assert "set-cookie" not in response.headers  # no identity was handed over


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/v1/verify?seed=zz", 422),
        ("/api/v1/verify?seed=" + "a" * 257, 422),
        ("/api/v1/verify?seed=00&players=7", 422),
        ("/api/v1/daily/verify?date=2025-01-01&seed=%3Cscript%3E", 422),
        ("/api/v1/daily/verify?date=2025-13-45&seed=00", 422),
        ("/api/v1/daily/board?date=tomorrow", 422),
        ("/api/v1/daily/board?date=9999-12-31", 404),
    ],
)
def test_malformed_queries_are_refused(client: TestClient, url: str, status: int) -> None:
    response = client.get(url)
    assert response.status_code == status, response.text
    assert isinstance(response.json()["detail"], str)
