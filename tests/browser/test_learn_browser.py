"""The guided first game in the browser: a new player finds it from the home page and
the table, follows its steps to the end of its two hands, and is told why when trying
a choice the lesson does not take or a card the rules refuse. axe finds nothing on it;
in German the steps speak German."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from browser.a11y import AXE, new_context
from browser.table import summary_open, wait_idle
from browser.test_a11y import axe_violations
from sheepshead import lesson

pytestmark = pytest.mark.browser


def take(page: Page, action: str) -> None:
    """Take the step's action as a player would: the button or the marked cards."""
    if action == "pick":
        page.locator('#actions [data-action="pick"]').click()
    elif action.startswith("bury "):
        for card in action.split()[1:]:
            node = page.locator(f'#hand .card[data-card="{card}"]')
            expect(node).to_have_class(re.compile(r"\blearn-this\b"))
            node.click()
        page.locator('#actions [data-ui="bury"]').click()
    elif action.startswith("call "):
        page.locator(f'#actions [data-action="{action}"]').click()
    else:
        card = action.split()[1]
        node = page.locator(f'#hand .card[data-card="{card}"]')
        expect(node).to_have_class(re.compile(r"\blearn-this\b"))
        node.click()


def test_a_new_player_completes_the_guided_game(
    browser: Browser, server: str, artifacts: Path
) -> None:
    context = new_context(browser, server, axe=AXE.exists())
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # A first visit to the table offers it beside "Deal the cards".
    page.goto("/play")
    wait_idle(page)
    expect(page.locator("#actions a[href='/learn']")).to_be_visible()
    page.goto("/")
    page.get_by_role("link", name="New to Sheepshead? Play the guided first game").click()
    expect(page).to_have_url(f"{server}/learn")
    steps = [(hand, a) for hand, (_, moves) in enumerate(lesson.LESSON_HANDS) for a in moves]
    for number, (hand, action) in enumerate(steps, 1):
        wait_idle(page)
        if hand == 1 and summary_open(page):
            page.locator("#summary-next").click()
            wait_idle(page)
        total = len(steps)
        expect(page.locator("#learn-progress")).to_contain_text(f"step {number} of {total}")
        expect(page.locator("#learn-do")).not_to_be_empty()
        expect(page.locator("#learn-rule")).not_to_be_empty()
        if number == 1:
            # Passing is legal, but not the lesson's choice: refused, and told why.
            page.locator('#actions [data-action="pass"]').click()
            expect(page.locator("#learn-why")).to_have_text(
                "In this lesson, pick: a hand with this many trumps is worth the blind."
            )
            expect(page.locator("#learn-progress")).to_contain_text("step 1 of")
            if AXE.exists():
                assert axe_violations(page) == []
        if number == 5:
            # Clubs were led: a trump is refused by the rules, with the rule's reason.
            expect(page.locator("#learn-do")).to_contain_text("you must follow suit")
            refused = page.locator("#hand .card.refused").first
            refused.hover()
            expect(page.locator("#hint")).to_have_text("You must follow clubs")
        if number == 4:
            # A legal card that is not the lesson's: refused by the lesson, with why.
            page.locator('#hand .card.live[data-card="JC"]').click()
            expect(page.locator("#learn-why")).to_contain_text("In this lesson, lead the queen")
        if number == 10:
            expect(page.locator("#learn-do")).to_contain_text("Schmear it")
            page.screenshot(path=str(artifacts / "learn-schmear.png"))
        take(page, action)
    wait_idle(page)
    done = page.locator("#learn-done")
    expect(done).to_be_visible()
    expect(done).to_contain_text("you have finished the guided game")
    if AXE.exists():
        assert axe_violations(page) == []
    page.screenshot(path=str(artifacts / "learn-done.png"))
    assert errors == []
    context.close()


def test_the_guided_game_speaks_german(browser: Browser, server: str) -> None:
    context = new_context(browser, server, lang="de", axe=False)
    page = context.new_page()
    page.goto("/learn")
    wait_idle(page)
    expect(page.locator("#learn-progress")).to_have_text("Spiel 1 von 2, Schritt 1 von 15.")
    expect(page.locator("#learn-do")).to_contain_text("nimm den Blind auf")
    page.locator('#actions [data-action="pass"]').click()
    expect(page.locator("#learn-why")).to_contain_text("In dieser Lektion nimmst du auf")
    context.close()
