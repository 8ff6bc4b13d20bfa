"""Your games (/me) in the browser: the statistics page of a player with hands and daily
days renders at 360 px and 1280 px in English, German and Bengali, nothing spills out
sideways, the charts' tables are there for screen readers, and axe finds nothing."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import insert

from browser.a11y import new_context
from browser.helpers import DESKTOP, PHONE, SERVED
from browser.test_a11y import Audit
from sheepshead import daily_game as daily
from sheepshead.server.identity import COOKIE
from sheepshead.store.daily_models import DailyAttempt, DailyDay, DailyResult
from sheepshead.store.stats import count_day

pytestmark = pytest.mark.browser

WORDS = {"en": "Your games", "de": "Deine Spiele", "bn": "আপনার খেলা"}

# The shown column names with a word (or, German, a part between soft hyphens) wider
# than its column: a name the table broke inside a word ("Hand|s").
BROKEN_COLUMN_NAMES = """() => {
  const measure = document.createElement("canvas").getContext("2d");
  const broken = [];
  for (const th of document.querySelectorAll(".me-page thead th")) {
    if (!th.offsetParent) continue;
    const style = getComputedStyle(th);
    // Not style.font: a numeric column's tabular figures leave that shorthand empty.
    measure.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = th.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    for (const word of th.textContent.split(/[\\s\u00ad]+/)) {
      if (word && measure.measureText(word).width > room + 1) broken.push(word);
    }
  }
  return broken;
}"""
# Whether the history's columns up to the game points show without scrolling its region
# (the last, "See it", may need a scroll when a result is a long word: "schneidered").
POINTS_SHOWN = """() => {
  const table = document.querySelector("table.me-history");
  const region = table.parentElement.getBoundingClientRect();
  const points = table.querySelectorAll("thead th")[4];
  return points.getBoundingClientRect().right <= region.right + 1;
}"""


def play_two_hands(page: Page) -> None:
    """Two hands of free play through the API, in this browser's identity."""
    reply = page.request.post("/api/v1/games", data={})
    state = reply.json()["state"]
    base = f"/api/v1/games/{state['id']}"
    while not (state["hand_over"] and state["hand_number"] == 2):
        if state["hand_over"]:
            reply = page.request.post(f"{base}/next-hand", data={"version": state["version"]})
        else:
            legal = state["view"]["legal"]
            body = {"action": legal[state["version"] % len(legal)], "version": state["version"]}
            reply = page.request.post(f"{base}/actions", data=body)
        assert reply.ok, reply.text()
        state = reply.json()["state"]


def past_days(server: str, player: str, days: int) -> None:
    """Daily days played before today, as their finished attempts leave them."""
    engine = SERVED[server].state.engine
    today = daily.day_of(datetime.now(UTC))
    now = datetime.now(UTC)
    with engine.begin() as conn:
        for k in range(days, 0, -1):
            day = today - timedelta(days=k * 2 if k > 3 else k)
            if conn.execute(DailyDay.__table__.select().where(DailyDay.day == day)).first():
                continue
            conn.execute(
                insert(DailyDay).values(
                    day=day,
                    commitment="0" * 64,
                    bot_version="test",
                    field=10,
                    created_at=now,
                    ended_at=now,
                )
            )
            attempt = secrets.token_hex(16)
            conn.execute(
                insert(DailyAttempt).values(
                    id=attempt,
                    player_id=player,
                    day=day,
                    number=1,
                    ranked=True,
                    moves=[],
                    version=1,
                    finished=True,
                    flagged=False,
                    created_at=now,
                    updated_at=now,
                )
            )
            conn.execute(
                insert(DailyResult).values(
                    day=day,
                    player_id=player,
                    attempt_id=attempt,
                    d1=1,
                    d2=-1,
                    d3=2,
                    d4=1,
                    d5=-2,
                    total=1,
                    marks=[9] * 5,
                    mp=45,
                    rank=1 + k % 10,
                    finished_at=now,
                )
            )
            count_day(conn, player, day, attempt)


def test_the_stats_page_renders_on_a_phone_and_a_desktop_in_three_languages(
    browser: Browser, server: str, artifacts: Path
) -> None:
    audit = Audit()
    context = new_context(browser, server, viewport=PHONE)
    try:
        page = context.new_page()
        play_two_hands(page)
        player = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)
        past_days(server, player, 8)
        for lang, word in WORDS.items():
            for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
                page.set_viewport_size(viewport)
                reply = page.goto(f"/me?lang={lang}")
                assert reply is not None
                assert reply.ok
                expect(page.locator("h1")).to_have_text(word)
                expect(page.locator("#me-hands-played")).to_have_text("2" if lang != "bn" else "২")
                expect(page.locator(".me-history tbody tr")).to_have_count(2)
                assert page.locator("svg.me-chart").count() == 3
                assert page.locator(".me-calendar rect.played").count() == 8
                assert page.locator("ul.me-days li").count() == 8
                # Each chart is hidden from screen readers, and said by a table.
                assert page.locator("svg[aria-hidden=true]").count() == 4
                assert page.locator("table[aria-labelledby=me-roles-title] tbody tr").count() == 5
                wide = page.evaluate("document.documentElement.scrollWidth > innerWidth")
                assert not wide, f"{lang} {size}: the page scrolls sideways"
                broken = page.evaluate(BROKEN_COLUMN_NAMES)
                assert not broken, f"{lang} {size}: column names broken inside a word: {broken}"
                # German's longer words scroll the history in its region; in the others
                # a phone shows each hand's game points at once.
                if lang != "de":
                    assert page.evaluate(POINTS_SHOWN), f"{lang} {size}: game points cut"
                audit.check(page, f"{lang} {size}")
                page.screenshot(path=str(artifacts / f"me-{lang}-{size}.png"), full_page=True)
    finally:
        context.close()
    audit.assert_clean()
