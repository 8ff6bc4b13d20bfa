"""The coach in the browser: a hint at the table appears and is counted on the hand's
summary; the coach's review fills with a progress bar and opens a flagged position as
the player saw it. axe finds nothing on the review page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from browser.a11y import AXE, new_context
from browser.table import Covered, deal_first, next_hand, play_hand_by_clicking, wait_idle
from browser.test_a11y import axe_violations

pytestmark = pytest.mark.browser

HANDS = 4


def review_has_flag(page: Page) -> bool:
    expect(page.locator("#review-status")).to_contain_text("The review is ready", timeout=60_000)
    return page.get_by_role("button", name="Show the position").count() > 0


def test_a_hint_is_counted_and_a_review_opens_a_flagged_position(
    browser: Browser, server: str, artifacts: Path
) -> None:
    context = new_context(browser, server, axe=AXE.exists())
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/play")
    deal_first(page)
    for hand in range(HANDS):
        wait_idle(page)
        page.get_by_role("button", name="What would the expert do?").click()
        hint = page.locator("#coach-hint")
        expect(hint).to_contain_text("The expert would:")
        expect(hint).to_contain_text("(1 hint in this hand)")
        play_hand_by_clicking(page, Covered(), artifacts, f"coach-{hand}")
        summary = page.locator("#dlg-summary")
        expect(summary.locator("#summary-hints")).to_have_text("Hints used in this hand: 1")
        href = summary.locator("#summary-coach").get_attribute("href") or ""
        assert re.fullmatch(r"/review/[0-9a-f]{32}/\d+", href), href
        if hand == 0:
            # The hand's line on the score sheet counts its hint too.
            page.keyboard.press("Escape")
            expect(summary).to_be_hidden()
            page.locator("#open-scores").click()
            expect(page.locator("#scores-body tbody tr").first).to_contain_text("1 hint")
            page.keyboard.press("Escape")
        review = context.new_page()
        review.on("pageerror", lambda exc: errors.append(str(exc)))
        review.goto(href)
        if review_has_flag(review):
            review.get_by_role("button", name="Show the position").first.click()
            position = review.locator("#review-position")
            expect(position).to_be_visible()
            expect(position).to_contain_text("Your cards:")
            expect(position).to_contain_text("Better:")
            if AXE.exists():
                assert axe_violations(review) == []
            review.screenshot(path=str(artifacts / "coach-review.png"))
            break
        review.close()
        next_hand(page)
    else:
        pytest.fail(f"no flagged decision in {HANDS} hands")
    assert errors == []
    context.close()
