"""Clubs and the installed app in Chromium: a club's board at 360 and 1280 px in each
language (nothing scrolls sideways, axe finds nothing); the service worker installs,
Chromium finds the site installable, and with the network gone the rules guide still
opens and any other page is the offline page, in the reader's language."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright

from browser.a11y import LANGUAGES, new_context
from browser.helpers import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, SERVED
from browser.test_a11y import Audit
from sheepshead import daily_game as daily
from sheepshead.names import check_name
from sheepshead.server.identity import COOKIE
from sheepshead.store.clubs import ClubStore
from sheepshead.store.daily_store import DailyStore
from sheepshead.store.identity import IdentityStore

pytestmark = pytest.mark.browser


def make_club(server: str) -> tuple[str, str]:
    """A club of three with results today: (the club's id, a member who finished)."""
    engine = SERVED[server].state.engine
    store, clubs = DailyStore(engine), ClubStore(engine)
    day = daily.day_of(datetime.now(UTC))
    store.ensure_day(day, "0" * 64, "expert/1")
    members = []
    for n, (name, points) in enumerate((("Annika", 12), ("Bertram", -4), ("শ্যামল", 4))):
        player = IdentityStore(engine).new_player()
        checked = check_name(f"{name}{n}" if name.isascii() else name)
        IdentityStore(engine).set_name(player, checked.text, checked.key, checked.look)
        attempt = store.create_attempt(player, day, 1, [], 0, None)
        assert attempt is not None
        store.save_attempt(attempt, [[]] * 5, 1, True, [points, 0, -2, 2, 0])
        members.append(player)
    store.refresh_board(day)
    suffix = datetime.now(UTC).strftime("%H%M%S%f")[-6:]
    club = clubs.create(members[0], f"Kegelbahn {suffix}", *keys(f"Kegelbahn {suffix}"), 10)
    for player in members[1:]:
        clubs.join(club.invitation, player, 50, 10)
    return club.id, members[0]


def keys(name: str) -> tuple[str, str]:
    checked = check_name(name)
    return checked.key, checked.look


def test_a_club_board_reads_well_on_a_phone_and_a_laptop_in_every_language(
    browser: Browser, server: str, artifacts: Path
) -> None:
    club_id, member = make_club(server)
    audit = Audit()
    for lang in LANGUAGES:
        context = new_context(browser, server, lang=lang, viewport=PHONE)
        context.add_cookies([{"name": COOKIE, "value": member, "url": server}])
        page = context.new_page()
        try:
            for size, viewport in (("phone", PHONE), ("laptop", DESKTOP)):
                page.set_viewport_size(viewport)
                reply = page.goto(f"/clubs/{club_id}")
                assert reply is not None
                assert reply.ok
                assert page.get_attribute("html", "lang") == lang
                rows = page.locator(".club-board tbody tr")
                assert rows.count() == 3
                # The finished member sees every member's deals (in the language's digits).
                first = rows.first.inner_text()
                assert "Annika0" in first
                assert first.count(" · ") == 4
                wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
                assert wide <= 0, f"{lang} {size}: the page scrolls sideways by {wide}px"
                page.screenshot(path=str(artifacts / f"club-{lang}-{size}.png"), full_page=True)
                if size == "phone" or lang == "en":
                    # The layouts are the same in every language; only words' lengths differ.
                    audit.check(page, f"{lang} {size}")
        finally:
            context.close()
    audit.assert_clean()


def offline_text(page: Page) -> str:
    return page.locator("main h1").inner_text()


def test_the_service_worker_installs_and_the_guide_opens_offline(
    playwright: Playwright, browser: Browser, server: str, tmp_path: Path
) -> None:
    # A profile of its own: Chromium installs no app from an incognito context (what
    # browser.new_context() makes), and no CSP proxy stands between worker and site.
    context = playwright.chromium.launch_persistent_context(
        tmp_path / "profile",
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        base_url=server,
        locale="de-DE",
    )
    context.set_default_timeout(15_000)
    page = context.pages[0] if context.pages else context.new_page()
    try:
        page.goto("/guide")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == []
        # An installed app opens on the table.
        assert json.loads(manifest["data"])["start_url"] == "/play"
        page.goto("/daily")  # the last page's language is the offline page's
        context.set_offline(True)
        guide = page.goto("/guide/glossary")
        assert guide is not None
        assert guide.ok
        assert page.locator("main h1").count() == 1
        assert page.get_attribute("html", "lang") == "de"
        page.goto("/leaderboard")
        assert offline_text(page) == "Du bist offline"
        kept = page.evaluate(
            """async () => {
                const out = [];
                for (const name of await caches.keys()) {
                    const cache = await caches.open(name);
                    for (const r of await cache.keys()) out.push(new URL(r.url).pathname);
                }
                return out;
            }"""
        )
        assert "/guide" in kept
        assert any(path.endswith("/css/site.css") for path in kept)
        player_pages = ("/api/", "/daily", "/leaderboard", "/clubs", "/play", "/privacy")
        assert not [p for p in kept if p.startswith(player_pages)], kept
    finally:
        context.close()
