"""Every player welcome (WCAG 2.2 AA): axe-core finds nothing on any page or table
state, in every language the site speaks; the game can be played with the keyboard
alone, and tells each play, trick, partner and score in words; cards and buttons are
big enough to tap on a phone; text at 200 % loses nothing; reduced motion is
respected; colour is never the only signal.

axe-core is the npm package pinned in ``tests/browser/axe/package-lock.json``
(``make browser`` runs ``npm ci`` there); Playwright injects it into each page as it
opens (``add_init_script``, which a Content-Security-Policy does not stop).
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from browser.conftest import DESKTOP, PHONE
from browser.table import HAND_LIMIT, focused, phase, summary_open, wait_idle

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0 to 2.2, levels A and AA, and axe's best practices (Lighthouse runs some of
# those: landmarks, heading order).
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]
SETTINGS_KEY = "sheepshead.settings.v1"
# Browser preferences that ask for each of the site's languages.
LANGUAGES = {"en": "en-US", "bn": "bn-BD", "de": "de-DE"}
SEED = "5e" * 32
PAGES = [
    "/",
    "/guide",
    "/guide/standard",
    "/guide/cards",
    "/guide/picking",
    "/guide/scoring",
    "/guide/nobody-picks",
    "/guide/worked-hand",
    "/guide/glossary",
    "/guide/questions",
    "/guide/history",
    "/daily",
    "/leaderboard",
    "/privacy",
    "/verify",
    f"/verify?seed={SEED}&players=5",
    "/verify/daily",
]
# One page of each layout, checked on a desktop too (every page is checked on a phone).
DESKTOP_PAGES = ["/", "/guide", "/guide/scoring", "/daily", "/leaderboard", "/privacy", PAGES[15]]
# Pages whose scripts fetch what they show after the page has loaded.
FETCHING = {"/", "/daily", "/leaderboard", f"/verify?seed={SEED}&players=5"}
MIN_TARGET = 44  # CSS pixels, each way: cards and buttons on a phone


# --- contexts ----------------------------------------------------------------------


def axe_script() -> Path:
    if not AXE.exists():
        message = f"{AXE} is missing: `make browser` installs axe-core (npm ci)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE


def new_context(
    browser: Browser,
    server: str,
    *,
    lang: str = "en",
    viewport: dict[str, int] = DESKTOP,
    settings: dict[str, Any] | None = None,
    reduced_motion: str = "reduce",
    scale: float = 1,
    axe: bool = True,
) -> BrowserContext:
    """A new visitor whose browser asks for ``lang``, with table settings stored."""
    context = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        device_scale_factor=scale,
        base_url=server,
        locale=LANGUAGES[lang],
        reduced_motion=reduced_motion,  # type: ignore[arg-type]
    )
    context.set_default_timeout(15_000)
    stored = json.dumps(json.dumps({"pace": "instant", **(settings or {})}))
    context.add_init_script(f"localStorage.setItem({json.dumps(SETTINGS_KEY)}, {stored})")
    if axe:
        # In every page as it opens: parsed from the cache each time, a third of the
        # cost of adding the script to each page afterwards.
        context.add_init_script(path=axe_script())
    return context


@pytest.fixture(params=list(LANGUAGES))
def lang(request: pytest.FixtureRequest, server: str) -> str:
    """A language the site serves: asked for by the browser, declared by ``<html lang>``."""
    code: str = request.param
    ask = urllib.request.Request(server + "/", headers={"Accept-Language": LANGUAGES[code]})
    with urllib.request.urlopen(ask, timeout=10) as reply:
        html = reply.read().decode()
    served = re.search(r"<html[^>]*\blang=\"([^\"]+)\"", html)
    if not served or not served.group(1).startswith(code):
        pytest.skip(f"the site does not serve {code!r} yet")
    return code


@pytest.fixture
def context(browser: Browser, server: str) -> Iterator[BrowserContext]:
    context = new_context(browser, server)
    yield context
    context.close()


def watch(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return errors


def visit(page: Page, path: str) -> None:
    reply = page.goto(path)
    assert reply is not None and reply.ok, f"{path}: {reply.status if reply else 'no reply'}"
    if path in FETCHING:
        page.wait_for_load_state("networkidle")


# --- axe ---------------------------------------------------------------------------


def axe_violations(page: Page) -> list[dict[str, Any]]:
    assert page.evaluate("typeof window.axe === 'object'"), "axe-core is not in the page"
    result: dict[str, Any] = page.evaluate(
        """tags => axe.run(document, {
            runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
        })""",
        AXE_TAGS,
    )
    return list(result["violations"])


class Audit:
    """axe on each state; every finding is reported together at the end."""

    def __init__(self) -> None:
        self.found: dict[str, list[str]] = {}
        self.states: list[str] = []

    def check(self, page: Page, state: str) -> None:
        self.states.append(state)
        lines = []
        for v in axe_violations(page):
            lines.append(f"  {v['id']} ({v['impact']}): {v['help']}")
            for node in v["nodes"][:4]:
                why = " ".join(node["failureSummary"].splitlines()[1:2]).strip()
                lines.append(f"      {node['target']}: {why[:200]}")
        if lines:
            self.found[state] = lines

    def assert_clean(self) -> None:
        report = "\n".join(f"[{s}]\n" + "\n".join(lines) for s, lines in self.found.items())
        assert not self.found, f"axe found violations:\n{report}"


# --- the pages ---------------------------------------------------------------------


def test_every_page_has_no_axe_violation(browser: Browser, server: str, lang: str) -> None:
    """Every page on a phone, and in English one of each layout on a desktop."""
    audit = Audit()
    context = new_context(browser, server, lang=lang, viewport=PHONE)
    try:
        page = context.new_page()
        errors = watch(page)
        sizes = [("phone", PHONE, PAGES), ("desktop", DESKTOP, DESKTOP_PAGES)]
        # The layouts are the same in every language; only the words' lengths differ.
        for size, viewport, paths in sizes if lang == "en" else sizes[:1]:
            page.set_viewport_size(viewport)  # type: ignore[arg-type]
            for path in paths:
                visit(page, path)
                assert (page.get_attribute("html", "lang") or "").startswith(lang), path
                audit.check(page, f"{size} {path}")
    finally:
        context.close()
    audit.assert_clean()
    assert errors == []


# --- the table, state by state -----------------------------------------------------


def decide(page: Page, kinds: set[str]) -> None:
    """The player's decision by clicking, preferring to pick and to call (so that those
    states are seen); found by what the controls do, not their words."""
    now = phase(page)
    actions = page.locator("#actions")
    if now == "picking":
        kinds.add("pick")
        actions.locator('[data-action="pick"]').click()
    elif now == "burying":
        kinds.add("bury")
        bury = actions.locator('[data-ui="bury"]')
        for _ in range(8):
            if bury.get_attribute("aria-disabled") != "true":
                break
            page.locator('#hand .card.live[aria-pressed="false"]').first.click()
        bury.click()
    elif now == "calling":
        plain = actions.locator('[data-action^="call "]')
        kinds.add("call" if plain.count() else "alone")
        (plain if plain.count() else actions.locator("button")).first.click()
    elif now == "playing":
        kinds.add("play")
        page.locator("#hand .card.live").first.click()
    else:
        kinds.add(now)
        actions.locator("button").first.click()


def next_hand(page: Page) -> None:
    if summary_open(page):
        page.locator("#summary-next").click()
    else:
        page.locator('#actions [data-ui="next-hand"]').click()
    wait_idle(page)


def check_table_states(page: Page, audit: Audit, size: str) -> set[str]:
    """Play hands by clicking until the player has picked, buried, called and played,
    checking each state (and each dialog) the first time it shows."""
    seen: set[str] = set()
    kinds: set[str] = set()

    def once(state: str) -> bool:
        if state in seen:
            return False
        seen.add(state)
        return True

    for _ in range(8):
        for _ in range(HAND_LIMIT):
            wait_idle(page)
            if summary_open(page):
                break
            now = phase(page)
            if once(now):
                audit.check(page, f"{size} {now}")
            if now == "picking" and once("dialogs"):
                page.locator("#open-settings").click()
                expect(page.locator("#dlg-settings")).to_be_visible()
                audit.check(page, f"{size} settings dialog")
                page.keyboard.press("Escape")
                link = page.locator("#actions a.rule-link").first
                link.click()
                expect(page.locator("#dlg-rule #rule-body h2").first).to_be_visible()
                audit.check(page, f"{size} rule dialog")
                page.keyboard.press("Escape")
                expect(link).to_be_focused()
            if now == "burying" and once("bury-chosen"):
                page.locator('#hand .card.live[aria-pressed="false"]').first.click()
                audit.check(page, f"{size} burying, a card chosen")
            unknown = page.locator('#actions [data-ui="call-unknown"]')
            if now == "calling" and unknown.count() and once("unknown"):
                unknown.first.click()
                audit.check(page, f"{size} calling, choosing the unknown card")
                page.locator('#actions [data-ui="call-back"]').click()
            taken = page.locator("#trick .played").count() == 0 and "play" in kinds
            if now == "playing" and taken and once("last trick"):
                page.locator("#open-last").click()
                audit.check(page, f"{size} last trick dialog")
                page.keyboard.press("Escape")
            decide(page, kinds)
        if once("summary"):
            expect(page.locator("#dlg-summary")).to_be_visible()
            audit.check(page, f"{size} summary")
            page.locator("#summary-review").click()
            audit.check(page, f"{size} review")
            page.locator("#review-next").click()
            audit.check(page, f"{size} review, trick 1")
            page.keyboard.press("Escape")
            page.locator("#open-scores").click()
            audit.check(page, f"{size} score sheet")
            page.keyboard.press("Escape")
            audit.check(page, f"{size} hand over")
        if {"pick", "bury", "call", "play"} <= kinds:
            return seen
        next_hand(page)
    raise AssertionError(f"in 8 hands the player never picked, buried and called: {kinds}")


def test_every_table_state_has_no_axe_violation(browser: Browser, server: str, lang: str) -> None:
    audit = Audit()
    context = new_context(browser, server, lang=lang)
    try:
        page = context.new_page()
        errors = watch(page)
        page.goto("/play")
        seen = check_table_states(page, audit, "desktop")
    finally:
        context.close()
    audit.assert_clean()
    assert {"picking", "burying", "calling", "playing", "summary", "dialogs"} <= seen, seen
    assert errors == []
