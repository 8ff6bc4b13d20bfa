"""What the accessibility tests share (``test_a11y.py``, ``test_a11y_visual.py``): the
pages, axe-core, a visitor's browser context in a language with stored settings, and a
decision taken at the table by mouse. The fixtures are imported by name.
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
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

from browser.helpers import DESKTOP, GUIDE_PAGES
from browser.table import (
    choose_bury,
    phase,
)

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
    *GUIDE_PAGES,
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
# Hands to play before the player has picked, buried and called at least once (each
# hand is a new chance to be asked first; seldom more than two are needed).
HANDS_TO_COVER = 10


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
    viewport: ViewportSize = DESKTOP,
    settings: dict[str, Any] | None = None,
    reduced_motion: str = "reduce",
    scale: float = 1,
    axe: bool = True,
) -> BrowserContext:
    """A new visitor whose browser asks for ``lang``, with table settings stored."""
    context = browser.new_context(
        viewport=viewport,
        device_scale_factor=scale,
        base_url=server,
        locale=LANGUAGES[lang],
        reduced_motion=reduced_motion,  # type: ignore[arg-type]
        # The service worker has a test of its own (test_clubs_browser.py); here its
        # caching of the guide after each first page would only load the server.
        service_workers="block",
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
    assert reply is not None, f"{path}: {reply.status if reply else 'no reply'}"
    assert reply.ok, f"{path}: {reply.status if reply else 'no reply'}"
    if path in FETCHING:
        page.wait_for_load_state("networkidle")


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
        choose_bury(page).click()
    elif now == "calling":
        plain = actions.locator('[data-action^="call "]')
        unknown = actions.locator('[data-ui="call-unknown"]')
        chosen = page.locator("#hand .card.live")  # live while the unknown card is chosen
        if plain.count() or chosen.count():
            kinds.add("call")
            (plain if plain.count() else chosen).first.click()
        elif unknown.count():
            unknown.first.click()
        else:
            kinds.add("alone")
            actions.locator('[data-action="alone"]').click()
    elif now == "playing":
        kinds.add("play")
        page.locator("#hand .card.live").first.click()
    else:
        kinds.add(now)
        actions.locator("button").first.click()
