"""A new visitor plays the daily game to the end in Chromium and finds themself on
the leaderboard. The shared server of ``conftest.py`` with the daily game's settings (a
server of its own, for speed the standard computer players); the browser and the visitor
as in ``conftest.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from browser.conftest import Visitor
from browser.table import (
    Covered,
    click_decision,
    phase,
    play_hand_by_clicking,
    summary_open,
    wait_idle,
)

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
        if deal < 5:
            page.locator("#summary-next").click()
            wait_idle(page)
    expect(page.locator("#summary-next")).to_have_text("See the leaderboard")
    page.locator("#summary-next").click()
    page.wait_for_url("**/leaderboard")
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
    # Expected refusals (no attempt yet: 404; the refused name: 422) log a failed load.
    expected = ("status of 404", "status of 422")
    errors = [e for e in desktop.errors if not any(x in e for x in expected)]
    assert not errors, errors
