# ruff: noqa: F811  (the fixtures of a11y.py are imported, then named as arguments)
"""Accessibility in Chromium, what the eye needs: nothing lost with text at 200 % or
reflowed at 320 px, reduced motion respected, colour never the only signal, and
enough contrast on the felt. The rest (axe on every page and table state, the
keyboard, phones) is ``test_a11y.py``; the shared contexts are ``a11y.py``'s.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

from browser.a11y import (  # noqa: F401  (fixtures, used by name)
    SEED,
    context,
    decide,
    new_context,
    visit,
)
from browser.helpers import DESKTOP
from browser.table import (
    HAND_LIMIT,
    deal_first,
    phase,
    summary_open,
    wait_idle,
)

pytestmark = pytest.mark.browser

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
    sizes: dict[str, tuple[ViewportSize, float]] = {
        "text 200%": (DESKTOP, 1.0),
        "page zoom 200%": ({"width": 640, "height": 400}, 2.0),
        "320 px wide": ({"width": 320, "height": 640}, 1.0),
    }
    viewport, scale = sizes[how]
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
            # Escape below may close the summary it opened at once: "over" ends the hand too.
            if summary_open(page) or phase(page) == "over":
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
