"""In a real browser (Debian's Chromium): a page on another site that submits a form
or fetches into the API is refused with the readable 403, and the visitor's game is
untouched; the site's own table keeps working (``tests/browser`` plays whole hands).

The browser runs in a thread of its own: Playwright's sync API cannot start a second
instance on a thread where ``tests/browser``'s may already be running.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import sync_playwright
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from browser.helpers import CHROMIUM, CHROMIUM_ARGS
from sheepshead.server import Settings, create_app

pytestmark = pytest.mark.browser


class Answers:
    """Wraps the app: what it answered to each POST, as the server saw it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.posts: list[tuple[str, int]] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def record(message: Message) -> None:
            if message["type"] == "http.response.start" and scope.get("method") == "POST":
                self.posts.append((scope["path"], message["status"]))
            await send(message)

        await self.app(scope, receive, record)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Answers]]:
    app = create_app(Settings(data_dir=tmp_path, dev=True))
    answers = Answers(app)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(answers, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the app did not start"
        assert thread.is_alive(), "the app did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}", answers
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()
    app.state.engine.dispose()


def _attack_page(target: str, game_id: str, version: int) -> bytes:
    # What a hostile page can do without CORS: a no-cors fetch, a text/plain form.
    action = json.dumps({"action": "pass", "version": version})
    return f"""<!doctype html><title>Win a prize</title>
<form id="f" method="post" enctype="text/plain" action="{target}/api/v1/games">
<input name='{{"rules": {{}}, "x": "' value='"}}'></form>
<script>
fetch("{target}/api/v1/games/{game_id}/actions", {{
  method: "POST", mode: "no-cors", credentials: "include",
  headers: {{"Content-Type": "text/plain"}}, body: {json.dumps(action)}
}}).finally(() => document.getElementById("f").submit());
</script>""".encode()


def _serve(page: bytes) -> HTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def _visit_then_get_attacked(target: str) -> dict[str, Any]:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(base_url=target)
        context.set_default_timeout(15_000)
        page = context.new_page()
        page.goto("/play")
        with page.expect_response(lambda r: r.url.endswith("/api/v1/games")):
            page.locator('#actions [data-ui="deal"]').click()
        before = context.request.get("/api/v1/games/current").json()
        # Another site on this machine, really served: http://localhost:<other port> is
        # not the same site as http://127.0.0.1:<port>, and being on the loopback too,
        # Chromium's local network rules let its requests reach the server.
        evil = _serve(_attack_page(target, before["id"], before["version"]))
        try:
            page.goto(f"http://localhost:{evil.server_address[1]}/prize")
            page.wait_for_url(f"{target}/api/v1/games")
            shown = json.loads(page.inner_text("body"))
        finally:
            evil.shutdown()
            evil.server_close()
        after = context.request.get("/api/v1/games/current").json()
        browser.close()
    return {"before": before, "after": after, "shown": shown}


def test_another_sites_page_cannot_change_a_visitors_game(site: tuple[str, Answers]) -> None:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: `make browser` installs Debian's chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    target, answers = site
    with ThreadPoolExecutor(1) as pool:
        outcome = pool.submit(_visit_then_get_attacked, target).result(timeout=120)
    game_id = outcome["before"]["id"]
    assert answers.posts == [
        ("/api/v1/games", 201),  # the table, from the site's own page
        (f"/api/v1/games/{game_id}/actions", 403),  # the other site's fetch
        ("/api/v1/games", 403),  # and its form
    ]
    assert outcome["shown"] == {
        "detail": "refused: this request came from another site (Sec-Fetch-Site: "
        "cross-site); changes are accepted from Sheepshead's own pages only"
    }
    assert outcome["after"] == outcome["before"]
