"""Playing at the table the way a person does: by clicking, or with the keyboard only.

The page marks ``#table[data-idle="true"]`` when it waits for the player (no request
on its way, no events being shown) and ``data-phase`` with the hand's phase, ``over``
once the hand is scored, or ``start`` while a new player's table waits for "Deal".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

HAND_LIMIT = 60  # decisions in one hand: far more than any hand needs


@dataclass
class Covered:
    """Which decisions a run of hands went through."""

    kinds: set[str] = field(default_factory=set)
    shots: set[str] = field(default_factory=set)

    @property
    def picked_buried_called(self) -> bool:
        return {"pick", "bury", "call"} <= self.kinds


def wait_idle(page: Page) -> None:
    page.wait_for_selector('#table[data-idle="true"]')


def deal_first(page: Page) -> None:
    """Wait for the table; a player with no game yet is offered "Deal" (nothing is
    dealt, nor any identity made, before that click), which this clicks."""
    wait_idle(page)
    if phase(page) == "start":
        page.locator('#actions [data-ui="deal"]').click()
        page.wait_for_selector('#table[data-idle="true"]:not([data-phase="start"])')


def phase(page: Page) -> str:
    return page.get_attribute("#table", "data-phase") or ""


def summary_open(page: Page) -> bool:
    return page.locator("#dlg-summary[open]").count() > 0


def shot(page: Page, directory: Path, name: str, covered: Covered | None = None) -> None:
    """A screenshot of each kind once per run (the first time it is seen)."""
    if covered is not None:
        if name in covered.shots:
            return
        covered.shots.add(name)
    page.screenshot(path=str(directory / f"{name}.png"))


def choose_bury(page: Page) -> Locator:
    """Click the hand's cards, one at a time, until the bury button takes them; that
    button."""
    bury = page.locator('#actions [data-ui="bury"]')
    for _ in range(8):
        if bury.get_attribute("aria-disabled") != "true":
            break
        page.locator('#hand .card.live[aria-pressed="false"]').first.click()
    return bury


def no_horizontal_scroll(page: Page) -> None:
    # After a link's click the new page's text can be there before its stylesheets:
    # a person sees it only once they apply (they block rendering), so measure then.
    page.wait_for_load_state("load")
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"the page scrolls sideways: {width} > {inner}"


def action_texts(page: Page) -> list[str]:
    return page.locator("#actions button").all_inner_texts()


def visible_cards(page: Page) -> list[str]:
    return [
        c or ""
        for c in page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    ]


# --- by clicking ---------------------------------------------------------------------


def click_decision(page: Page, covered: Covered, directory: Path, prefix: str) -> None:
    """Take the decision in front of the player by clicking, preferring pick and call."""
    now = phase(page)
    shot(page, directory, f"{prefix}-{now}", covered)
    if now == "picking":
        covered.kinds.add("pick")
        page.get_by_role("button", name="Pick up the blind").click()
    elif now == "burying":
        covered.kinds.add("bury")
        # The blind's cards arrived in the hand, marked as such.
        assert page.locator("#hand .card.from-blind").count() > 0
        expect(page.locator('#actions [data-ui="bury"]')).to_have_attribute("aria-disabled", "true")
        bury = choose_bury(page)
        expect(bury).not_to_have_attribute("aria-disabled", "true")
        assert bury.inner_text().startswith("Bury the ")
        shot(page, directory, f"{prefix}-bury-chosen", covered)
        bury.click()
    elif now == "calling":
        plain = page.locator('#actions [data-action^="call "]')
        unknown = page.locator('#actions [data-ui="call-unknown"]')
        if plain.count():
            covered.kinds.add("call")
            plain.first.click()
        elif unknown.count():
            covered.kinds.add("call")
            unknown.first.click()
            shot(page, directory, f"{prefix}-unknown", covered)
            page.locator("#hand .card.live").first.click()
        else:
            page.get_by_role("button", name="Go alone").click()
    elif now == "playing":
        covered.kinds.add("play")
        refused = page.locator("#hand .card.refused")
        if refused.count():
            # A card that may not be played says why, and clicking it changes nothing.
            card = refused.first
            assert card.get_attribute("aria-disabled") == "true"
            card.hover()
            reason = page.locator("#hint").inner_text()
            assert reason, reason
            assert reason == card.get_attribute("data-reason"), reason
            shot(page, directory, f"{prefix}-refused", covered)
        page.locator("#hand .card.live").first.click()
    else:
        buttons = page.locator("#actions button")
        assert buttons.count(), f"no control in phase {now!r}"
        covered.kinds.add(now)
        buttons.first.click()


def play_hand_by_clicking(page: Page, covered: Covered, directory: Path, prefix: str) -> None:
    """Click through the current hand until its summary opens."""
    for _ in range(HAND_LIMIT):
        wait_idle(page)
        if summary_open(page):
            return
        if page.viewport_size and page.viewport_size["width"] < 500:
            no_horizontal_scroll(page)
        click_decision(page, covered, directory, prefix)
    raise AssertionError("the hand did not end")


def next_hand(page: Page) -> None:
    if summary_open(page):
        page.locator("#summary-next").click()
    else:
        page.locator('#actions [data-ui="next-hand"]').click()
    wait_idle(page)


# --- with the keyboard only ------------------------------------------------------------


def focused(page: Page) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        """() => {
          const a = document.activeElement;
          return {
            tag: a ? a.tagName : '', card: a?.dataset?.card || '', ui: a?.dataset?.ui || '',
            action: a?.dataset?.action || '', live: String(a?.classList?.contains('live')),
            text: (a?.innerText || '').trim(), inHand: String(!!a?.closest('#hand')),
          };
        }"""
    )
    return found


def tab_until(page: Page, test: str, limit: int = 30, back: bool = False) -> None:
    """Press Tab (or Shift+Tab) until the focused element matches the JS predicate."""
    key = "Shift+Tab" if back else "Tab"
    for _ in range(limit):
        if page.evaluate(f"(a => {test})(document.activeElement)"):
            return
        page.keyboard.press(key)
    raise AssertionError(f"Tab never reached {test}")


def key_decision(page: Page, covered: Covered) -> None:
    """Take the decision with the keyboard alone; focus must already be somewhere useful."""
    now = phase(page)
    where = focused(page)
    assert where["tag"] not in ("", "BODY"), f"focus was lost in phase {now}"
    if now == "picking":
        covered.kinds.add("pick")
        tab_until(page, "a.dataset.action === 'pick'")
        page.keyboard.press("Enter")
    elif now == "burying":
        covered.kinds.add("bury")
        tab_until(page, "a.classList.contains('card')")
        chosen = 0
        for _ in range(12):
            if focused(page)["live"] == "true":
                page.keyboard.press("Space")
                chosen += 1
            if page.locator('#actions [data-ui="bury"]').get_attribute("aria-disabled") != "true":
                break
            page.keyboard.press("ArrowRight")
        assert chosen >= 2
        tab_until(page, "a.dataset.ui === 'bury'", back=True)
        page.keyboard.press("Enter")
    elif now == "calling":
        if page.locator(
            '#actions [data-action^="call "], #actions [data-ui="call-unknown"]'
        ).count():
            covered.kinds.add("call")
            tab_until(
                page,
                "a.dataset.ui === 'call-unknown' || (a.dataset.action || '').startsWith('call ')",
            )
            unknown = focused(page)["ui"] == "call-unknown"
            page.keyboard.press("Enter")
            if unknown:
                wait_idle(page)
                assert focused(page)["live"] == "true", (
                    "choosing the unknown card starts in the hand"
                )
                page.keyboard.press("Enter")
        else:
            tab_until(page, "a.dataset.action === 'alone'")
            page.keyboard.press("Enter")
    elif now == "playing":
        covered.kinds.add("play")
        if focused(page)["inHand"] != "true":
            tab_until(page, "a.classList.contains('card')")
        for _ in range(14):
            if focused(page)["live"] == "true":
                break
            page.keyboard.press("ArrowRight")
        assert focused(page)["live"] == "true"
        page.keyboard.press("Enter")
    else:
        covered.kinds.add(now)
        tab_until(page, "!!a.closest('#actions') && a.tagName === 'BUTTON'")
        page.keyboard.press("Enter")


def play_hand_by_keyboard(page: Page, covered: Covered) -> None:
    for _ in range(HAND_LIMIT):
        wait_idle(page)
        if summary_open(page):
            return
        key_decision(page, covered)
    raise AssertionError("the hand did not end")
