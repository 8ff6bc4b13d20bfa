"""The identity cookie, the pages, static files and the verify endpoint."""

from __future__ import annotations

import html
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from server.helpers import TestClient, make_client, new_game
from server.test_i18n import SITE_PAGES
from sheepshead.deal import deal_cards, seed_commitment
from sheepshead.server import Settings, create_app, i18n
from sheepshead.server.identity import COOKIE
from sheepshead.server.settings import Rate
from sheepshead.store.models import Player

COOKIE_RE = re.compile(rf"{COOKIE}=([0-9a-f]{{32}}); Max-Age=\d+; Path=/; HttpOnly; SameSite=Lax")


def identity_cookie(response_headers: list[str]) -> str:
    [header] = [h for h in response_headers if h.startswith(COOKIE + "=")]
    return header


def test_reading_makes_no_identity_and_the_first_game_makes_one_once(client: TestClient) -> None:
    for path in ("/", "/play", "/daily", "/api/v1/daily/today", "/api/v1/games/current"):
        assert "set-cookie" not in client.get(path).headers, path
    assert client.get("/api/v1/games/current").json() == {"detail": "you have no game yet"}
    first = client.post("/api/v1/games", json={})
    assert first.status_code == 201
    header = identity_cookie(first.headers.get_list("set-cookie"))
    assert COOKIE_RE.fullmatch(header), header  # local development over http: not Secure
    # The identity sticks: no new cookie while the old one is sent back.
    again = client.get("/play")
    assert again.status_code == 200
    assert "set-cookie" not in again.headers
    assert "set-cookie" not in client.post("/api/v1/games", json={}).headers
    assert client.get("/api/v1/games/current").status_code == 200


def test_an_unknown_or_forged_identity_is_replaced_by_the_first_change(app: FastAPI) -> None:
    for forged in ("0" * 32, "not-an-id", "'; drop table players; --"):
        client = make_client(app)
        client.cookies.set(COOKIE, forged)
        read = client.get("/api/v1/games/current")
        assert read.status_code == 404
        assert "set-cookie" not in read.headers
        response = client.post("/api/v1/games", json={})
        assert response.status_code == 201
        header = identity_cookie(response.headers.get_list("set-cookie"))
        assert forged not in header


def test_a_first_change_that_ends_in_an_error_keeps_its_identity(client: TestClient) -> None:
    response = client.post("/api/v1/games", json={"rules": {"players": 9}})
    assert response.status_code == 422
    assert COOKIE_RE.fullmatch(identity_cookie(response.headers.get_list("set-cookie")))


@pytest.mark.parametrize(
    ("dev", "base_url"),
    [
        (False, "http://localhost"),
        (False, "https://sheepshead.example"),
        (True, "https://localhost"),
        (True, "http://sheepshead.example"),
        (True, "http://192.168.1.5:8000"),
    ],
)
def test_the_cookie_is_secure_except_on_local_http_in_development(
    tmp_path: Path, dev: bool, base_url: str
) -> None:
    app = create_app(Settings(data_dir=tmp_path, dev=dev))
    response = make_client(app, base_url).post("/api/v1/games", json={})
    header = identity_cookie(response.headers.get_list("set-cookie"))
    assert header.endswith("; Secure")
    assert "HttpOnly" in header
    assert "SameSite=Lax" in header
    app.state.engine.dispose()


def test_the_pages_render(client: TestClient) -> None:
    home = client.get("/")
    assert home.headers["content-type"].startswith("text/html")
    assert 'href="/play"' in home.text
    table = client.get("/play")
    assert table.status_code == 200
    assert "<html" in table.text
    # Static links carry the build, so they can be cached for a year.
    assert re.search(r"/static/v-[0-9a-f]{12}/", table.text)
    for response in (home, table):
        assert response.headers["x-content-type-options"] == "nosniff"
        csp = response.headers["content-security-policy"]
        assert "script-src 'self';" in csp
        assert "unsafe-inline" not in csp
    assert "content-security-policy" not in client.get("/api/v1/docs").headers


def test_the_interactive_api_docs_are_for_development_only(tmp_path: Path) -> None:
    # Swagger UI loads its script from a CDN: in production no page calls a third party.
    app = create_app(Settings(data_dir=tmp_path))
    try:
        client = make_client(app)
        assert client.get("/api/v1/docs").status_code == 404
        assert client.get("/api/v1/openapi.json").status_code == 200
    finally:
        app.state.engine.dispose()


def current_nav(html: str) -> list[str]:
    """The site navigation's links marked as the current page."""
    nav = html[html.index('<nav aria-label="Site">') :]
    nav = nav[: nav.index("</nav>")]
    return re.findall(r'<a[^>]*href="([^"]+)"[^>]*aria-current="page"', nav)


@pytest.mark.parametrize(
    ("path", "current"),
    [("/play", "/play"), ("/daily", "/daily"), ("/leaderboard", "/leaderboard")],
)
def test_the_navigation_marks_the_page_shown(client: TestClient, path: str, current: str) -> None:
    # daily.html extends the table's page: its own mark must win over the table's.
    response = client.get(path)
    assert response.status_code == 200
    assert current_nav(response.text) == [current]


def players(app: FastAPI) -> int:
    with app.state.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(Player)).scalar_one())


def test_no_page_or_read_makes_an_identity_nor_meets_the_limit_on_new_ones(
    tmp_path: Path,
) -> None:
    # Before: every visit to / or /daily made a player, and past the limit on new ones a
    # school behind one address got 429 in JSON on the home page.
    app = create_app(Settings(data_dir=tmp_path, dev=True, rate_identities=Rate(2, 3600)))
    try:
        reads = (*SITE_PAGES, "/api/v1/daily/today", "/api/v1/daily/board", "/api/v1/daily/me")
        for path in ("/", "/daily", "/", "/play", *reads, "/api/v1/games/current"):
            response = make_client(app).get(path)
            assert response.status_code in (200, 404), (path, response.status_code)
            assert "set-cookie" not in response.headers, path
        assert players(app) == 0
        # The first changes make identities, as many as the limit lets through.
        assert [make_client(app).post("/api/v1/games", json={}).status_code for _ in range(3)] == [
            201,
            201,
            429,
        ]
        assert players(app) == 2
        # Past the limit, every page still opens for a new visitor.
        for path in reads:
            assert make_client(app).get(path).status_code == 200, path
        assert make_client(app).get("/api/v1/daily/me").json() == {
            "name": None,
            "hidden": False,
            "recovery_code": False,
        }
    finally:
        app.state.engine.dispose()


def test_the_leaderboard_links_today_and_yesterday(app: FastAPI, client: TestClient) -> None:
    at = datetime(2026, 3, 10, 15, 0, tzinfo=UTC)
    app.state.daily_clock = lambda: at
    today = client.get("/leaderboard").text
    # The daily game's day is the calendar date in Chicago: 10 March at 15:00 UTC.
    day = date(2026, 3, 10)
    yesterday = (day - timedelta(days=1)).isoformat()
    assert re.search(
        r'<a href="/leaderboard" id="board-today"[^>]*aria-current="true">Today</a>', today
    )
    link = re.search(rf'<a href="/leaderboard\?date={yesterday}" id="board-yesterday"[^>]*>', today)
    assert link
    assert "aria-current" not in link.group(0)
    assert f'id="board-date" name="date" value="{day.isoformat()}"' in today
    # Following the link opens yesterday's board, marked as shown.
    shown = client.get(f"/leaderboard?date={yesterday}").text
    assert f'id="board-date" name="date" value="{yesterday}"' in shown
    assert re.search(r'id="board-yesterday"[^>]*aria-current="true">Yesterday</a>', shown)
    assert not re.search(r'id="board-today"[^>]*aria-current', shown)
    # A day to come, or not a date, opens today's.
    for wrong in ("2026-03-11", "2026-3-x"):
        page = client.get(f"/leaderboard?date={wrong}").text
        assert f'id="board-date" name="date" value="{day.isoformat()}"' in page


def test_the_verify_page_re_derives_a_deal(client: TestClient) -> None:
    seed = bytes(range(32))
    page = client.get(f"/verify?seed={seed.hex()}&players=3")
    assert page.status_code == 200
    hands, blind = deal_cards(seed, 3, 10)
    assert seed_commitment(seed) in page.text
    for cards in (*hands, blind):
        assert " ".join(c.text for c in cards) in page.text
    bad = client.get("/verify?seed=xyz")
    assert bad.status_code == 200
    assert "hexadecimal" in bad.text
    assert client.get("/verify").status_code == 200
    # The seats have the names of the table, and no verdict without a fingerprint.
    assert ">You</span>" in page.text
    assert ">Ann</span>" in page.text
    assert ">Bob</span>" in page.text
    assert "Seat 1" not in page.text
    assert "verify-verdict" not in page.text


def test_the_verify_page_says_whether_the_fingerprint_shown_at_the_deal_matches(
    client: TestClient,
) -> None:
    seed = bytes(range(32))
    shown = seed_commitment(seed)
    page = client.get("/verify", params={"seed": seed.hex(), "players": 5, "sha256": shown})
    assert "It matches the fingerprint shown at the deal." in page.text
    other = client.get("/verify", params={"seed": seed.hex(), "sha256": "ab" * 32}).text
    assert "It does not match the fingerprint shown at the deal" in other
    assert "It matches" not in other
    german = client.get("/verify", params={"seed": seed.hex(), "sha256": shown, "lang": "de"}).text
    assert "Das passt zum Fingerabdruck" in german
    assert ">Du</span>" in german


def test_the_verify_endpoint(client: TestClient) -> None:
    seed = bytes.fromhex("00ff")
    response = client.get("/api/v1/verify", params={"seed": "00ff", "players": 4})
    assert response.status_code == 200
    hands, blind = deal_cards(seed, 4, 7)
    assert response.json() == {
        "seed_sha256": seed_commitment(seed),
        "players": 4,
        "hands": [[c.text for c in h] for h in hands],
        "blind": [c.text for c in blind],
    }
    for params, status in (
        ({"seed": "zz"}, 422),
        ({"seed": "abc"}, 422),
        ({"seed": "00ff", "players": 7}, 422),
        ({}, 422),
    ):
        response = client.get("/api/v1/verify", params=params)
        assert response.status_code == status, params
        assert isinstance(response.json()["detail"], str)


def test_static_files_are_cached_under_their_build_and_compressed(tmp_path: Path) -> None:
    static = tmp_path / "static"
    (static / "js").mkdir(parents=True)
    script = "export const answer = 42;\n" * 200
    (static / "js" / "app.js").write_text(script)
    app = create_app(Settings(data_dir=tmp_path, dev=True, static_dir=static))
    client = make_client(app)
    build = app.state.templates.env.globals["static_prefix"]
    assert re.fullmatch(r"/static/v-[0-9a-f]{12}", build)

    current = client.get(f"{build}/js/app.js", headers={"accept-encoding": "gzip"})
    assert current.status_code == 200
    assert current.text == script
    assert current.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert current.headers["content-encoding"] == "gzip"
    assert int(current.headers["content-length"]) < len(script) // 10
    # A path without the build (or with an old one) must be revalidated each time.
    for path in ("/static/js/app.js", "/static/v-000000000000/js/app.js"):
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["cache-control"] == "no-cache"
    assert client.get("/static/js/missing.js").status_code == 404
    assert client.get("/static/../settings.py").status_code == 404
    app.state.engine.dispose()


def test_api_replies_are_compressed(client: TestClient) -> None:
    state = new_game(client)["state"]
    raw = client.get(f"/api/v1/games/{state['id']}", headers={"accept-encoding": "gzip"})
    assert raw.headers["content-encoding"] == "gzip"
    assert raw.json() == state


def test_the_privacy_page_says_what_deleting_an_identity_leaves(client: TestClient) -> None:
    def said(page: str) -> str:
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())

    english = said(client.get("/privacy?lang=en").text)
    # The network record of a ranked attempt: a keyed hash, kept apart, outliving deletion
    # with the attempt's id, times and result (not "your attempts are gone"), 30 days.
    record = re.search(r"a network record for moderation: [^;]*;", english)
    assert record, english
    assert "keyed hash" in record[0]
    assert "never the address itself" in record[0]
    assert "It holds no name and not your identity." in record[0]
    assert "Deleting your identity does not delete it" in record[0]
    assert "that attempt's id, times and result" in record[0]
    assert "deleted after 30 days" in record[0]
    assert "are gone" not in english
    assert "stay when you delete it" in english
    # The server's logs: what a line holds, and that deletion does not remove it.
    logs = re.search(r"the server's logs: [^.]*\.[^.]*\.", english)
    assert logs, english
    assert "short code made from your identity" in logs[0]
    assert "deleting your identity does not remove these lines" in logs[0]
    stays = "The network record above (with your ranked attempts' ids, times and results, "
    assert stays + "for 30 days) and the log lines stay." in english
    # "No third party" holds for the page itself: nothing loaded from elsewhere.
    page = client.get("/privacy?lang=en")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert not re.search(r'\b(?:src|href)="(?:https?:)?//', page.text)

    # Bengali and German say the same in their own words, from the catalogs.
    messages = [
        m.id
        for m in i18n.catalog("bn")
        if isinstance(m.id, str)
        and m.id.startswith(("a network record for moderation", "the server's logs"))
    ]
    assert len(messages) == 2
    for lang in ("bn", "de"):
        translated = said(client.get(f"/privacy?lang={lang}").text)
        catalog = i18n.catalog(lang)
        for message in messages:
            assert message not in translated, lang
            words = catalog[message].string
            assert isinstance(words, str), lang
            assert words, lang
            assert words != message, lang
            assert " ".join(words.split()) in translated, (lang, words)
        assert "stay when you delete it" not in translated
        assert "the server's logs" not in translated
