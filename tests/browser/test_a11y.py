# ruff: noqa: F811  (the fixtures of a11y.py are imported, then named as arguments)
"""Every player welcome (WCAG 2.2 AA): axe-core finds nothing on any page or table
state, in every language the site speaks; the game can be played with the keyboard
alone, and tells each play, trick, partner and score in words; cards and buttons are
big enough to tap on a phone. Text at 200 %, reduced motion, colour and the felt's
contrast are ``test_a11y_visual.py``'s; what both share is ``a11y.py``.

axe-core is the npm package pinned in ``tests/browser/axe/package-lock.json``
(``make browser`` runs ``npm ci`` there); Playwright injects it into each page as it
opens (``add_init_script``, which a Content-Security-Policy does not stop).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from browser.a11y import (  # noqa: F401  (fixtures, used by name)
    AXE_TAGS,
    DESKTOP_PAGES,
    HANDS_TO_COVER,
    MIN_TARGET,
    PAGES,
    context,
    decide,
    lang,
    new_context,
    visit,
    watch,
)
from browser.helpers import DESKTOP, PHONE
from browser.table import (
    HAND_LIMIT,
    deal_first,
    focused,
    next_hand,
    phase,
    summary_open,
    wait_idle,
)

pytestmark = pytest.mark.browser

# --- axe ---------------------------------------------------------------------------


def axe_violations(page: Page) -> list[dict[str, Any]]:
    assert page.evaluate("typeof window.axe === 'object'"), "axe-core is not in the page"
    result: dict[str, Any] = page.evaluate(
        """tags => axe.run(document, {
            runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
        })""",
        AXE_TAGS,
    )
    return list(result["violations"])


class Audit:
    """axe (and ``also``, a check of our own) on each state; every finding is reported
    together at the end."""

    def __init__(self, also: Callable[[Page], list[str]] | None = None) -> None:
        self.found: dict[str, list[str]] = {}
        self.also = also

    def check(self, page: Page, state: str) -> None:
        lines = [f"  {problem}" for problem in (self.also(page) if self.also else [])]
        for v in axe_violations(page):
            lines.append(f"  {v['id']} ({v['impact']}): {v['help']}")
            for node in v["nodes"][:4]:
                why = " ".join(node["failureSummary"].splitlines()[1:2]).strip()
                lines.append(f"      {node['target']}: {why[:200]}")
        if lines:
            self.found[state] = lines

    def assert_clean(self) -> None:
        report = "\n".join(f"[{s}]\n" + "\n".join(lines) for s, lines in self.found.items())
        assert not self.found, f"axe found violations:\n{report}"


# --- the pages ---------------------------------------------------------------------


def test_every_page_has_no_axe_violation(browser: Browser, server: str, lang: str) -> None:
    """Every page on a phone, and in English one of each layout on a desktop."""
    audit = Audit()
    context = new_context(browser, server, lang=lang, viewport=PHONE)
    try:
        page = context.new_page()
        errors = watch(page)
        sizes = [("phone", PHONE, PAGES), ("desktop", DESKTOP, DESKTOP_PAGES)]
        # The layouts are the same in every language; only the words' lengths differ.
        for size, viewport, paths in sizes if lang == "en" else sizes[:1]:
            page.set_viewport_size(viewport)
            for path in paths:
                visit(page, path)
                assert (page.get_attribute("html", "lang") or "").startswith(lang), path
                audit.check(page, f"{size} {path}")
    finally:
        context.close()
    audit.assert_clean()
    assert errors == []


# --- the table, state by state -----------------------------------------------------


def check_table_states(page: Page, audit: Audit, size: str) -> set[str]:
    """Play hands by clicking until the player has picked, buried, called and played,
    checking each state (and each dialog) the first time it shows."""
    seen: set[str] = set()
    kinds: set[str] = set()

    def once(state: str) -> bool:
        if state in seen:
            return False
        seen.add(state)
        return True

    for _ in range(HANDS_TO_COVER):
        for _ in range(HAND_LIMIT):
            wait_idle(page)
            if summary_open(page):
                break
            now = phase(page)
            if once(now):
                audit.check(page, f"{size} {now}")
            if now == "start":
                deal_first(page)
                continue
            if now == "picking" and once("dialogs"):
                page.locator("#open-settings").click()
                expect(page.locator("#dlg-settings")).to_be_visible()
                audit.check(page, f"{size} settings dialog")
                page.keyboard.press("Escape")
                link = page.locator("#actions a.rule-link").first
                link.click()
                expect(page.locator("#dlg-rule #rule-body h2").first).to_be_visible()
                audit.check(page, f"{size} rule dialog")
                page.keyboard.press("Escape")
                expect(link).to_be_focused()
            if now == "burying" and once("bury-chosen"):
                page.locator('#hand .card.live[aria-pressed="false"]').first.click()
                audit.check(page, f"{size} burying, a card chosen")
            unknown = page.locator('#actions [data-ui="call-unknown"]')
            if now == "calling" and unknown.count() and once("unknown"):
                unknown.first.click()
                audit.check(page, f"{size} calling, choosing the unknown card")
                page.locator('#actions [data-ui="call-back"]').click()
            taken = page.locator("#trick .played").count() == 0 and "play" in kinds
            if now == "playing" and taken and once("last trick"):
                page.locator("#open-last").click()
                audit.check(page, f"{size} last trick dialog")
                page.keyboard.press("Escape")
            decide(page, kinds)
        if once("summary"):
            expect(page.locator("#dlg-summary")).to_be_visible()
            audit.check(page, f"{size} summary")
            page.locator("#summary-review").click()
            audit.check(page, f"{size} review")
            page.locator("#review-next").click()
            audit.check(page, f"{size} review, trick 1")
            page.keyboard.press("Escape")
            page.locator("#open-scores").click()
            audit.check(page, f"{size} score sheet")
            page.keyboard.press("Escape")
            audit.check(page, f"{size} hand over")
        if {"pick", "bury", "call", "play"} <= kinds:
            return seen
        next_hand(page)
    raise AssertionError(f"in {HANDS_TO_COVER} hands the player never picked and called: {kinds}")


def test_every_table_state_has_no_axe_violation(browser: Browser, server: str, lang: str) -> None:
    audit = Audit()
    context = new_context(browser, server, lang=lang)
    try:
        page = context.new_page()
        errors = watch(page)
        page.goto("/play")
        seen = check_table_states(page, audit, "desktop")
    finally:
        context.close()
    audit.assert_clean()
    assert {"picking", "burying", "calling", "playing", "summary", "dialogs"} <= seen, seen
    assert errors == []


# --- the keyboard and the live region ----------------------------------------------

# Everything the live region says, as a screen reader hears it: each line it receives
# (the region itself keeps only the latest forty).
HEAR = """
new MutationObserver((changes) => {
  for (const change of changes)
    for (const node of change.addedNodes)
      if (node.nodeType === 1) (window.heard = window.heard || []).push(node.textContent);
}).observe(document.getElementById("log") || document.body, {childList: true});
"""
CARD = r"the (seven|eight|nine|ten|jack|queen|king|ace) of (clubs|spades|hearts|diamonds)"
PLAY = re.compile(rf"^(You play|[A-Z]\w+ plays) ({CARD}|a card face down)$")
TAKE = re.compile(r"^(You take|[A-Z]\w+ takes) the trick(: \d+ points|, with a face-down card)$")


def heard(page: Page) -> list[str]:
    lines: list[str] = page.evaluate("window.heard || []")
    return lines


def key_decision(page: Page, kinds: set[str]) -> None:
    """The decision in front of the player, with keys only. Focus must already be on
    a control for it: the hand's cards when the choice is a card, else a decision."""
    now = phase(page)
    where = focused(page)
    in_hand = where["inHand"] == "true" and where["live"] == "true"
    in_actions = page.evaluate("!!document.activeElement.closest('#actions')")
    if now in ("playing", "burying"):
        assert in_hand, f"{now}: focus is not on a card that can be chosen: {where}"
    else:
        assert in_actions, f"{now}: focus is not on the decision's buttons: {where}"
    if now == "picking":
        kinds.add("pick")
        assert where["action"] == "pick", where
        page.keyboard.press("Enter")
    elif now == "burying":
        kinds.add("bury")
        bury = page.locator('#actions [data-ui="bury"]')
        for _ in range(16):
            if bury.get_attribute("aria-disabled") != "true":
                break
            if focused(page)["live"] == "true" and page.evaluate(
                "document.activeElement.getAttribute('aria-pressed') === 'false'"
            ):
                page.keyboard.press("Space")
            else:
                page.keyboard.press("ArrowRight")
        for _ in range(6):
            if focused(page)["ui"] == "bury":
                break
            page.keyboard.press("Shift+Tab")
        assert focused(page)["ui"] == "bury"
        page.keyboard.press("Enter")
    elif now == "calling":
        kinds.add("call" if where["action"].startswith("call ") else where["action"] or "call")
        page.keyboard.press("Enter")
        if where["ui"] == "call-unknown":
            wait_idle(page)
            assert focused(page)["live"] == "true", "choosing the unknown card starts in the hand"
            page.keyboard.press("Enter")
    elif now == "playing":
        kinds.add("play")
        page.keyboard.press("Enter")
    else:
        kinds.add(now)
        page.keyboard.press("Enter")


def check_tricks_told(lines: list[str], players: int) -> int:
    """Each trick is told play by play, in words, then who took it. Returns the tricks."""
    tricks = 0
    plays: list[str] = []
    for line in lines:
        if PLAY.match(line):
            plays.append(line)
        elif TAKE.match(line):
            assert len(plays) == players, f"a trick told with {len(plays)} plays: {plays}"
            tricks += 1
            plays = []
    assert plays == [], f"plays told without their trick's end: {plays}"
    return tricks


def check_partner_told(lines: list[str]) -> None:
    """When another seat plays the called card, the next thing said is who the partner is."""
    called = None
    for line in lines:
        found = re.search(rf"(?:call|calls) ({CARD})", line)
        if found:
            called = found.group(1)
    if called is None:
        return
    for i, line in enumerate(lines):
        found = re.match(rf"^([A-Z]\w+) plays {called}$", line)
        if found and i + 1 < len(lines):
            who = found.group(1)
            picker = any(line.startswith(f"{who} picks") for line in lines)
            if not picker:
                assert lines[i + 1] == f"{who} is the picker's partner.", lines[i : i + 2]


def test_a_hand_with_the_keyboard_alone_is_told_in_words(context: BrowserContext) -> None:
    """No mouse: focus goes to each decision, every control answers to keys, the
    dialogs hand focus back; a screen reader hears every play, trick, partner and score."""
    context.add_init_script(f"addEventListener('DOMContentLoaded', () => {{{HEAR}}})")
    page = context.new_page()
    errors = watch(page)
    # The first Tab stop skips to the content.
    page.goto("/guide")
    page.keyboard.press("Tab")
    assert focused(page)["text"]
    assert page.evaluate("document.activeElement.hash") == "#main"
    page.goto("/play")
    deal_first(page)
    # A dialog opened from the keyboard gives the focus back to what opened it.
    page.focus("#open-settings")
    page.keyboard.press("Enter")
    expect(page.locator("#dlg-settings")).to_be_visible()
    assert page.evaluate("!!document.activeElement.closest('#dlg-settings')")
    page.keyboard.press("Escape")
    expect(page.locator("#open-settings")).to_be_focused()
    # On a slow machine the deal may still be showing: tab to the decision once it is there.
    wait_idle(page)
    expect(page.locator("#actions button").first).to_be_visible()
    page.keyboard.press("Shift+Tab")
    for _ in range(24):
        if page.evaluate("!!document.activeElement.closest('#actions, #hand')"):
            break
        page.keyboard.press("Tab")
    kinds: set[str] = set()
    players = page.locator("#seats .seat").count() + 1
    for _ in range(HAND_LIMIT):
        wait_idle(page)
        if summary_open(page):
            break
        key_decision(page, kinds)
    else:
        raise AssertionError("the hand did not end")
    assert "play" in kinds
    # The summary has the focus; Escape closes it onto the next hand's button.
    assert page.evaluate("document.activeElement.closest('dialog')?.id") == "dlg-summary"
    page.keyboard.press("Escape")
    expect(page.locator('#actions [data-ui="next-hand"]')).to_be_focused()
    lines = heard(page)
    tricks = check_tricks_told(lines, players)
    if not any("thrown in" in line for line in lines):
        assert tricks == 30 // players or tricks == 32 // players, (tricks, lines)
    check_partner_told(lines)
    assert any(re.search(r"You score ([+-]\d+|0)\.$", line) for line in lines), lines[-3:]
    assert re.match(r"^Your total: [+-]?\d+\.$", lines[-1]), lines[-1]
    # The live region is a polite log that assistive technology can read.
    log = page.locator("#log")
    assert log.get_attribute("role") == "log"
    assert log.get_attribute("aria-live") == "polite"
    assert page.evaluate("!document.getElementById('log').closest('[aria-hidden=true]')")
    assert errors == []


# --- phones: targets and the hand in two rows --------------------------------------

SMALL_TARGETS = """min => {
  const out = [];
  const shown = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
    && !e.closest('dialog:not([open]), [hidden], .sr-only');
  const open = document.querySelector('dialog[open]');
  const targets = (open || document).querySelectorAll(
    'button, a.button, .site-header a, #actions a, select');
  for (const e of targets) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    const name = (e.getAttribute('aria-label') || e.innerText).trim();
    const size = `${Math.round(r.width)} x ${Math.round(r.height)}`;
    if (r.width < min - 0.5 || r.height < min - 0.5)
      out.push(`${e.tagName.toLowerCase()} "${name}" is ${size}`);
  }
  return out;
}"""


def small_targets(page: Page) -> list[str]:
    found: list[str] = page.evaluate(SMALL_TARGETS, MIN_TARGET)
    return found


def card_rows(page: Page) -> list[int]:
    """How many of the player's cards sit in each row (by their places in the layout:
    a chosen or focused card is lifted a little, still in its row)."""
    tops: list[float] = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.offsetTop)")
    rows: dict[float, int] = {}
    for top in tops:
        rows[top] = rows.get(top, 0) + 1
    return [rows[top] for top in sorted(rows)]


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.evaluate("innerWidth"), f"the page scrolls sideways: {width}"


def test_on_a_phone_every_table_state_is_clean_with_targets_big_enough(
    browser: Browser, server: str
) -> None:
    """axe and a 44 x 44 px check on every state and dialog of a hand on a phone."""
    audit = Audit(also=small_targets)
    context = new_context(browser, server, viewport=PHONE)
    try:
        page = context.new_page()
        errors = watch(page)
        page.goto("/play")
        seen = check_table_states(page, audit, "phone")
        no_sideways_scroll(page)
    finally:
        context.close()
    audit.assert_clean()
    assert {"picking", "burying", "calling", "playing", "summary"} <= seen, seen
    assert errors == []


def test_on_a_phone_the_table_s_tools_stay_short_in_every_language(
    browser: Browser, server: str
) -> None:
    """The coach's question is the longest tool label: squeezed beside the other three
    it took four lines and made every tool that tall, pushing the felt down."""
    for language in ("en", "bn", "de"):
        context = new_context(browser, server, lang=language, viewport=PHONE, axe=False)
        try:
            page = context.new_page()
            page.goto("/play")
            row = page.locator(".tools").bounding_box()
            boxes = page.locator(".tools .tool").evaluate_all(
                "ts => ts.map(t => [t.id, t.getBoundingClientRect().toJSON()])"
            )
        finally:
            context.close()
        assert row is not None
        assert len(boxes) == 4, (language, boxes)
        for tool_id, box in boxes:
            # At most two lines of text in a 44 px target (a four-line button was 110 px).
            assert box["height"] <= 64, (language, tool_id, box)
            if tool_id == "coach-hint-ask":
                assert box["width"] >= 0.9 * row["width"], (language, box, row)


def test_on_a_phone_ten_cards_and_more_wrap_into_two_rows(browser: Browser, server: str) -> None:
    rules = {"players": 3, "partner": "none"}
    context = new_context(browser, server, viewport=PHONE, settings={"rules": rules})
    try:
        page = context.new_page()
        page.goto("/play")
        deal_first(page)
        # A new game stops at the player's first decision: asked to pick, or (someone
        # else picked) the first card to play, with all ten cards in hand either way.
        counts = [card_rows(page)]
        if page.locator('#actions [data-action="pick"]').count():
            # The picker holds twelve cards while burying.
            page.locator('#actions [data-action="pick"]').click()
            wait_idle(page)
            counts.append(card_rows(page))
        for rows in counts:
            assert len(rows) == 2, rows
            assert sum(rows) >= 10, rows
        boxes = page.locator("#hand .card").evaluate_all(
            "cs => cs.map(c => c.getBoundingClientRect().toJSON())"
        )
        for box in boxes:
            assert box["width"] >= MIN_TARGET, box
            assert box["height"] >= MIN_TARGET, box
            assert box["left"] >= 0, box
            assert box["right"] <= PHONE["width"], box
        # Cards side by side do not overlap, so each one's whole face is its target.
        lefts = sorted((b["top"], b["left"], b["right"]) for b in boxes)
        for (top, _, right), (next_top, next_left, _) in itertools.pairwise(lefts):
            assert top != next_top or next_left >= right, (right, next_left)
        assert small_targets(page) == []
        no_sideways_scroll(page)
    finally:
        context.close()
