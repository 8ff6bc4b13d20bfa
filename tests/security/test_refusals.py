"""HEAD wherever GET is, reads that make no identity, and refusals a person can read:
a refused page is an HTML page in the reader's language that says what happened and
when to try again; the API keeps its JSON (``server/head.py``, ``server/errors.py``,
``server/identity.py``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI, HTTPException
from sqlalchemy import func, select
from starlette.routing import Mount

from security.helpers import UNLIMITED, MakeApp
from server.helpers import TestClient, identify, make_client, new_game, play_hand
from server.test_i18n import SAME_IN, english_msgids, visible
from sheepshead.server import guide
from sheepshead.store.models import Player

TOKEN = "refusals-test-token"
#: Headers that may differ between two answers to the same request.
PER_ANSWER = {"date", "set-cookie"}
#: The query a route needs to answer 200.
QUERIES = {
    "/api/v1/verify": "?seed=00ff&players=5",
    "/api/v1/daily/verify": f"?date=2020-01-01&seed={'00' * 32}",
}


def players(app: FastAPI) -> int:
    with app.state.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(Player)).scalar_one())


def routes(items: Iterable[Any]) -> Iterator[Any]:
    """Every route of the app, those of included routers too."""
    for route in items:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from routes(included.routes)
        else:
            yield route


def get_paths(app: FastAPI) -> list[str]:
    """The path of every route that answers GET (the static files' mount too)."""
    paths = [
        route.path
        for route in routes(app.routes)
        if "GET" in (getattr(route, "methods", None) or ())
    ]
    paths += [f"{r.path}/{{path}}" for r in routes(app.routes) if isinstance(r, Mount)]
    return paths


def played_daily_deal(client: TestClient) -> str:
    """Today's attempt with its first deal played out; its id."""
    reply = client.post("/api/v1/daily/attempts")
    assert reply.status_code == 201, reply.text
    state = reply.json()["state"]
    while not state["hand_over"]:
        reply = client.post(
            f"/api/v1/daily/attempts/{state['id']}/actions",
            json={"action": state["view"]["legal"][0], "version": state["version"]},
        )
        assert reply.status_code == 200, reply.text
        state = reply.json()["state"]
    return str(state["id"])


@pytest.fixture
def app(make_app: MakeApp) -> FastAPI:
    return make_app(metrics_token=TOKEN, **UNLIMITED)


#: GET routes whose answer to this test's player is a refusal, and which: a record of
#: today's daily deal waits for the day's end; no day in the archive was played; the
#: friends' table has not started, so it has no finished hand; the player sat at no
#: friends' table, so their history has none of its hands.
REFUSED = {
    "/api/v1/daily/attempts/{attempt_id}/deals/{number}/record": 409,
    "/api/v1/daily/attempts/{attempt_id}/deals/{number}/review": 409,
    "/api/v1/daily/days/{day}/reviews": 404,
    "/daily/{day}/deals/{number}/review": 404,
    "/api/v1/daily/days/{day}": 404,
    "/daily/{day}": 404,
    "/api/v1/tables/{code}/hands/{number}/record": 404,
    "/api/v1/me/tables/{table_id}/hands/{number}/record": 404,
}


def test_head_answers_every_get_route_as_get_does_without_a_body(app: FastAPI) -> None:
    client = make_client(app)
    client.headers["authorization"] = f"Bearer {TOKEN}"
    state = new_game(client, level="beginner")["state"]
    play_hand(client, state)
    attempt = played_daily_deal(client)
    static = re.search(r"/static/([^\"]+\.css)", client.get("/play").text)
    assert static is not None
    table = client.post("/api/v1/tables", json={"name": "Heady"}).json()["code"]
    # Each path parameter as a player meets it: their game, their attempt, a page.
    values = {
        "game_id": state["id"],
        "number": "1",
        "attempt_id": attempt,
        "anchor": "called-ace",
        "name": sorted(guide.EXAMPLES)[0],
        "slug": "scoring",
        "path": static.group(1),
        # A day nobody played: the archive says so (404), to GET and HEAD alike.
        "day": "2020-01-01",
        "lang": "de",
        "code": table,
        "table_id": "e" * 32,
    }
    assert client.put("/api/v1/daily/me/name", json={"name": "Heady"}).status_code == 200
    club = client.post("/api/v1/clubs", json={"name": "Head Club"}).json()
    values |= {"club_id": club["id"], "invitation": club["invitation"].rsplit("/", 1)[1]}
    paths = get_paths(app)
    assert len(paths) >= 30, paths
    for template in paths:
        names = re.findall(r"{(\w+)}", template)
        assert set(names) <= set(values), f"{template}: a path parameter this test cannot fill"
        path = template
        for name in names:
            path = path.replace(f"{{{name}}}", values[name])
        path += QUERIES.get(template, "")
        got, head = client.get(path), client.head(path)
        assert got.status_code == REFUSED.get(template, got.status_code), path
        assert got.status_code < 400 or template in REFUSED, (path, got.status_code)
        assert head.status_code == got.status_code, path
        assert head.content == b"", path
        same = {k: v for k, v in got.headers.items() if k not in PER_ANSWER}
        shown = {k: v for k, v in head.headers.items() if k not in PER_ANSWER}
        if path == "/metrics":
            # Its counters moved between the two scrapes: so did its length.
            same.pop("content-length")
            assert shown.pop("content-length").isdigit()
        assert shown == same, path


def test_no_read_by_get_or_head_makes_an_identity(make_app: MakeApp) -> None:
    app = make_app(metrics_token=TOKEN)
    before = players(app)
    values = {"game_id": "a" * 32, "number": "1", "attempt_id": "b" * 32, "anchor": "called-ace"}
    values |= {"name": sorted(guide.EXAMPLES)[0], "slug": "scoring", "path": "img/icon.svg"}
    values |= {
        "day": "2020-01-01",
        "lang": "en",
        "club_id": "c" * 32,
        "invitation": "d" * 22,
        "code": "A" * 16,
        "table_id": "e" * 32,
    }
    for template in get_paths(app):
        path = re.sub(r"{(\w+)}", lambda m: values[m.group(1)], template)
        for method in ("GET", "HEAD"):
            response = make_client(app).request(method, path)
            assert response.status_code < 500, (method, path, response.status_code)
            assert "set-cookie" not in response.headers, (method, path)
    assert players(app) == before == 0


def test_a_visitor_without_an_identity_deletes_nothing_and_gets_none(app: FastAPI) -> None:
    response = make_client(app).delete("/api/v1/daily/me")
    assert response.status_code == 204
    assert "Max-Age=0" in response.headers["set-cookie"]
    assert players(app) == 0


def refused_at(app: FastAPI, status: int, retry_after: str | None = None, under: str = "") -> str:
    """A route (a page's, unless ``under`` the API's) that is refused with ``status``
    (a rate limit, say); its path."""
    path = f"{under}/refused-{status}-{retry_after or 0}"

    def refuse() -> None:
        headers = None if retry_after is None else {"retry-after": retry_after}
        raise HTTPException(status, "refused for the test", headers=headers)

    app.add_api_route(path, refuse, methods=["GET"])
    return path


def test_a_page_answering_429_is_html_in_the_readers_language(app: FastAPI) -> None:
    path = refused_at(app, 429, retry_after="90")
    client = make_client(app)
    page = client.get(path, headers={"accept-language": "de-DE,de;q=0.9,en;q=0.5"})
    assert page.status_code == 429
    assert page.headers["content-type"].startswith("text/html")
    assert page.headers["retry-after"] == "90"
    assert page.headers["content-language"] == "de"
    assert '<html lang="de">' in page.text
    assert "<h1>Zu viele Anfragen</h1>" in page.text
    assert "Bitte versuche es in 90 Sekunden noch einmal." in page.text
    assert "refused for the test" not in page.text
    # A long wait is said in minutes; in Bengali with its own digits.
    later = refused_at(app, 429, retry_after="3600")
    bengali = client.get(later, headers={"accept-language": "bn"}).text
    assert "অনুগ্রহ করে ৬০ মিনিট পরে আবার চেষ্টা করুন।" in bengali
    # The API, refused the same way, keeps its JSON for the program that called it.
    api_path = refused_at(app, 429, retry_after="90", under="/api/v1")
    reply = client.get(api_path, headers={"accept-language": "de"})
    assert reply.status_code == 429
    assert reply.json() == {"detail": "refused for the test"}
    assert reply.headers["retry-after"] == "90"


def refusals(app: FastAPI) -> dict[str, tuple[int, str, str, dict[str, str]]]:
    """Each way a page can be refused: (status, method, path, headers)."""
    return {
        "unknown page": (404, "GET", "/no-such-page", {}),
        "unknown guide page": (404, "GET", "/guide/no-such-page", {}),
        "not a form": (405, "POST", "/privacy", {}),
        "another site": (403, "POST", "/play", {"origin": "https://evil.example"}),
        "too large": (413, "POST", "/play", {"content-length": str(10**6)}),
        "a bad value": (422, "GET", "/verify?players=9", {}),
        "a rate limit": (429, "GET", refused_at(app, 429, "5"), {}),
        "a bug": (500, "GET", refused_at(app, 500), {}),
    }


@pytest.mark.parametrize("lang", ["de", "bn"])
def test_every_refused_page_is_in_the_readers_language_and_says_what_next(
    app: FastAPI, lang: str
) -> None:
    english = english_msgids() - {" ".join(s.split()) for s in SAME_IN.get(lang, set())}
    client = TestClient(app, raise_server_exceptions=False)
    for what, (status, method, path, headers) in refusals(app).items():
        response = client.request(method, path, headers={"accept-language": lang, **headers})
        assert response.status_code == status, what
        assert response.headers["content-type"].startswith("text/html"), what
        assert f'<html lang="{lang}">' in response.text, what
        assert 'id="error-when"' in response.text, what
        left = [t for t in visible(response.text) if t in english and t != "Sheepshead"]
        assert not left, (what, left)


def test_the_api_and_the_operators_endpoints_keep_their_json(app: FastAPI) -> None:
    client = make_client(app)
    de = {"accept-language": "de"}
    assert client.get("/api/v1/nope", headers=de).json() == {"detail": "Not Found"}
    reply = client.get("/api/v1/verify?seed=zz", headers=de)
    assert reply.status_code == 422
    assert "hexadecimal" in reply.json()["detail"]
    forged = client.post("/api/v1/games", json={}, headers={"origin": "https://evil.example"})
    assert forged.status_code == 403
    assert "another site" in forged.json()["detail"]
    assert client.get("/metrics", headers=de).json()["detail"].startswith("metrics:")
    identify(app, client)
    assert client.get("/api/v1/games/current").json() == {"detail": "you have no game yet"}
