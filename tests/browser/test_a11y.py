"""Every player welcome (WCAG 2.2 AA): axe-core finds nothing on any page or table
state, in every language the site speaks; the game can be played with the keyboard
alone, and tells each play, trick, partner and score in words; cards and buttons are
big enough to tap on a phone; text at 200 % loses nothing; reduced motion is
respected; colour is never the only signal.

axe-core is the npm package pinned in ``tests/browser/axe/package-lock.json``
(``make browser`` runs ``npm ci`` there); Playwright injects it into each page as it
opens (``add_init_script``, which a Content-Security-Policy does not stop).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from browser.conftest import DESKTOP, GUIDE_PAGES, PHONE
from browser.table import (
    HAND_LIMIT,
    choose_bury,
    deal_first,
    focused,
    next_hand,
    phase,
    summary_open,
    wait_idle,
)

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0 to 2.2, levels A and AA, and axe's best practices (Lighthouse runs some of
# those: landmarks, heading order).
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]
SETTINGS_KEY = "sheepshead.settings.v1"
# Browser preferences that ask for each of the site's languages.
LANGUAGES = {"en": "en-US", "bn": "bn-BD", "de": "de-DE"}
SEED = "5e" * 32
PAGES = [
    "/",
    *GUIDE_PAGES,
    "/daily",
    "/leaderboard",
    "/privacy",
    "/verify",
    f"/verify?seed={SEED}&players=5",
    "/verify/daily",
]
# One page of each layout, checked on a desktop too (every page is checked on a phone).
DESKTOP_PAGES = ["/", "/guide", "/guide/scoring", "/daily", "/leaderboard", "/privacy", PAGES[15]]
# Pages whose scripts fetch what they show after the page has loaded.
FETCHING = {"/", "/daily", "/leaderboard", f"/verify?seed={SEED}&players=5"}
MIN_TARGET = 44  # CSS pixels, each way: cards and buttons on a phone
# Hands to play before the player has picked, buried and called at least once (each
# hand is a new chance to be asked first; seldom more than two are needed).
HANDS_TO_COVER = 10


# --- contexts ----------------------------------------------------------------------


def axe_script() -> Path:
    if not AXE.exists():
        message = f"{AXE} is missing: `make browser` installs axe-core (npm ci)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE


def new_context(
    browser: Browser,
    server: str,
    *,
    lang: str = "en",
    viewport: dict[str, int] = DESKTOP,
    settings: dict[str, Any] | None = None,
    reduced_motion: str = "reduce",
    scale: float = 1,
    axe: bool = True,
) -> BrowserContext:
    """A new visitor whose browser asks for ``lang``, with table settings stored."""
    context = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        device_scale_factor=scale,
        base_url=server,
        locale=LANGUAGES[lang],
        reduced_motion=reduced_motion,  # type: ignore[arg-type]
        service_workers="block",  # tested by test_clubs_browser.py
    )
    context.set_default_timeout(15_000)
    stored = json.dumps(json.dumps({"pace": "instant", **(settings or {})}))
    context.add_init_script(f"localStorage.setItem({json.dumps(SETTINGS_KEY)}, {stored})")
    if axe:
        # In every page as it opens: parsed from the cache each time, a third of the
        # cost of adding the script to each page afterwards.
        context.add_init_script(path=axe_script())
    return context


@pytest.fixture(params=list(LANGUAGES))
def lang(request: pytest.FixtureRequest, server: str) -> str:
    """A language the site serves: asked for by the browser, declared by ``<html lang>``."""
    code: str = request.param
    ask = urllib.request.Request(server + "/", headers={"Accept-Language": LANGUAGES[code]})
    with urllib.request.urlopen(ask, timeout=10) as reply:
        html = reply.read().decode()
    served = re.search(r"<html[^>]*\blang=\"([^\"]+)\"", html)
    if not served or not served.group(1).startswith(code):
        pytest.skip(f"the site does not serve {code!r} yet")
    return code


@pytest.fixture
def context(browser: Browser, server: str) -> Iterator[BrowserContext]:
    context = new_context(browser, server)
    yield context
    context.close()


def watch(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return errors


def visit(page: Page, path: str) -> None:
    reply = page.goto(path)
    assert reply is not None and reply.ok, f"{path}: {reply.status if reply else 'no reply'}"
    if path in FETCHING:
        page.wait_for_load_state("networkidle")


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
            page.set_viewport_size(viewport)  # type: ignore[arg-type]
            for path in paths:
                visit(page, path)
                assert (page.get_attribute("html", "lang") or "").startswith(lang), path
                audit.check(page, f"{size} {path}")
    finally:
        context.close()
    audit.assert_clean()
    assert errors == []


# --- the table, state by state -----------------------------------------------------


def decide(page: Page, kinds: set[str]) -> None:
    """The player's decision by clicking, preferring to pick and to call (so that those
    states are seen); found by what the controls do, not their words."""
    now = phase(page)
    actions = page.locator("#actions")
    if now == "picking":
        kinds.add("pick")
        actions.locator('[data-action="pick"]').click()
    elif now == "burying":
        kinds.add("bury")
        choose_bury(page).click()
    elif now == "calling":
        plain = actions.locator('[data-action^="call "]')
        unknown = actions.locator('[data-ui="call-unknown"]')
        chosen = page.locator("#hand .card.live")  # live while the unknown card is chosen
        if plain.count() or chosen.count():
            kinds.add("call")
            (plain if plain.count() else chosen).first.click()
        elif unknown.count():
            unknown.first.click()
        else:
            kinds.add("alone")
            actions.locator('[data-action="alone"]').click()
    elif now == "playing":
        kinds.add("play")
        page.locator("#hand .card.live").first.click()
    else:
        kinds.add(now)
        actions.locator("button").first.click()


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
    assert focused(page)["text"] and page.evaluate("document.activeElement.hash") == "#main"
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
    assert log.get_attribute("role") == "log" and log.get_attribute("aria-live") == "polite"
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
            assert len(rows) == 2 and sum(rows) >= 10, rows
        boxes = page.locator("#hand .card").evaluate_all(
            "cs => cs.map(c => c.getBoundingClientRect().toJSON())"
        )
        for box in boxes:
            assert box["width"] >= MIN_TARGET and box["height"] >= MIN_TARGET, box
            assert box["left"] >= 0 and box["right"] <= PHONE["width"], box
        # Cards side by side do not overlap, so each one's whole face is its target.
        lefts = sorted((b["top"], b["left"], b["right"]) for b in boxes)
        for (top, _, right), (next_top, next_left, _) in itertools.pairwise(lefts):
            assert top != next_top or next_left >= right, (right, next_left)
        assert small_targets(page) == []
        no_sideways_scroll(page)
    finally:
        context.close()


# --- text at 200 %, and reflow ------------------------------------------------------

# Each piece of text that cannot be read whole: past the window's side (outside a box
# that scrolls sideways), cut off by a box that hides its overflow, or covered by
# another element. Hidden text (for screen readers only) is not looked at.
LOST_TEXT = r"""() => {
  const out = [];
  const W = innerWidth, H = innerHeight;
  // Under a modal dialog the page is inert: only the dialog is read.
  const root = document.querySelector('dialog[open]') || document.body;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  // What hides what lies under it: a replaced element, a control, a background.
  const paints = (e) => e instanceof SVGElement
    || /^(IMG|BUTTON|INPUT|SELECT|TEXTAREA)$/.test(e.tagName)
    || getComputedStyle(e).backgroundImage !== 'none'
    || !/^(transparent|rgba\(.*, 0\))$/.test(getComputedStyle(e).backgroundColor);
  const say = (node, why) => out.push(`"${node.textContent.trim().slice(0, 40)}" ${why}`);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || !el.getClientRects().length) continue;
    if (el.closest('.sr-only, [aria-hidden="true"], dialog:not([open]), svg, noscript, script'))
      continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width < 1 || r.height < 1) continue;
      let scrolls = false, cut = false, hidden = false;
      for (let a = el; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (['auto', 'scroll'].includes(s.overflowX)) { scrolls = true; break; }
        if (['hidden', 'clip'].includes(s.overflowX) || ['hidden', 'clip'].includes(s.overflowY)) {
          const b = a.getBoundingClientRect();
          if (b.width <= 1 || b.height <= 1) { hidden = true; break; }  // for screen readers
          const out = r.left < b.left - 1 || r.right > b.right + 1;
          if (out || r.top < b.top - 1 || r.bottom > b.bottom + 1) cut = true;
        }
      }
      if (hidden) break;
      if (cut) { say(node, 'is cut off'); break; }
      const box = el.getBoundingClientRect();
      if (paints(el) && (r.top < box.top - 2 || r.bottom > box.bottom + 2)) {
        say(node, 'spills out of its box');
        break;
      }
      if (!scrolls && (r.left < -1 || r.right > W + 1)) { say(node, 'goes past the side'); break; }
      const y = r.top + r.height / 2;
      if (scrolls || y < 0 || y > H) continue;
      for (const x of [r.left + 2, r.left + r.width / 2, r.right - 2]) {
        const above = [];
        for (const hit of document.elementsFromPoint(x, y)) {
          if (hit === el || el.contains(hit) || hit.contains(el)) break;
          if (paints(hit)) above.push(hit);
        }
        if (above.length) {
          const hit = above[0];
          say(node, `is covered by ${hit.tagName.toLowerCase()}.${hit.getAttribute('class')}`);
          break;
        }
      }
    }
  }
  if (document.documentElement.scrollWidth > W) out.push(`the page scrolls sideways`);
  return out;
}"""

ZOOM_PAGES = ["/", "/guide/scoring", "/guide/picking", "/daily", "/leaderboard", "/privacy"]


def lost_text(page: Page) -> list[str]:
    found: list[str] = page.evaluate(LOST_TEXT)
    return found


@pytest.mark.parametrize(
    "how",
    ["text 200%", "page zoom 200%", "320 px wide"],
)
def test_nothing_is_lost_at_200_percent(
    browser: Browser, server: str, how: str, artifacts: Path
) -> None:
    """Text-only zoom (the root font size doubled on a desktop), page zoom (a 1280 px
    window at 200 %: 640 CSS px at twice the pixel density) and reflow at 320 CSS px."""
    viewport, scale = {
        "text 200%": (DESKTOP, 1.0),
        "page zoom 200%": ({"width": 640, "height": 400}, 2.0),
        "320 px wide": ({"width": 320, "height": 640}, 1.0),
    }[how]
    context = new_context(browser, server, viewport=viewport, scale=scale, axe=False)
    if how == "text 200%":
        context.add_init_script(
            "addEventListener('DOMContentLoaded', () => "
            "{document.documentElement.style.fontSize = '200%'})"
        )
    found: dict[str, list[str]] = {}
    try:
        page = context.new_page()
        for path in [*ZOOM_PAGES, f"/verify?seed={SEED}&players=5"]:
            visit(page, path)
            if problems := lost_text(page):
                found[path] = problems
        page.goto("/play")
        deal_first(page)
        kinds: set[str] = set()
        for _ in range(HAND_LIMIT):
            wait_idle(page)
            if summary_open(page):
                break
            now = phase(page)
            if now not in kinds and (problems := lost_text(page)):
                found[f"/play {now}"] = problems
            kinds.add(now)
            decide(page, set())
        # The hand's summary, then the table once it is closed.
        if problems := lost_text(page):
            found["/play summary"] = problems
        page.keyboard.press("Escape")
        if problems := lost_text(page):
            found["/play over"] = problems
        page.screenshot(path=str(artifacts / f"zoom-{how.replace(' ', '-').strip('%')}.png"))
    finally:
        context.close()
    report = "\n".join(f"[{where}] " + "; ".join(problems) for where, problems in found.items())
    assert not found, f"{how}:\n{report}"


# --- reduced motion ------------------------------------------------------------------

# Every movement a page makes: scripted animations, CSS animations and transitions.
MOTION = """
window.motion = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const ms = typeof options === 'number' ? options : (options && options.duration) || 0;
  if (ms > 0) window.motion.push(`animate ${ms} ms`);
  return animate.call(this, frames, options);
};
addEventListener('animationstart', (e) => window.motion.push(`css ${e.animationName}`), true);
addEventListener('transitionrun', (e) => window.motion.push(`transition ${e.propertyName}`), true);
"""


def play_a_hand_watching_motion(browser: Browser, server: str, motion: str) -> list[str]:
    # The slowest pace: only the player's wish for less motion may stop it.
    context = new_context(browser, server, settings={"pace": "slow"}, reduced_motion=motion)
    context.add_init_script(MOTION)
    try:
        page = context.new_page()
        page.goto("/guide")
        page.wait_for_function(
            "() => document.querySelectorAll('.demo-stage .demo-card').length > 1"
        )
        page.goto("/play")
        deal_first(page)
        for _ in range(HAND_LIMIT):
            if summary_open(page):
                break
            if motion != "reduce" and page.evaluate("window.motion.length > 3"):
                break
            page.locator("#hand .card").first.hover()
            decide(page, set())
            page.keyboard.press("Escape")  # hurries the computer players along
            wait_idle(page)
        seen: list[str] = page.evaluate("window.motion")
    finally:
        context.close()
    return seen


def test_reduced_motion_is_respected(browser: Browser, server: str) -> None:
    """Asked for less motion, neither the table (at its slowest pace) nor the guide's
    trick demonstration moves anything; without that wish both do."""
    assert play_a_hand_watching_motion(browser, server, "reduce") == []
    assert play_a_hand_watching_motion(browser, server, "no-preference") != []


# --- colour is never the only signal ---------------------------------------------------

SUIT_COLOURS = """() => {
  const out = {};
  for (const suit of 'CSHD') {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('class', `cardsvg suit-${suit}`);
    document.body.append(svg);
    out[suit] = getComputedStyle(svg).color;
    svg.remove();
  }
  return out;
}"""


def luminance(colour: str) -> float:
    r, g, b = (int(x) / 255 for x in re.findall(r"[\d.]+", colour)[:3])
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_suits_have_shapes_and_names_and_a_four_colour_deck(browser: Browser, server: str) -> None:
    for four, kinds in ((False, 2), (True, 4)):
        context = new_context(browser, server, settings={"fourColour": four}, axe=False)
        try:
            page = context.new_page()
            page.goto("/play")
            deal_first(page)
            colours: dict[str, str] = page.evaluate(SUIT_COLOURS)
            shapes = page.evaluate(
                "[...'CSHD'].map(s => document.getElementById(`pip-${s}`).innerHTML)"
            )
            names = page.locator("#hand .card").evaluate_all(
                "cs => cs.map(c => [c.dataset.card, c.getAttribute('aria-label')])"
            )
        finally:
            context.close()
        # Red and black, or four colours; each one stands out on the white card.
        assert len(set(colours.values())) == kinds, colours
        for colour in colours.values():
            assert contrast(colour, "rgb(255, 255, 255)") >= 4.5, colour
        # Each suit has its own shape, and each card says its suit in words.
        assert len(set(shapes)) == 4
        words = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
        for card, label in names:
            assert label.endswith(f"of {words[card[1]]}") or ", " in label, (card, label)


# axe cannot judge text on the felt's gradient: here each text on it is measured
# against the gradient's lightest colour, under the boxes it sits in.
FELT_TEXT = r"""() => {
  const rgba = (s) => {
    const v = s.match(/[\d.]+/g).map(Number);
    return [v[0], v[1], v[2], v[3] ?? 1];
  };
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3]));
  const light = getComputedStyle(document.documentElement).getPropertyValue('--felt-light').trim();
  const base = [1, 3, 5].map((i) => parseInt(light.slice(i, i + 2), 16));
  const out = [];
  for (const felt of document.querySelectorAll('#felt, .demo-stage')) {
    const walker = document.createTreeWalker(felt, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!node.textContent.trim() || !el.getClientRects().length) continue;
      if (el.closest('.sr-only')) continue;
      const chain = [];
      for (let a = el; a && a !== felt; a = a.parentElement) chain.unshift(a);
      let bg = base;
      for (const a of chain) {
        const c = rgba(getComputedStyle(a).backgroundColor);
        if (c[3] > 0) bg = over(c, bg);
      }
      const style = getComputedStyle(el);
      const fg = over(rgba(style.color), bg);
      const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      const ratio = (hi + 0.05) / (lo + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) out.push(`"${node.textContent.trim()}" ${ratio.toFixed(2)}`);
    }
  }
  return out;
}"""


def test_text_on_the_felt_has_enough_contrast(context: BrowserContext) -> None:
    page = context.new_page()
    page.goto("/play")
    deal_first(page)
    kinds: set[str] = set()
    found: dict[str, list[str]] = {}
    for _ in range(HAND_LIMIT):
        wait_idle(page)
        if summary_open(page):
            break
        if problems := page.evaluate(FELT_TEXT):
            found[phase(page)] = problems
        decide(page, kinds)
    page.goto("/guide")
    page.locator(".trick-demo[data-state='done']").wait_for(timeout=20_000)
    if problems := page.evaluate(FELT_TEXT):
        found["the guide's trick"] = problems
    assert not found, found
