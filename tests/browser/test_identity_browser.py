"""Looking makes no identity: every page of the site, opened in Chromium with its
scripts running and nothing clicked, leaves no player in the database; the table
deals its first game (and so makes the player) on the player's click, and a
returning player finds their game as they left it (``server/identity.py``).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Request, expect
from sqlalchemy import func, select

from browser.helpers import SERVED, Visitor
from browser.table import deal_first, phase, visible_cards, wait_idle
from server.test_i18n import SITE_PAGES
from sheepshead.store.models import Player

pytestmark = pytest.mark.browser


def players(server: str) -> int:
    with SERVED[server].state.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(Player)).scalar_one())


#: How long the network must stay quiet after a page's load for its scripts to be done
#: asking (a reply's follow-up request starts within a task of that reply).
QUIET_MS = 150


def visit(guest: Visitor, server: str, url: str) -> list[str]:
    """Open ``url`` and wait until its scripts' requests are all answered and none
    follows; what it left behind: requests that change something, a cookie, players."""
    before = players(server)
    page = guest.new_page()
    changes: list[str] = []
    open_requests: set[object] = set()

    def started(request: Request) -> None:
        open_requests.add(request)
        if request.method not in ("GET", "HEAD"):
            changes.append(f"{request.method} {request.url}")

    def ended(request: Request) -> None:
        open_requests.discard(request)

    page.on("request", started)
    page.on("requestfinished", ended)
    page.on("requestfailed", ended)
    page.goto(url, wait_until="load")
    quiet = 0
    while quiet < QUIET_MS:
        page.wait_for_timeout(50)
        quiet = 0 if open_requests else quiet + 50
    page.close()
    made = players(server) - before
    cookies = [c["name"] for c in guest.context.cookies() if c["name"] != "lang"]
    return changes + [f"{made} new players"] * bool(made) + [f"cookie {c}" for c in cookies]


def test_opening_any_page_with_its_scripts_makes_no_player(desktop: Visitor, server: str) -> None:
    # One browser, page after page, so that the static files come from its cache.
    left = {url: visit(desktop, server, url) for url in SITE_PAGES}
    assert not {url: found for url, found in left.items() if found}
    assert not desktop.errors, desktop.errors


def test_the_table_deals_on_the_first_click_and_a_returning_player_finds_the_game(
    desktop: Visitor, server: str
) -> None:
    before = players(server)
    page = desktop.new_page()
    page.goto("/play")
    wait_idle(page)
    assert phase(page) == "start"
    deal = page.get_by_role("button", name="Deal the cards")
    expect(deal).to_be_focused()
    assert page.locator("#hand .card").count() == 0
    assert players(server) == before
    deal_first(page)
    assert phase(page) in ("picking", "playing")
    assert players(server) == before + 1
    cards = visible_cards(page)
    assert len(cards) == 6
    page.reload()
    wait_idle(page)
    assert phase(page) != "start"
    assert visible_cards(page) == cards
    assert players(server) == before + 1
    assert not desktop.errors, desktop.errors
