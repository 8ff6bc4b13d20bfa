"""The table tells the whole story, on a phone (360x740) and a laptop (1280x800): the
hand and the prompt on the screen whenever the player must act (the table and the
daily page), what the hand counts after a crack, the unknown card explained when it is
led and named after the hand, dialogs that open at their top, nothing wider than the
screen, links that check each hand's deal, and every word of the table said in German
and Bengali. States the dealing rarely gives are made by the engine (``positions``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser import positions
from browser.helpers import DESKTOP, PHONE, Visitor, visitor_for
from browser.table import (
    Covered,
    click_decision,
    deal_first,
    no_horizontal_scroll,
    shot,
    summary_open,
    wait_idle,
)
from sheepshead.cards import Card

pytestmark = pytest.mark.browser

IN_VIEW = """() => {
  const inside = (r) =>
    r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  const cards = [...document.querySelectorAll('#hand .card')].map((c) => c.getBoundingClientRect());
  const prompt = document.getElementById('prompt').getBoundingClientRect();
  return {
    cards: cards.length, cardsInside: cards.every(inside), promptInside: inside(prompt),
    handBottom: Math.max(0, ...cards.map((c) => c.bottom)), promptTop: prompt.top,
    height: innerHeight,
  };
}"""


@pytest.fixture
def visitor(request: pytest.FixtureRequest, browser: Any, server: str) -> Any:
    yield from visitor_for(browser, server, request.param)


def check_in_view(page: Page, where: str) -> None:
    seen = page.evaluate(IN_VIEW)
    assert seen["cards"] > 0, where
    assert seen["cardsInside"], f"{where}: {seen}"
    assert seen["promptInside"], f"{where}: {seen}"
    no_horizontal_scroll(page)


def start_daily(page: Page) -> None:
    """The daily page: nothing is dealt until its Start button is pressed."""
    page.goto("/daily")
    page.get_by_role("button", name="Start today's game").click()
    wait_idle(page)


@pytest.mark.parametrize("visitor", [PHONE, DESKTOP], indirect=True, ids=["phone", "desktop"])
def test_the_hand_and_the_prompt_are_in_view_at_every_decision(
    visitor: Visitor, artifacts: Path
) -> None:
    page = visitor.new_page()
    size = "phone" if page.viewport_size == PHONE else "desktop"
    page.goto("/play")
    deal_first(page)
    covered = Covered()
    for _ in range(40):
        wait_idle(page)
        if summary_open(page):
            break
        check_in_view(page, f"/play {page.get_attribute('#table', 'data-phase')}")
        click_decision(page, covered, artifacts, f"story-{size}")
    assert summary_open(page), "the hand did not end"
    # The daily page has its bar above the table: the decision is on the screen all the same.
    start_daily(page)
    check_in_view(page, "/daily")
    shot(page, artifacts, f"story-{size}-daily")
    # The next day's start in Chicago's time and the reader's, each with its zone.
    expect(page.locator("#daily-next")).to_have_text(
        re.compile(r"12:00\s?AM C[SD]T in Chicago \(.+ (UTC|GMT\S*)\)")
    )
    # The daily game's settings change only the display: no house rule, no new game.
    page.locator("#open-settings").click()
    dialog_at_top(page, "#dlg-settings")
    expect(page.locator("#set-pace")).to_be_visible()
    for hidden in ("#set-preset", "#set-players", "#settings-new", "[name=cracking]"):
        expect(page.locator(hidden)).to_be_hidden()
    page.keyboard.press("Escape")
    assert visitor.errors == []


def test_a_new_browser_names_the_standard_rules_and_turns_the_aids_on(
    browser: Any, server: str
) -> None:
    for saved in (None, {"fourColour": False, "markTrumps": False, "level": "expert"}):
        for visitor in visitor_for(browser, server, DESKTOP):
            if saved is not None:
                text = json.dumps(json.dumps(saved))
                visitor.context.add_init_script(
                    f"localStorage.setItem('sheepshead.settings.v1', {text})"
                )
            page = visitor.new_page()
            page.goto("/play")
            deal_first(page)
            page.locator("#open-settings").click()
            form = page.locator("#settings-form")
            aids = saved is None
            assert form.locator("#set-preset").input_value() == "standard"
            expect(form.locator("[name=fourColour]")).to_be_checked(checked=aids)
            expect(form.locator("[name=markTrumps]")).to_be_checked(checked=aids)
            assert page.evaluate("document.body.classList.contains('four-colour')") is aids
            # Trumps (queens, jacks, diamonds) carry their gold corner only with the mark on.
            cards = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
            trumps = [c for c in cards if c[0] in "QJ" or c[1] == "D"]
            expect(page.locator("#hand .card .tmark")).to_have_count(len(trumps) if aids else 0)
            if saved is not None:
                # Settings once saved are read, never rewritten.
                stored = page.evaluate("localStorage.getItem('sheepshead.settings.v1')")
                assert json.loads(stored) == saved
            assert visitor.errors == []


def dialog_at_top(page: Page, dialog: str) -> None:
    """The dialog is open, scrolled to its top, its title on the screen."""
    expect(page.locator(f"{dialog}[open]")).to_be_visible()
    assert page.evaluate(f"document.querySelector('{dialog}').scrollTop") == 0, dialog
    title = page.locator(f"{dialog} h2").first.bounding_box()
    assert title is not None, dialog
    assert title["y"] >= 0, dialog


@pytest.mark.parametrize("visitor", [PHONE, DESKTOP], indirect=True, ids=["phone", "desktop"])
def test_a_crack_and_the_unknown_card_are_told(visitor: Visitor, artifacts: Path) -> None:
    page = visitor.new_page()
    size = "phone" if page.viewport_size == PHONE else "desktop"
    # Bob cracked: the table says what the hand counts, and why.
    positions.serve(page, positions.cracked())
    page.goto("/play")
    deal_first(page)
    expect(page.locator("#points .times")).to_have_text("Counts ×2: Bob cracked")
    expect(page.locator("#info")).to_contain_text("counts ×2")
    check_in_view(page, "after a crack")
    shot(page, artifacts, f"story-{size}-cracked")
    # Ann led her unknown card face down: the player is told why hearts must follow.
    page.unroute("**/api/v1/games")
    page.unroute("**/api/v1/games/current")
    positions.serve(page, positions.unknown_led())
    page.reload()
    wait_idle(page)
    expect(page.locator("#prompt")).to_have_text(
        "Ann led the unknown card face down: it counts as one of the hearts, "
        "so follow hearts if you can."
    )
    check_in_view(page, "the unknown card led")
    # The hand is over: the summary names the unknown card, at its top on any screen.
    page.unroute("**/api/v1/games")
    page.unroute("**/api/v1/games/current")
    over = positions.unknown_over()
    unknown = Card.parse(over["view"]["unknown"])
    positions.serve(page, over)
    page.reload()
    wait_idle(page)
    page.locator('#actions [data-ui="summary"]').click()
    dialog_at_top(page, "#dlg-summary")
    summary = page.locator("#dlg-summary")
    expect(summary.locator(".unknown-card")).to_contain_text(
        f"the {unknown.name}, played face down for the ace of hearts"
    )
    no_horizontal_scroll(page)
    shot(page, artifacts, f"story-{size}-summary")
    # The review marks the face-down card where it was played.
    page.locator("#summary-review").click()
    dialog_at_top(page, "#dlg-review")
    page.locator("#review-next").click()
    down = page.locator(f'#dlg-review .trick-list li.face-down[data-card="{unknown.text}"]')
    expect(down).to_contain_text("face down")
    expect(down.locator(".sr-only")).to_contain_text("played face down as the unknown card")
    page.keyboard.press("Escape")
    # The score sheet opens at its top, says when it is wider than the screen, and
    # links the hand to the verify page with the fingerprint shown at the deal.
    page.locator("#open-scores").click()
    dialog_at_top(page, "#dlg-scores")
    wide = page.evaluate(
        "(b => b.scrollWidth > b.clientWidth)(document.getElementById('scores-body'))"
    )
    expect(page.locator("#scores-scroll-note")).to_be_visible(visible=wide)
    link = page.locator("#dlg-scores tbody th a")
    assert f"sha256={over['seed_sha256']}" in (link.get_attribute("href") or "")
    link.click()
    expect(page.locator("#verify-verdict")).to_have_text(
        "It matches the fingerprint shown at the deal."
    )
    expect(page.locator(".deal-seat").nth(0)).to_have_text("You")
    expect(page.locator(".deal-seat").nth(1)).to_have_text("Ann")
    no_horizontal_scroll(page)
    # A fingerprint that is not the seed's is said not to match.
    page.goto(f"/verify?seed={over['seed']}&players=5&sha256={'0' * 64}")
    expect(page.locator("#verify-verdict")).to_contain_text("does not match")
    assert visitor.errors == []


# --- every word in the page's language -----------------------------------------------

TEXTS = """() => {
  const path = (el) => {
    const parts = [];
    for (; el && el !== document.body; el = el.parentElement) {
      parts.push(el.tagName + (el.parentElement ? [...el.parentElement.children].indexOf(el) : 0));
    }
    return parts.reverse().join('/');
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (!text || el.closest('script, style, svg, .site-header, .site-footer')) continue;
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    out.push([path(el) + '#' + [...el.childNodes].indexOf(node), text]);
  }
  for (const el of document.querySelectorAll('#table [aria-label], dialog[open] [aria-label]')) {
    if (el.checkVisibility()) out.push([path(el) + '@', el.getAttribute('aria-label')]);
  }
  return out;
}"""

# What a translation keeps: the players' names, the game's own words German keeps
# (docs/i18n.md), card indices, numbers and fingerprints.
KEPT = re.compile(
    r"\b(?:Ann|Bob|Cal|Dot|Eve|Blind|Leaster|Partner|Schneider|Standard|Normal|SHA-256)\b"
    r"|(?:10|[2-9JQKA])[♣♠♥♦]|\b[0-9a-f]{8,}\b|[\d০-৯]+"
)


def texts(page: Page) -> dict[str, str]:
    return dict(page.evaluate(TEXTS))


def table_states(page: Page, lang: str) -> dict[str, str]:
    """Every text and label of the table in each state, and of each dialog, keyed by place."""
    seen: dict[str, str] = {}
    states = {
        "picking": positions.fresh(),
        "burying": positions.burying(),
        "cracked": positions.cracked(),
        "unknown": positions.unknown_led(),
        "over": positions.unknown_over(),
    }
    for name, state in states.items():
        page.unroute("**/api/v1/games")
        page.unroute("**/api/v1/games/current")
        positions.serve(page, state)
        page.goto(f"/play?lang={lang}")
        deal_first(page)
        seen.update({f"{name} {k}": v for k, v in texts(page).items()})
        dialogs = [("#open-settings", "settings"), ("#open-last", "last")]
        if name == "over":
            dialogs += [('#actions [data-ui="summary"]', "summary"), ("#open-scores", "scores")]
        for opener, dialog in dialogs:
            page.locator(opener).click()
            seen.update({f"{name} {dialog} {k}": v for k, v in texts(page).items()})
            page.keyboard.press("Escape")
        if name == "over":
            page.locator('#actions [data-ui="review"]').click()
            page.locator("#review-next").click()
            seen.update({f"{name} review {k}": v for k, v in texts(page).items()})
            page.keyboard.press("Escape")
    return seen


@pytest.mark.parametrize(
    ("lang", "visitor"), [("bn", PHONE), ("de", DESKTOP)], indirect=["visitor"], ids=["bn", "de"]
)
def test_every_word_of_the_table_is_in_the_pages_language(
    visitor: Visitor, lang: str, artifacts: Path
) -> None:
    page = visitor.new_page()
    english = table_states(page, "en")
    translated = table_states(page, lang)
    shot(page, artifacts, f"story-{lang}-review")
    assert english.keys() == translated.keys()
    left = {
        place: text
        for place, text in translated.items()
        if text == english[place] and re.search(r"[A-Za-z]", KEPT.sub("", text))
    }
    assert left == {}, f"English left in {lang}: {left}"
    assert len(translated) > 200
    assert visitor.errors == []
