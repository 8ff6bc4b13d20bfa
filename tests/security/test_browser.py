"""In a real browser (Debian's Chromium): a page on another site that submits a form
or fetches into the API is refused with the readable 403, and the visitor's game is
untouched; the site's own table keeps working (``tests/browser`` plays whole hands)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, Route

from browser.conftest import browser, playwright, server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

EVIL = "https://evil.example"


def _attack_page(target: str, game_id: str, version: int) -> str:
    # What a hostile page can do without CORS: a text/plain form, a no-cors fetch.
    action = json.dumps({"action": "pass", "version": version})
    return f"""<!doctype html><title>Win a prize</title>
<form id="f" method="post" enctype="text/plain" action="{target}/api/v1/games">
<input name='{{"rules": {{}}, "x": "' value='"}}'></form>
<script>
fetch("{target}/api/v1/games/{game_id}/actions", {{
  method: "POST", mode: "no-cors", credentials: "include",
  headers: {{"Content-Type": "text/plain"}}, body: {json.dumps(action)}
}}).finally(() => document.getElementById("f").submit());
</script>"""


def test_another_sites_page_cannot_change_a_visitors_game(
    browser: Browser,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    context = browser.new_context(base_url=server)
    try:
        page = context.new_page()
        with page.expect_response(lambda r: r.url.endswith("/api/v1/games")) as created:
            page.goto("/play")
        assert created.value.status == 201
        before = context.request.get("/api/v1/games/current").json()

        def evil(route: Route) -> None:
            route.fulfill(
                content_type="text/html",
                body=_attack_page(server, before["id"], before["version"]),
            )

        context.route(f"{EVIL}/**", evil)
        refusals: list[int] = []
        page.on(
            "response",
            lambda r: refusals.append(r.status) if r.url.startswith(server + "/api/") else None,
        )
        page.goto(f"{EVIL}/prize")
        page.wait_for_url(f"{server}/api/v1/games")
        assert json.loads(page.inner_text("body")) == {
            "detail": "refused: this request came from another site (Sec-Fetch-Site: "
            "cross-site); changes are accepted from Sheepshead's own pages only"
        }
        assert refusals and set(refusals) == {403}
        after = context.request.get("/api/v1/games/current").json()
        assert after == before
    finally:
        context.close()
