"""The rules guide in Chromium: the trick demonstration plays and replays, the home page
fetches it, and at the table a refused card (and a decision) links to its rule, opened
in place, with the game unchanged after it closes."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from browser.helpers import DESKTOP, Visitor, visitor_for
from browser.table import deal_first, next_hand, phase, summary_open, wait_idle

pytestmark = pytest.mark.browser

# Hands to deal before one of the player's cards is refused (it happens in most hands).
HANDS_TO_TRY = 4


@pytest.fixture
def moving(browser: Browser, server: str) -> Iterator[Visitor]:
    """A visitor whose system allows motion, so the demonstration animates."""
    yield from visitor_for(browser, server, DESKTOP, reduced_motion="no-preference")


def demo_done(page: Page, scope: str = "") -> None:
    """The demonstration played to its end, its beats (guide.js's waits) moved on by
    the page's clock, which the test installed before the page loaded."""
    done = page.locator(f'{scope} figure.trick-demo[data-state="done"]')
    deadline = time.monotonic() + 20
    while not done.count():
        assert time.monotonic() < deadline, "the demonstration did not end"
        page.clock.fast_forward(300)


def check_demo_result(page: Page) -> None:
    stage = page.locator("figure.trick-demo .demo-stage")
    cards = stage.locator(".demo-card")
    assert cards.evaluate_all("cs => cs.map(c => c.dataset.card)") == ["TC", "AC", "7D", "KC", "9H"]
    expect(stage.locator(".demo-card.winning")).to_have_attribute("data-card", "7D")
    expect(stage.locator(".demo-seat.takes")).to_have_text("Dan")
    expect(page.locator("figure.trick-demo .demo-live")).to_contain_text("25 card points")
    # Each card is the table's own drawing (an SVG from cards.js), not a picture of text.
    assert stage.locator(".demo-card svg.cardsvg").count() == 5


def test_the_trick_demonstration_plays_and_replays(moving: Visitor, artifacts: Path) -> None:
    page = moving.new_page()
    page.clock.install()
    page.goto("/guide")
    figure = page.locator("figure.trick-demo")
    # It starts by itself once seen, one card at a time.
    page.wait_for_selector('figure.trick-demo[data-state="playing"]')
    page.wait_for_function(
        "() => document.querySelectorAll('.demo-stage .demo-card').length === 3", timeout=10_000
    )
    expect(figure.locator(".demo-live")).to_contain_text("seven of diamonds")
    demo_done(page)
    check_demo_result(page)
    page.screenshot(path=str(artifacts / "guide-demo-done.png"))
    replay = figure.get_by_role("button", name="Play the trick again")
    expect(replay).to_be_visible()
    replay.click()
    expect(figure).to_have_attribute("data-state", "playing")
    assert figure.locator(".demo-card").count() < 5
    demo_done(page)
    check_demo_result(page)
    assert moving.errors == []


def test_with_reduced_motion_the_demonstration_still_plays(desktop: Visitor) -> None:
    page = desktop.new_page()
    page.clock.install()
    page.goto("/")
    page.locator(".demo-slot").scroll_into_view_if_needed()
    demo_done(page, ".demo-slot")
    check_demo_result(page)
    # Nothing moves: no card animation ran.
    assert page.evaluate("document.getAnimations().length") == 0
    assert desktop.errors == []


def test_the_guide_reads_without_script(browser: Browser, server: str) -> None:
    context = browser.new_context(java_script_enabled=False, base_url=server)
    page = context.new_page()
    page.goto("/guide/cards")
    trumps = page.locator("#trumps .card-row .gc")
    assert trumps.count() == 14
    expect(trumps.first).to_have_attribute("aria-label", "queen of clubs")
    expect(trumps.first).to_contain_text("Q♣")
    page.goto("/guide/standard")
    expect(page.locator("figure.trick-demo .demo-plays li")).to_have_count(5)
    expect(page.locator("figure.trick-demo")).to_contain_text("25 card points")
    context.close()


# --- from the table --------------------------------------------------------------------

# The guide section behind each refusal, as the engine words it (guide.js maps the same).
REFUSAL_RULES = [
    (r"must follow", "play"),
    (r"unknown card", "unknown-card"),
    (r"may lead \w+ only with|must play .* on the first", "partner-duties"),
    (r"must keep a ", "called-ace"),
    (r"must keep ", "duty-cards"),
]


def rule_of(reason: str) -> str:
    return next(anchor for pattern, anchor in REFUSAL_RULES if re.search(pattern, reason))


def table_state(page: Page) -> dict[str, object]:
    return {
        "url": page.url,
        "info": page.locator("#info").inner_text(),
        "hand": page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)"),
        "trick": page.locator("#trick [data-card]").evaluate_all(
            "cs => cs.map(c => c.dataset.card)"
        ),
        "phase": phase(page),
    }


def open_and_close_rule(page: Page, link_name: str, anchor: str) -> None:
    before = table_state(page)
    link = page.locator("#actions a.rule-link")
    expect(link).to_contain_text(link_name)
    link.click()
    dialog = page.locator("dialog#dlg-rule")
    expect(dialog).to_be_visible()
    expect(dialog.locator(f"section#{anchor} h2")).to_be_visible()
    assert dialog.get_attribute("aria-labelledby") == f"{anchor}-h"
    # A link to another rule (or a glossary entry) opens that one in the same dialog.
    inner = dialog.locator("#rule-body a[data-rule]").first
    if inner.count():
        other = inner.get_attribute("data-rule") or ""
        inner.click()
        expect(dialog.locator(f"[id='{other}']")).to_be_visible()
        assert dialog.get_attribute("aria-labelledby") == f"{other}-h"
        expect(page).to_have_url(re.compile(r"/play$"))
    page.get_by_role("button", name="Back to the game").click()
    expect(dialog).to_be_hidden()
    assert table_state(page) == before
    expect(page).to_have_url(re.compile(r"/play$"))


def test_a_refused_card_opens_its_rule_and_the_game_goes_on(
    desktop: Visitor, artifacts: Path
) -> None:
    page = desktop.new_page()
    page.goto("/play")
    deal_first(page)
    decision_checked = False
    for _ in range(HANDS_TO_TRY):
        for _ in range(60):
            wait_idle(page)
            if summary_open(page) or phase(page) == "over":
                break
            now = phase(page)
            if now == "picking":
                if not decision_checked:
                    open_and_close_rule(page, "picking", "picking-order")
                    decision_checked = True
                page.get_by_role("button", name="Pass").click()
                continue
            assert now == "playing", now
            refused = page.locator("#hand .card.refused")
            if refused.count():
                card = refused.first
                reason = card.get_attribute("data-reason") or ""
                # aria-disabled: a person can still click it, and is told why.
                card.click(force=True)
                expect(page.locator("#actions a.rule-link")).to_contain_text("Why?")
                open_and_close_rule(page, "Why?", rule_of(reason))
                page.screenshot(path=str(artifacts / "guide-rule-closed.png"))
                # The game goes on: a card is still playable, and plays.
                page.locator("#hand .card.live").first.click()
                wait_idle(page)
                assert decision_checked
                assert desktop.errors == []
                return
            page.locator("#hand .card.live").first.click()
        next_hand(page)
    raise AssertionError(f"no card was refused in {HANDS_TO_TRY} hands")
