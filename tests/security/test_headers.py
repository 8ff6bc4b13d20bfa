"""Response headers and cookies: no page may run inline or foreign script, be framed,
or have its cookies read by script or sent over plain http (outside development)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from fastapi import FastAPI

from security.helpers import MakeApp, fixed_clock
from server.helpers import TestClient, make_client, new_game
from sheepshead.server.identity import COOKIE
from sheepshead.server.settings import Rate

EVERYWHERE = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}


#: Script types that are data, which the browser never runs (so no CSP governs them).
DATA_BLOCKS = {"application/json", "application/ld+json"}


class _Page(HTMLParser):
    """The links of a page, and whatever in it would be inline script or style."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.inline: list[str] = []
        self._in_script = False
        self._in_data = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "a" and named.get("href"):
            self.links.append(str(named["href"]))
        if tag == "script" and named.get("type") in DATA_BLOCKS:
            # Data for a script, never run; its text must not be able to end the element.
            self._in_data = True
        elif tag == "script":
            self._in_script = True
            if not named.get("src"):
                self.inline.append("a <script> without src")
        if tag == "style":
            self.inline.append("a <style> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.inline.append(f"an event handler attribute {name}")
            if name == "style":
                self.inline.append(f"a style attribute on <{tag}>")
            if name in ("href", "src", "action") and (value or "").lower().startswith(
                "javascript:"
            ):
                self.inline.append(f"a javascript: URL in {name}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = self._in_data = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append("script text inside <script>")
        if self._in_data and "<" in data:
            self.inline.append("a data block holding an unescaped <")


def crawl(client: TestClient, start: str = "/", limit: int = 80) -> dict[str, object]:
    """Every page reachable from ``start`` by the site's own links (at most ``limit``)."""
    seen: dict[str, object] = {}
    queue = [start]
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen:
            continue
        response = client.get(url)
        seen[url] = response
        if not response.headers.get("content-type", "").startswith("text/html"):
            continue
        page = _Page()
        page.feed(response.text)
        for href in page.links:
            target = urlsplit(urljoin(url, href))
            if target.netloc or target.path.startswith(("/api/", "/static/")):
                continue
            local = target.path + (f"?{target.query}" if target.query else "")
            if local not in seen:
                queue.append(local)
    return seen


def test_no_page_holds_inline_script_or_style_and_each_has_the_policy(client: TestClient) -> None:
    pages = crawl(client)
    html = {
        url: r
        for url, r in pages.items()
        if getattr(r, "headers", {}).get("content-type", "").startswith("text/html")
    }
    assert {"/", "/play", "/daily", "/leaderboard", "/verify", "/privacy"} <= set(html)
    assert any(url.startswith("/guide") for url in html)
    for url, response in html.items():
        assert response.status_code == 200, url  # type: ignore[attr-defined]
        policy = response.headers["content-security-policy"]  # type: ignore[attr-defined]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["script-src"] == "'self'", url
        assert directives["style-src"] == "'self'", url
        assert directives["object-src"] == "'none'"
        assert directives["frame-ancestors"] == "'none'"
        assert "unsafe" not in policy
        page = _Page()
        page.feed(response.text)  # type: ignore[attr-defined]
        assert not page.inline, (url, page.inline)


def test_every_kind_of_response_carries_the_security_headers(make_app: MakeApp) -> None:
    app = make_app(rate_actions=Rate(1, 60), max_body_bytes=100)
    client = make_client(app)
    fixed_clock(app)
    state = new_game(client)["state"]
    static = re.search(r'src="(/static/[^"]+\.js)"', client.get("/play").text)
    assert static is not None
    responses = {
        "page": client.get("/"),
        "json": client.get(f"/api/v1/games/{state['id']}"),
        "static": client.get(static.group(1)),
        "404": client.get("/no/such/page"),
        "422": client.post("/api/v1/games", json={"colour": "red"}),
        "403": client.post("/api/v1/games", json={}, headers={"origin": "https://evil.example"}),
        "413": client.post("/api/v1/games", content=b"{" + b" " * 200 + b"}"),
        "429": client.post("/api/v1/games", json={}),
    }
    for kind, response in responses.items():
        expected = int(kind) if kind.isdigit() else 200
        assert response.status_code == expected, (kind, response.text)
        for name, value in EVERYWHERE.items():
            assert response.headers.get(name) == value, (kind, name)
        assert "camera=()" in response.headers["permissions-policy"]
        assert "strict-transport-security" not in response.headers  # development


def test_json_is_never_cached_or_run_as_a_document(client: TestClient) -> None:
    state = new_game(client)["state"]
    response = client.get(f"/api/v1/games/{state['id']}")
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["content-security-policy"].startswith("default-src 'none'")


def test_outside_development_every_response_demands_https(make_app: MakeApp) -> None:
    app = make_app(dev=False)
    client = make_client(app, "https://sheepshead.example")
    for url in ("/", "/api/v1/daily/today", "/no/such/page"):
        assert client.get(url).headers["strict-transport-security"] == "max-age=31536000"


def _cookies(response: object) -> list[str]:
    headers = response.headers.get_list("set-cookie")  # type: ignore[attr-defined]
    return [h for h in headers if h.startswith(f"{COOKIE}=")]


@pytest.mark.parametrize(
    ("dev", "base_url", "secure"),
    [
        (False, "https://sheepshead.example", True),
        # Plain http to localhost in development: the one case without Secure.
        (True, "http://localhost", False),
    ],
)
def test_every_identity_cookie_is_http_only_same_site_and_secure_outside_development(
    make_app: MakeApp, dev: bool, base_url: str, secure: bool
) -> None:
    app: FastAPI = make_app(dev=dev)
    ann, bob = make_client(app, base_url), make_client(app, base_url)
    first_game = ann.post("/api/v1/games", json={})
    code = ann.post("/api/v1/daily/me/recovery-code").json()["code"]
    recovered = bob.post("/api/v1/daily/recover", json={"code": code})
    deleted = ann.delete("/api/v1/daily/me")
    assert (first_game.status_code, recovered.status_code, deleted.status_code) == (201, 200, 204)
    for name, response in (("first", first_game), ("recover", recovered), ("delete", deleted)):
        [header] = _cookies(response)
        attributes = {a.strip().split("=")[0] for a in header.split(";")[1:]}
        assert {"HttpOnly", "SameSite", "Path"} <= attributes, (name, header)
        assert "SameSite=Lax" in header, name
        assert ("Secure" in attributes) is secure, (name, header)
