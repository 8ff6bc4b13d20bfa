"""Every refusal a friends' table's API can give (``server/friends*.py``, the table's
conflicts in ``table.py``) has a phrase in ``phrases.py``, translated in every
language, and the page (``words.js``, run in Node) says each one the server gives today
from its code and params: in English the server's own sentence, in German and Bengali
no English left. The engine's refusals of a card are ``test_server_reasons.py``'s."""

from __future__ import annotations

import ast
from typing import Any

import pytest
from fastapi import FastAPI

from server.helpers import TestClient, identify, make_client
from server.test_i18n import SERVER, TRANSLATED, english_msgids
from server.test_server_reasons import read_in_browser_words
from sheepshead import phrases
from sheepshead.server import i18n

API = "/api/v1/tables"
#: Where the friends' API makes its refusals (``Refusal``, ``Refused``, ``TableConflict``).
SOURCES = [
    SERVER / "friends.py",
    SERVER / "friends_play.py",
    SERVER / "friends_hint.py",
    SERVER.parent / "table.py",
]
#: Refusals whose sentence carries the engine's or the rules' own English (a reason
#: the page cannot word): the page says a sentence of its own for them.
OWN_SENTENCE = {"bad-action"}


def emitted_codes() -> set[str]:
    """Every literal refusal code of the sources: the code argument of each call."""
    codes: set[str] = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            position = {"Refusal": 2, "Refused": 2, "TableConflict": 1}.get(node.func.id)
            if position is None or len(node.args) <= position:
                continue
            code = node.args[position]
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                codes.add(code.value)
    return codes


def test_the_sources_are_read() -> None:
    codes = emitted_codes()
    # Some of each file's, so that a change of the calls' shape fails here.
    assert {"hints-off", "not-seated", "table-full", "too-many-joins"} <= codes
    assert {"not-your-turn", "deal-next-hand", "hand-not-over"} <= codes


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_friends_refusal_has_a_phrase_in_every_language(lang: str) -> None:
    english = i18n.phrases("en")["refusals"]
    words = i18n.phrases(lang)["refusals"]
    for code in sorted(emitted_codes()):
        assert code in phrases.REFUSALS, f"{code}: no phrase"
        for variant in phrases.REFUSALS[code]:
            assert words[code][variant], (code, variant)
            assert words[code][variant] != english[code][variant], (lang, code, variant)


def person(app: FastAPI, name: str | None) -> TestClient:
    client = make_client(app)
    identify(app, client)
    if name is not None:
        assert client.put("/api/v1/daily/me/name", json={"name": name}).status_code == 200
    return client


def refused(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return {"detail": body["detail"], "code": body["code"], "params": body.get("params", {})}


@pytest.fixture
def bodies(app: FastAPI) -> list[dict[str, Any]]:
    """The refusals the friends' API gives today, one or more of each code."""
    host, guest, late = person(app, "Henrike"), person(app, "Gisela"), person(app, "Lotte")
    nameless, stranger = person(app, None), person(app, "Sigrun")
    code = host.post(API, json={"rules": {"players": 3}}).json()["code"]
    got = [
        refused(host.post(API, json={"rules": {"players": 9}}), 422),
        refused(host.post(API, json={"level": "godlike"}), 422),
        refused(host.post(API, json={"seconds": 20}), 422),
        refused(nameless.post(f"{API}/{code}/seats"), 422),
        refused(late.post(f"{API}/{code}/seats", json={"name": "<b>"}), 422),
        refused(host.get(f"{API}/{code[:-1]}{'A' if code[-1] != 'A' else 'B'}"), 404),
        refused(host.post(f"{API}/{code}/actions", json={"action": "pick", "version": 0}), 409),
        refused(host.delete(f"{API}/{code}/seats/2"), 404),
    ]
    assert guest.post(f"{API}/{code}/seats").status_code == 200
    got.append(refused(guest.post(f"{API}/{code}/start"), 403))
    assert late.post(f"{API}/{code}/seats").status_code == 200
    got.append(refused(stranger.post(f"{API}/{code}/seats"), 409))
    assert host.post(f"{API}/{code}/start").status_code == 200
    got += [
        refused(host.post(f"{API}/{code}/start"), 409),
        refused(guest.delete(f"{API}/{code}/seats/0"), 403),
        refused(host.delete(f"{API}/{code}/seats/1"), 409),
        refused(host.post(f"{API}/{code}/messages", json={"message": "hello"}), 409),
        refused(host.post(f"{API}/{code}/messages", json={"message": "boo"}), 422),
        refused(host.get(f"{API}/{code}/hands/1/record"), 404),
        refused(stranger.get(f"{API}/{code}/hands/1/record"), 403),
        refused(host.post(f"{API}/{code}/hint", json={"version": 1}), 403),
    ]
    people = {0: host, 1: guest, 2: late}
    states = {s: c.get(f"{API}/{code}").json() for s, c in people.items()}
    turn = next(s for s, state in states.items() if state["view"]["legal"])
    waiting = people[(turn + 1) % 3]
    version = states[turn]["version"]
    got += [
        refused(
            waiting.post(f"{API}/{code}/actions", json={"action": "pass", "version": version}), 403
        ),
        refused(waiting.post(f"{API}/{code}/next-hand", json={"version": version}), 409),
        refused(
            people[turn].post(f"{API}/{code}/actions", json={"action": "fly", "version": version}),
            422,
        ),
    ]
    return got


def test_the_page_says_every_friends_refusal_from_its_code(bodies: list[dict[str, Any]]) -> None:
    codes = {b["code"] for b in bodies}
    friends_own = emitted_codes() - {"too-many-joins", "deal-next-hand", "stale-version"}
    # Each code the friends' API makes itself is given here at least once (a name's
    # refusal comes with the name's own code).
    assert friends_own - {"name-refused"} <= codes | {"name-taken", "no-such-table"}
    assert "name-markup" in codes
    english = read_in_browser_words("en", bodies)["read"]
    for body, said in zip(bodies, english, strict=True):
        if body["code"] not in OWN_SENTENCE:
            # From the code and params alone, the page says what the server wrote.
            assert said["text"] == body["detail"], body
    msgids = set(english_msgids())
    for lang in TRANSLATED:
        texts = read_in_browser_words(lang, bodies)["read"]
        for body, said in zip(bodies, texts, strict=True):
            assert said["text"] != body["detail"], (lang, body)
            assert said["text"] not in msgids, (lang, body)
            if body["code"] == "not-your-turn":
                assert body["params"]["name"] in said["text"]


def test_a_friends_table_names_the_seat_to_act_as_it_names_it(
    bodies: list[dict[str, Any]],
) -> None:
    turn = next(b for b in bodies if b["code"] == "not-your-turn")
    assert turn["params"]["name"] in {"Henrike", "Gisela", "Lotte"}
    assert turn["detail"] == f"it is {turn['params']['name']}'s turn, not yours"
