"""Three people at one friends' table (two computer players), each in their own browser:
a whole hand through the socket's updates, each seeing only their own cards; one
closes their tab mid-hand, the computer player covers, and they take the seat back.
The host allows hints and asks for one: everyone's score sheet counts it. axe on the
form, the lobby and the shared table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from browser.a11y import new_context
from browser.table import choose_bury
from browser.test_a11y import Audit

pytestmark = pytest.mark.browser

#: Decisions to wait through before a hand must be over.
LIMIT = 200


def person(browser: Browser, server: str) -> tuple[BrowserContext, Page]:
    context = new_context(browser, server)
    page = context.new_page()
    return context, page


def hand(page: Page) -> set[str]:
    cards = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    return {c for c in cards if c}


def decide(page: Page) -> bool:
    """Take this page's decision if it has one; whether it did."""
    if page.locator('#table[data-idle="true"]').count() == 0:
        return False
    bury = page.locator('#actions [data-ui="bury"]')
    if bury.count():
        choose_bury(page).click()
        return True
    unknown = page.locator('#actions [data-ui="call-unknown"]')
    plain = page.locator("#actions button[data-action]")
    if plain.count():
        plain.first.click()
        return True
    if unknown.count():
        unknown.first.click()
        page.locator("#hand .card.live").first.click()
        return True
    live = page.locator("#hand .card.live")
    if live.count():
        live.first.click()
        return True
    return False


def over(page: Page) -> bool:
    return page.locator("#dlg-summary[open]").count() > 0


class Hinted:
    """The host asks the coach once, on their first turn, before deciding."""

    def __init__(self, host: Page) -> None:
        self.host = host
        self.asked = False

    def decide(self, page: Page) -> bool:
        idle = page.locator('#table[data-idle="true"]').count() > 0
        if page is self.host and not self.asked and idle and not over(page):
            page.locator("#coach-hint-ask").click()
            expect(page.locator("#coach-hint")).to_contain_text("The expert would")
            expect(page.locator("#coach-hint")).to_contain_text("(1 hint in this hand)")
            self.asked = True
        return decide(page)


def test_three_people_play_a_hand_and_one_comes_back_after_closing_the_tab(
    browser: Browser, server: str
) -> None:
    audit = Audit()
    people = [person(browser, server) for _ in range(3)]
    try:
        (_, host), (_, second), (third_context, third) = people
        host.goto("/")
        host.get_by_role("link", name="Play with friends").click()
        expect(host).to_have_url(re.compile(r"/friends$"))
        audit.check(host, "the form")
        host.locator("#friends-name").fill("Hostess")
        host.locator("#friends-hints").check()
        host.locator("#friends-open").click()
        expect(host).to_have_url(re.compile(r"/friends/[A-Za-z0-9_-]{16}$"))
        # The page fills the invitation link once its table has loaded.
        expect(host.locator("#friends-link")).to_have_value(
            re.compile(r"/friends/[A-Za-z0-9_-]{16}$")
        )
        link = host.locator("#friends-link").input_value()
        for page, name in ((second, "Second"), (third, "Third")):
            page.goto(link)
            page.locator("#friends-sit-name").fill(name)
            page.locator("#friends-take").click()
            expect(page.locator("#friends-seats")).to_contain_text(name)
        expect(host.locator("#friends-seats")).to_contain_text("Third")
        audit.check(host, "the lobby")
        host.locator("#friends-start").click()
        pages = [host, second, third]
        for page in pages:
            expect(page.locator("#hand .card").first).to_be_visible()
        # Each sees only their own cards.
        hands = [hand(p) for p in pages]
        assert all(hands)
        assert not (hands[0] & hands[1])
        assert not (hands[1] & hands[2])
        assert not (hands[0] & hands[2])
        audit.check(host, "the shared table")
        hinted = Hinted(host)
        decide_ = hinted.decide
        # The third person's tab closes after the first decision of the hand: the
        # computer player covers their seat while the others play on.
        decided = 0
        while decided == 0:
            decided += sum(decide_(p) for p in pages)
        third.close()
        pages = [host, second]
        expect(host.locator("#friends-seats")).to_contain_text("away", timeout=10_000)
        while decided < 3 and not all(over(p) for p in pages):
            acted = sum(decide_(p) for p in pages)
            decided += acted
            if not acted:
                host.wait_for_timeout(100)
        # Back, in the same browser: the seat is theirs again, where the hand stands.
        back = third_context.new_page()
        back.goto(link)
        expect(back.locator('#table[data-idle="true"]')).to_be_visible()
        expect(host.locator("#friends-seats")).not_to_contain_text("away", timeout=10_000)
        pages = [host, second, back]
        for _ in range(LIMIT):
            if all(over(p) or p.locator('#actions [data-ui="next-hand"]').count() for p in pages):
                break
            if not any(decide_(p) for p in pages):
                host.wait_for_timeout(100)
        else:
            raise AssertionError("the hand did not end")
        sheet = host.locator("#friends-status")
        expect(sheet).to_contain_text("The hand is over")
        # The host's hint is on everyone's score sheet, on the hand's line.
        assert hinted.asked
        second.keyboard.press("Escape")
        expect(second.locator("#dlg-summary[open]")).to_have_count(0)
        second.locator("#open-scores").click()
        expect(second.locator("#scores-body")).to_contain_text("Hostess (1 hint)")
    finally:
        for context, _ in people:
            context.close()
    audit.assert_clean()
