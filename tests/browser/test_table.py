"""A visitor at the table: a whole hand by clicking (desktop and phone), by keyboard
alone, a reload in the middle of a hand, a second tab, and a lost connection."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from browser.helpers import DESKTOP, Visitor, run_out_the_retries
from browser.table import (
    Covered,
    deal_first,
    next_hand,
    no_horizontal_scroll,
    phase,
    play_hand_by_clicking,
    play_hand_by_keyboard,
    shot,
    visible_cards,
    wait_idle,
)
from sheepshead.cards import Card, sorted_for_display

pytestmark = pytest.mark.browser

# Hands to try before the player has picked, buried and called at least once.
HANDS_TO_COVER = 6


def open_table(page: Page) -> None:
    page.goto("/")
    page.get_by_role("link", name="Play now").click()
    expect(page).to_have_url(re.compile(r"/play$"))
    deal_first(page)


def play_until_picked(page: Page, covered: Covered, artifacts: Path, prefix: str) -> None:
    for _ in range(HANDS_TO_COVER):
        play_hand_by_clicking(page, covered, artifacts, prefix)
        if covered.picked_buried_called:
            return
        next_hand(page)
    raise AssertionError(f"in {HANDS_TO_COVER} hands the player never picked and called")


def check_summary(page: Page, visitor: Visitor, artifacts: Path, prefix: str) -> None:
    dialog = page.locator("#dlg-summary")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".result-line")).to_contain_text("Your total")
    # Every seat's game points, this hand and in total.
    assert dialog.locator("tbody tr").count() == len(page.locator("#seats .seat").all()) + 1
    shot(page, artifacts, f"{prefix}-summary")
    # The hand record downloads and is a hand record.
    href = dialog.locator("#summary-record").get_attribute("href") or ""
    reply = visitor.context.request.get(visitor.base + href)
    assert reply.ok, reply.status
    record = json.loads(reply.body())
    assert record["format"] == "sheepshead-hand/1"
    assert len(record["actions"]) > 0
    # The review shows every hand face up, then steps through the tricks.
    page.locator("#summary-review").click()
    review = page.locator("#dlg-review")
    expect(review).to_be_visible()
    seats = review.locator(".review-seat")
    assert seats.count() >= len(record["hands"])
    page.locator("#review-next").click()
    expect(review.locator(".review-status")).to_contain_text("Trick 1 of")
    shot(page, artifacts, f"{prefix}-review")
    page.keyboard.press("Escape")
    expect(review).not_to_be_visible()
    # The score sheet lists the hand.
    page.locator("#open-scores").click()
    expect(page.locator("#dlg-scores tbody tr")).not_to_have_count(0)
    shot(page, artifacts, f"{prefix}-scores")
    page.keyboard.press("Escape")


def test_a_new_visitor_plays_a_hand_by_clicking(desktop: Visitor, artifacts: Path) -> None:
    page = desktop.new_page()
    open_table(page)
    shot(page, artifacts, "desktop-start")
    covered = Covered()
    play_until_picked(page, covered, artifacts, "desktop")
    assert {"pick", "bury", "call", "play"} <= covered.kinds
    # Each play was announced in words in the live region.
    log = page.locator("#log").inner_text()
    assert re.search(r"(plays|play) the (seven|eight|nine|ten|jack|queen|king|ace) of", log), log
    assert "the trick" in log
    check_summary(page, desktop, artifacts, "desktop")
    # The revealed seed deals the same cards again on the verify page.
    fairness = page.locator("#dlg-summary .fairness code.hash")
    sha, seed = fairness.nth(0).inner_text(), fairness.nth(1).inner_text()
    check = page.context.new_page()
    check.goto(f"/verify?seed={seed}&players=5")
    expect(check.locator("#verify-result code.hash")).to_have_text(sha)
    expect(check.locator("#verify-result .mini-cards")).to_have_count(6)
    shot(check, artifacts, "verify")
    check.close()
    # The next hand is dealt at the same table: the deal passes left.
    next_hand(page)
    expect(page.locator("#info")).to_contain_text("Hand ")
    assert phase(page) != "over"
    assert desktop.errors == []


def test_a_phone_visitor_plays_a_hand(phone: Visitor, artifacts: Path) -> None:
    page = phone.new_page()
    open_table(page)
    no_horizontal_scroll(page)
    # Cards are big enough to tap.
    box = page.locator("#hand .card").first.bounding_box()
    assert box is not None
    assert box["width"] >= 44
    assert box["height"] >= 44
    shot(page, artifacts, "phone-start")
    covered = Covered()
    play_until_picked(page, covered, artifacts, "phone")
    check_summary(page, phone, artifacts, "phone")
    no_horizontal_scroll(page)
    assert phone.errors == []


def test_a_hand_with_the_keyboard_alone(desktop: Visitor, artifacts: Path) -> None:
    page = desktop.new_page()
    page.goto("/play")
    deal_first(page)
    covered = Covered()
    play_hand_by_keyboard(page, covered)
    assert "play" in covered.kinds
    # The summary took the focus; Escape closes it and focus lands on a control.
    active = page.evaluate("document.activeElement.closest('dialog')?.id")
    assert active == "dlg-summary"
    shot(page, artifacts, "keyboard-summary")
    page.keyboard.press("Escape")
    next_button = page.locator('#actions [data-ui="next-hand"]')
    expect(next_button).to_be_focused()
    page.keyboard.press("Enter")
    wait_idle(page)
    expect(page.locator("#info")).to_contain_text("Hand 2")
    assert desktop.errors == []


def test_a_reload_in_the_middle_of_a_hand_resumes_it(desktop: Visitor, artifacts: Path) -> None:
    page = desktop.new_page()
    page.goto("/play")
    deal_first(page)
    covered = Covered()
    # Play until the player has played a card (and so the hand is well under way).
    from browser.table import click_decision

    for _ in range(20):
        if "play" in covered.kinds:
            break
        click_decision(page, covered, artifacts, "reload")
        wait_idle(page)
    assert "play" in covered.kinds
    assert phase(page) == "playing"
    cards = visible_cards(page)
    trick = page.locator("#trick .played").evaluate_all("ps => ps.map(p => p.dataset.card)")
    info = page.locator("#info").inner_text()
    page.reload()
    wait_idle(page)
    assert visible_cards(page) == cards
    assert page.locator("#trick .played").evaluate_all("ps => ps.map(p => p.dataset.card)") == trick
    assert page.locator("#info").inner_text() == info
    shot(page, artifacts, "reload-resumed")
    # And play goes on from there.
    page.locator("#hand .card.live").first.click()
    wait_idle(page)
    assert len(visible_cards(page)) == len(cards) - 1 or page.locator("#dlg-summary[open]").count()
    assert desktop.errors == []


def test_a_stale_second_tab_redraws_without_an_error(desktop: Visitor) -> None:
    first = desktop.new_page()
    first.goto("/play")
    deal_first(first)
    second = desktop.new_page()
    second.goto("/play")
    deal_first(second)
    assert phase(first) == phase(second) == "picking"
    first.get_by_role("button", name="Pass").click()
    wait_idle(first)
    # The second tab still shows the old decision; acting on it gets 409 and a redraw.
    second.get_by_role("button", name="Pass").click()
    wait_idle(second)
    assert phase(second) == phase(first)
    assert visible_cards(second) == visible_cards(first)
    assert second.locator("#hint").inner_text() == ""
    real = [e for e in desktop.errors if "409" not in e]
    assert real == []


def test_a_lost_connection_is_retried_then_reported(desktop: Visitor) -> None:
    page = desktop.new_page()
    page.clock.install()  # time flows as ever, and the test may move it on
    page.goto("/play")
    deal_first(page)
    failures = {"left": 2}

    def flaky(route: Route) -> None:
        if failures["left"] > 0:
            failures["left"] -= 1
            route.abort()
        else:
            route.continue_()

    # Two dropped attempts: retried quietly, the action goes through.
    page.route("**/api/v1/games/*/actions", flaky)
    page.get_by_role("button", name="Pass").click()
    wait_idle(page)
    assert failures["left"] == 0
    assert phase(page) != "picking" or page.get_by_role("button", name="Pass").count() == 0
    page.unroute("**/api/v1/games/*/actions")
    # The server unreachable: the player is told, and nothing is lost.
    wait_idle(page)
    dropped: list[str] = []

    def unreachable(route: Route) -> None:
        dropped.append(route.request.url)
        route.abort()

    page.route("**/api/v1/games/*/**", unreachable)
    before = visible_cards(page)
    control = page.locator("#actions button, #hand .card.live").first
    control.click()
    run_out_the_retries(page, page.get_by_role("button", name="Try again"), dropped)
    expect(page.locator("#prompt")).to_contain_text("connection")
    assert visible_cards(page) == before
    page.unroute("**/api/v1/games/*/**")
    page.get_by_role("button", name="Try again").click()
    wait_idle(page)
    expect(page.get_by_role("button", name="Try again")).to_have_count(0)
    errors = [e for e in desktop.errors if "ERR_FAILED" not in e and "Failed to fetch" not in e]
    assert errors == []


def test_settings_are_remembered_and_start_a_new_game(desktop: Visitor, artifacts: Path) -> None:
    page = desktop.new_page()
    page.goto("/play")
    deal_first(page)
    page.get_by_role("button", name="Settings").click()
    dialog = page.locator("#dlg-settings")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Players", exact=True).select_option("3")
    # Only the partner rules the head count allows are offered.
    assert dialog.locator('#set-partner option[value="called-ace"]').is_disabled()
    dialog.get_by_label("Computer players").select_option("beginner")
    dialog.get_by_label("Four-colour deck").check()
    shot(page, artifacts, "settings")
    dialog.get_by_role("button", name="Save and start a new game").click()
    wait_idle(page)
    expect(page.locator("#seats .seat")).to_have_count(2)
    assert page.evaluate("document.body.classList.contains('four-colour')")
    page.reload()
    wait_idle(page)
    expect(page.locator("#seats .seat")).to_have_count(2)
    page.get_by_role("button", name="Settings").click()
    assert dialog.get_by_label("Players", exact=True).input_value() == "3"
    assert dialog.get_by_label("Computer players").input_value() == "beginner"
    page.keyboard.press("Escape")
    no_horizontal_scroll(page)
    assert desktop.errors == []


def test_the_pages_work_under_a_strict_content_security_policy(
    desktop: Visitor, artifacts: Path
) -> None:
    page = desktop.new_page()
    for path in ("/", "/verify", "/play"):
        reply = page.goto(path)
        assert reply is not None
        assert reply.ok
        html = reply.text()
        # A JSON data block (the catalogs, #phrases, #rules-catalog) is not run: CSP-free.
        inline = r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>"
        assert not re.search(inline, html), f"inline script on {path}"
        assert " style=" not in html, f"inline style on {path}"
        assert "<style" not in html, f"inline style on {path}"
    wait_idle(page)
    shot(page, artifacts, "csp-table")
    assert desktop.errors == [], desktop.errors


def test_plays_are_animated_and_can_be_hurried(browser: Browser, server: str) -> None:
    context = browser.new_context(
        viewport=DESKTOP, base_url=server, reduced_motion="no-preference", service_workers="block"
    )
    slow = json.dumps({"pace": "slow"})
    context.add_init_script(f"localStorage.setItem('sheepshead.settings.v1', {json.dumps(slow)})")
    try:
        page = context.new_page()
        page.goto("/play")
        deal_first(page)
        page.get_by_role("button", name="Pass").click()
        # The computer players' moves are shown one by one, at the pace the player chose.
        page.wait_for_timeout(400)
        assert page.get_attribute("#table", "data-idle") == "false"
        shown = page.locator("#log p").count()
        # Escape hurries the rest along.
        page.keyboard.press("Escape")
        expect(page.locator("#table")).to_have_attribute("data-idle", "true", timeout=3_000)
        assert page.locator("#log p").count() > shown >= 1
    finally:
        context.close()


# --- the review of a finished hand ---------------------------------------------------


def finished_hand(visitor: Visitor, page: Page, artifacts: Path) -> dict[str, object]:
    """Click through a hand until its summary opens; the state as the server sent it."""
    play_hand_by_clicking(page, Covered(), artifacts, "review")
    reply = visitor.context.request.get(visitor.base + "/api/v1/games/current")
    assert reply.ok, reply.status
    state: dict[str, object] = reply.json()
    assert state["hand_over"] is True
    return state


def review_rows(page: Page) -> list[list[str]]:
    """Each seat's row of cards in the review, as the page shows them."""
    return [
        row.locator(".mini").evaluate_all("ms => ms.map(m => m.dataset.card)")
        for row in page.locator("#dlg-review .review-seat").all()
    ]


def test_the_review_sorts_each_hand_and_steps_through_the_tricks(
    desktop: Visitor, artifacts: Path
) -> None:
    page = desktop.new_page()
    page.goto("/play")
    deal_first(page)
    state = finished_hand(desktop, page, artifacts)
    summary = state["summary"]
    assert isinstance(summary, dict)
    result = summary["result"]
    names = state["names"]
    assert isinstance(names, list)
    page.locator("#summary-review").click()
    review = page.locator("#dlg-review")
    expect(review).to_be_visible()
    # Every hand sorted as the table sorts the player's own (the server's display
    # order: trump high to low, then clubs, spades, hearts), the picker's with the blind.
    rows = review_rows(page)
    for seat, dealt in enumerate(summary["hands"]):
        held = [*dealt, *summary["blind"]] if seat == result["picker"] else dealt
        assert rows[seat] == [c.text for c in sorted_for_display(Card.parse(x) for x in held)]
    if result["picker"] is None:
        blind = [c.text for c in sorted_for_display(Card.parse(x) for x in summary["blind"])]
        assert rows[-1] == blind
    # The tricks in the order played: who led, each card from the leader on, who won.
    tricks = result["tricks"]
    prev, forward = page.locator("#review-prev"), page.locator("#review-next")
    expect(prev).to_have_attribute("aria-disabled", "true")
    for n, trick in enumerate(tricks, start=1):
        forward.click()
        status = review.locator(".review-status")
        expect(status).to_contain_text(f"Trick {n} of {len(tricks)}: {names[trick['leader']]} led;")
        shown = review.locator(".trick-list li")
        assert shown.evaluate_all("ls => ls.map(l => l.dataset.card)") == trick["cards"]
        assert shown.locator(".who").all_inner_texts()[0] == names[trick["leader"]]
        won = review.locator(".trick-list li.won .who")
        expect(won).to_have_text(names[trick["winner"]])
        # Cards already played are marked so, and the rows keep their order.
        assert review_rows(page) == rows
        if n == 1:
            page.set_viewport_size({"width": 390, "height": 844})
            shot(page, artifacts, "review-trick-390")
            page.set_viewport_size(DESKTOP)
            shot(page, artifacts, "review-trick-1280")
    expect(forward).to_have_attribute("aria-disabled", "true")
    prev.click()
    expect(review.locator(".review-status")).to_contain_text(f"Trick {len(tricks) - 1} of")
    assert desktop.errors == []


# --- running card points ---------------------------------------------------------------


def play_until_points_show(page: Page, artifacts: Path) -> str:
    """Play until the running card points are on the table (the sides known, or a
    leaster), with at least two tricks taken; the line shown."""
    from browser.table import click_decision

    covered = Covered()
    for _ in range(HANDS_TO_COVER * 40):
        wait_idle(page)
        if page.locator("#dlg-summary[open]").count():
            next_hand(page)
            continue
        line = page.locator("#points").inner_text()
        # Five-handed, six cards each: four left in hand, two tricks are taken.
        if phase(page) == "playing" and line and page.locator("#hand .card").count() <= 4:
            return line
        click_decision(page, covered, artifacts, "points")
    raise AssertionError("the running card points never showed")


def test_the_running_points_are_rebuilt_by_a_reload_and_a_fresh_tab(
    desktop: Visitor, artifacts: Path
) -> None:
    page = desktop.new_page()
    page.goto("/play")
    deal_first(page)
    line = play_until_points_show(page, artifacts)
    assert re.search(r"\d", line), line
    # A fresh tab on the same game shows exactly what this tab shows.
    fresh = desktop.new_page()
    fresh.goto("/play")
    deal_first(fresh)
    assert fresh.locator("#points").inner_text() == line
    shot(fresh, artifacts, "points-fresh-tab")
    fresh.close()
    # So does this tab reloaded, with its own storage cleared.
    page.evaluate("() => sessionStorage.clear()")
    page.reload()
    wait_idle(page)
    assert page.locator("#points").inner_text() == line
    assert desktop.errors == []
