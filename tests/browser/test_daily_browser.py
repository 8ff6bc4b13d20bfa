"""A new visitor plays the daily game to the end in Chromium and finds themself on
the leaderboard. The shared server of ``conftest.py`` with the daily game's settings (a
server of its own, for speed the standard computer players); the browser and the visitor
as in ``conftest.py``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, Request, Route, expect

from browser.helpers import Visitor, run_out_the_retries
from browser.table import (
    Covered,
    click_decision,
    phase,
    play_hand_by_clicking,
    summary_open,
    wait_idle,
)
from sheepshead.server.identity import COOKIE

# Its own server: the leaderboard below must hold this visitor alone.
DAILY = {
    "daily_level": "standard",
    "rate_actions": None,
    "rate_actions_per_address": None,
}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.parametrize("server", [DAILY], indirect=True, ids=["daily"]),
]

# While the page shows a reply's events: a computer player's card is in the trick and
# the prompt says it ("North plays the ..."), and the page does not wait for the player.
BOT_PLAY_SHOWN = """() => {
  const bots = new Set([...document.querySelectorAll('#seats .seat')].map(s => s.dataset.seat));
  const played = [...document.querySelectorAll('#trick .played')].map(p => p.dataset.seat);
  return document.querySelector('#table').dataset.idle === 'false'
    && / plays the /.test(document.querySelector('#prompt').textContent)
    && played.some(seat => bots.has(seat));
}"""


def a_bot_play_is_shown_as_an_event(page: Page, covered: Covered, artifacts: Path) -> None:
    """Decide up to the player's first card, play it, and see the computer players'
    cards come one by one, as at the table; Escape hurries the rest along."""
    for _ in range(10):
        wait_idle(page)
        if phase(page) == "playing":
            break
        click_decision(page, covered, artifacts, "daily")
    assert phase(page) == "playing", phase(page)
    said = page.locator("#log p").count()
    page.locator("#hand .card.live").first.click()
    # At the first card of a deal someone still has to play after the player.
    page.wait_for_function(BOT_PLAY_SHOWN, timeout=5_000)
    log = page.locator("#log p").all_inner_texts()[said:]
    assert any(" plays the " in line for line in log), log
    page.keyboard.press("Escape")
    expect(page.locator("#table")).to_have_attribute("data-idle", "true", timeout=3_000)
    assert page.locator("#log p").count() > said + 1


def test_a_new_visitor_plays_the_daily_game_and_sees_themself_on_the_board(
    desktop: Visitor, artifacts: Path
) -> None:
    # The first deal's moves are shown at the slow pace, the rest with reduced motion.
    slow = json.dumps({"pace": "slow"})
    desktop.context.add_init_script(
        f"localStorage.setItem('sheepshead.settings.v1', {json.dumps(slow)})"
    )
    page = desktop.new_page()
    page.emulate_media(reduced_motion="no-preference")
    page.goto("/daily")
    expect(page.locator("#daily-title")).to_contain_text("Daily game")
    page.get_by_role("button", name="Start today's game").click()
    covered = Covered()
    for deal in range(1, 6):
        expect(page.locator("#daily-deal")).to_contain_text(f"Deal {deal} of 5")
        if deal == 1:
            a_bot_play_is_shown_as_an_event(page, covered, artifacts)
            page.emulate_media(reduced_motion="reduce")
        play_hand_by_clicking(page, covered, artifacts, "daily")
        assert summary_open(page)
        if deal == 1:
            page.screenshot(path=str(artifacts / "daily-summary.png"))
            # Today's deal stays sealed: no record to download, only the player's hand.
            expect(page.locator("#summary-record")).to_be_hidden()
            page.locator("#summary-review").click()
            expect(page.locator("#review-body .review-seat")).to_have_count(1)
            page.locator("#dlg-review form button").first.click()
            page.locator("#actions [data-ui=summary]").click()
        if deal < 5:
            page.locator("#summary-next").click()
            wait_idle(page)
    expect(page.locator("#summary-next")).to_have_text("See the leaderboard")
    # The result screen carries the streak and the countdown to the next day.
    expect(page.locator("#daily-streak")).to_contain_text("Your streak: 1 day in a row.")
    expect(page.locator("#daily-countdown")).to_contain_text("The next day starts in")
    # Played once, ranked: nothing offers a replay of today's deals.
    expect(page.get_by_role("button", name=re.compile("replay", re.I))).to_have_count(0)
    # So does the button on the table that takes the place of "Next hand".
    next_button = page.locator('#actions [data-ui="next-hand"]')
    expect(next_button).to_have_text("See the leaderboard")
    page.locator("#summary-next").click()
    page.wait_for_url("**/leaderboard")
    # One player: the deal-by-deal table lists the field's scores, not low, median and
    # high; and with no past day yet there is no heading over an empty list.
    expect(page.locator("#board-deals thead")).to_contain_text("The field's scores")
    expect(page.locator("#board-days-title")).to_be_hidden()
    me = page.locator("#board-rows tr.is-me")
    expect(me).to_have_count(1)
    expect(me).to_contain_text("(you)")
    expect(page.locator("#board-my-line")).to_contain_text("Rank 1 of 1")
    # A name with markup is refused with the reason; a plain one shows on the board.
    page.fill("#name-input", "<b>Badger</b>")
    page.click("#name-form button[type=submit]")
    expect(page.locator("#name-error")).to_contain_text("markup")
    page.fill("#name-input", "Badger Fan")
    page.click("#name-form button[type=submit]")
    expect(me).to_contain_text("Badger Fan")
    page.screenshot(path=str(artifacts / "daily-leaderboard.png"))
    # The one expected refusal (the refused name: 422) logs a failed load.
    errors = [e for e in desktop.errors if "status of 422" not in e]
    assert not errors, errors


def test_opening_the_daily_page_deals_nothing_until_start(phone: Visitor) -> None:
    """No attempt yet: the page learns it from /daily/today, shows the introduction and
    deals nothing (no attempt, no identity) until Start, without asking for an attempt
    it has not got (which would log a 404)."""
    page = phone.new_page()
    asked: list[str] = []

    def note(request: Request) -> None:
        if "/api/" in request.url:
            asked.append(request.method + " " + request.url.split("/api/v1", 1)[1])

    page.on("request", note)
    page.goto("/daily")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#daily-intro")).to_be_visible()
    expect(page.locator("#daily-intro")).to_contain_text("once")
    expect(page.locator("#table")).to_be_hidden()
    assert asked == ["GET /daily/today"], asked
    assert COOKIE not in {c["name"] for c in phone.context.cookies()}
    page.get_by_role("button", name="Start today's game").click()
    wait_idle(page)
    expect(page.locator("#daily-deal")).to_contain_text("Deal 1 of 5")
    expect(page.locator("#daily-intro")).to_be_hidden()
    assert "POST /daily/attempts" in asked
    assert COOKIE in {c["name"] for c in phone.context.cookies()}
    assert not any("/daily/attempts/current" in path for path in asked), asked
    assert phone.errors == []
    # Back on the page, the attempt in progress is resumed, still without an error.
    page.reload()
    wait_idle(page)
    expect(page.locator("#daily-deal")).to_contain_text("Deal 1 of 5")
    expect(page.locator("#daily-intro")).to_be_hidden()
    assert any("/daily/attempts/current" in path for path in asked), asked
    assert phone.errors == []


def test_start_waits_until_the_page_knows_there_is_nothing_to_resume(desktop: Visitor) -> None:
    """A quick press of Start while the page still asks whether there is an attempt to
    resume once dealt the first deal, and then the late answer put the introduction back
    over the table. Start is enabled only once that answer is in."""
    page = desktop.new_page()
    held: list[Route] = []
    page.route("**/api/v1/daily/today", lambda route: held.append(route))
    page.goto("/daily")
    start = page.get_by_role("button", name="Start today's game")
    expect(start).to_be_visible()
    page.wait_for_function("() => document.readyState === 'complete'")
    expect(start).to_be_disabled()
    assert len(held) == 1
    held[0].continue_()
    start.click()
    wait_idle(page)
    expect(page.locator("#daily-deal")).to_contain_text("Deal 1 of 5")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#daily-intro")).to_be_hidden()
    assert desktop.errors == []


def test_the_daily_page_offers_to_try_again_after_a_lost_connection(desktop: Visitor) -> None:
    page = desktop.new_page()
    page.clock.install()  # time flows as ever, and the test may move it on
    dropped: list[str] = []

    def unreachable(route: Route) -> None:
        dropped.append(route.request.url)
        route.abort()

    # The server unreachable from the start: the page says so and offers to try again.
    page.route("**/api/v1/daily/**", unreachable)
    page.goto("/daily")
    again = page.get_by_role("button", name="Try again")
    run_out_the_retries(page, again, dropped)
    expect(page.locator("#prompt")).to_contain_text("connection")
    page.unroute("**/api/v1/daily/**")
    again.click()
    page.get_by_role("button", name="Start today's game").click()
    wait_idle(page)
    expect(page.locator("#daily-deal")).to_contain_text("Deal 1 of 5")
    expect(again).to_have_count(0)
    # Lost in the middle of a deal: nothing is lost, and the action can be sent again.
    dropped.clear()
    page.route("**/api/v1/daily/attempts/*/**", unreachable)
    cards = "() => [...document.querySelectorAll('#hand .card')].map(c => c.dataset.card)"
    before = page.evaluate(cards)
    page.locator("#actions button, #hand .card.live").first.click()
    run_out_the_retries(page, again, dropped)
    expect(page.locator("#prompt")).to_contain_text("connection")
    assert page.evaluate(cards) == before
    page.unroute("**/api/v1/daily/attempts/*/**")
    again.click()
    wait_idle(page)
    expect(again).to_have_count(0)
    errors = [e for e in desktop.errors if "ERR_FAILED" not in e and "Failed to fetch" not in e]
    assert errors == []


def test_the_leaderboard_goes_to_yesterday_and_back(desktop: Visitor) -> None:
    page = desktop.new_page()
    page.goto("/leaderboard")
    today, yesterday = page.locator("#board-today"), page.locator("#board-yesterday")
    expect(page.locator("#board-title")).to_have_text("Today")
    expect(today).to_have_attribute("aria-current", "true")
    day = yesterday.get_attribute("data-date")
    yesterday.click()
    expect(page.locator("#board-date")).to_have_value(day or "")
    expect(page.locator("#board-title")).not_to_have_text("Today")
    expect(page.locator("#board-status")).to_contain_text("final")
    expect(yesterday).to_have_attribute("aria-current", "true")
    expect(today).not_to_have_attribute("aria-current", "true")
    assert page.url.endswith(f"/leaderboard?date={day}")
    today.click()
    expect(page.locator("#board-title")).to_have_text("Today")
    expect(today).to_have_attribute("aria-current", "true")
    assert desktop.errors == []


def test_the_name_form_shows_only_once_saving_works(phone: Visitor) -> None:
    """Until the page's script has taken the form, a click on Save would send it as a
    plain GET, reload the page and lose the name: so the form is not shown while the
    page still waits for /daily/me, and once shown, Save keeps the visitor on the page
    with the name saved."""
    page = phone.new_page()
    held: list[Route] = []
    page.route("**/api/v1/daily/me", lambda route: held.append(route))
    page.goto("/leaderboard")
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the page never asked for /daily/me"
    expect(page.locator("#board-title")).to_be_visible()
    expect(page.locator("#name-input")).to_be_hidden()
    for route in held:
        route.continue_()
    page.unroute("**/api/v1/daily/me")
    expect(page.locator("#name-input")).to_be_visible()
    page.fill("#name-input", "Patient Badger")
    with page.expect_response("**/api/v1/daily/me/name") as saved:
        page.click("#name-form button[type=submit]")
    assert saved.value.status == 200
    expect(page.locator("#name-error")).to_have_text("")
    # Nothing on the board moves for a player who has not finished the day: it says so.
    expect(page.locator("#name-saved")).to_have_text(
        "Saved: the board shows you as Patient Badger."
    )
    assert "name=" not in page.url
    reply = page.request.get("/api/v1/daily/me")
    assert reply.json()["name"] == "Patient Badger"
