"""The coach's review of a past day's daily deal in Chromium: refused while the day
runs; once it is over, the day's page links each deal the player played, and the
review fills and says where the expert in the player's seat would have ended. axe
finds nothing on it. The server (its own, with a daily clock the test moves) is the
archive test's."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from browser.a11y import AXE, new_context
from browser.helpers import Visitor
from browser.test_a11y import axe_violations
from browser.test_daily_archive_browser import CLOCK, DAY, NOON, play_on, server  # noqa: F401
from sheepshead import daily_game

pytestmark = pytest.mark.browser


def test_a_past_days_deal_is_reviewed_with_the_expert_in_my_seat(
    browser: Browser,
    server: str,  # noqa: F811
    artifacts: Path,
) -> None:
    context = new_context(browser, server, axe=AXE.exists())
    desktop = Visitor(context, server)
    api = context.request
    CLOCK.now = NOON
    started = api.post("/api/v1/daily/attempts")
    assert started.ok, started.text()
    state = play_on(desktop, started.json()["state"])
    url = f"/api/v1/daily/attempts/{state['id']}/deals/1/review"
    refused = api.post(url)
    assert refused.status == 409
    assert "until the day is over" in refused.json()["detail"]
    CLOCK.now = daily_game.day_end(NOON.date()) + timedelta(hours=1)
    page = desktop.new_page()
    page.goto(f"/daily/{DAY}")
    reviews = page.locator("#daily-reviews")
    expect(reviews.get_by_role("link")).to_have_count(5)
    reviews.get_by_role("link", name="Review deal 1").click()
    expect(page).to_have_url(f"{page.url.split('/daily/')[0]}/daily/{DAY}/deals/1/review")
    expect(page.locator("#review-status")).to_contain_text("The review is ready", timeout=90_000)
    expert = page.locator("#review-expert")
    expect(expert).to_be_visible()
    expect(expert).to_contain_text("the expert in your seat would have scored")
    expect(page.locator("#review-list li").first).to_be_visible()
    page.screenshot(path=str(artifacts / "daily-review.png"))
    if AXE.exists():
        assert axe_violations(page) == []
    # The day's page now shows the expert's points beside the player's.
    page.goto(f"/daily/{DAY}")
    expect(page.locator("#daily-reviews li").first).to_contain_text("the expert in your seat")
    assert desktop.errors == []
    context.close()
