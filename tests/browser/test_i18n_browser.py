"""The site in Bengali and German, in Chromium: every page, once its scripts have run,
shows no English left (its text, and the labels a screen reader reads, compared with
the English catalog), a whole hand at the table speaks the page's language (buttons,
prompts, the live region's events, the summary), the language follows the browser
and the switch is remembered, and Bengali is drawn with a Bengali font.

Screenshots of the table and a guide page in each language go to ``test-artifacts/``
(``i18n-<lang>-*.png``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from browser.helpers import DESKTOP, PHONE, Visitor
from browser.table import HAND_LIMIT, choose_bury, deal_first, phase, summary_open, wait_idle
from server.test_i18n import CARD_CODES, LATIN_IN_BENGALI, SAME_IN, SITE_PAGES, WORD, english_msgids

pytestmark = pytest.mark.browser

# What a reader meets: text nodes (scripts, styles, code and card indices aside), the
# labels that are read out, the reasons a refused card gives, and the title.
READ_PAGE = """() => {
  const out = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest("script, style, code, noscript, .gc-ix, .deal-cards")) continue;
    const text = n.textContent.replace(/\\s+/g, " ").trim();
    if (text) out.push(text);
  }
  const names = ["aria-label", "title", "alt", "placeholder", "data-reason"];
  for (const el of document.querySelectorAll(names.map((n) => `[${n}]`).join(","))) {
    for (const name of names) {
      const value = el.getAttribute(name);
      if (value) out.push(value.replace(/\\s+/g, " ").trim());
    }
  }
  return out;
}"""
PROPER = {"Sheepshead", "English", "Deutsch", "বাংলা", "XXXX-XXXX-XXXX"}


@pytest.fixture(scope="module")
def english() -> dict[str, set[str]]:
    ids = english_msgids()
    return {lang: ids - {" ".join(s.split()) for s in SAME_IN[lang]} for lang in SAME_IN}


def visitor(browser: Browser, server: str, locale: str, viewport: ViewportSize) -> Visitor:
    context = browser.new_context(
        viewport=viewport,
        reduced_motion="reduce",
        base_url=server,
        locale=locale,
        service_workers="block",  # tested by test_clubs_browser.py
    )
    context.set_default_timeout(15_000)
    return Visitor(context, server)


@pytest.fixture(params=["bn", "de"])
def reader(request: pytest.FixtureRequest, browser: Browser, server: str) -> Iterator[Visitor]:
    """A visitor whose browser asks for the language (no ?lang= needed)."""
    lang = str(request.param)
    guest = visitor(browser, server, {"bn": "bn-BD", "de": "de-DE"}[lang], DESKTOP)
    yield guest
    guest.context.close()


def real_errors(guest: Visitor) -> list[str]:
    """Script errors, leaving out the daily game's expected 404 before a first attempt."""
    return [e for e in guest.errors if "status of 404" not in e]


def lang_of(page: Page) -> str:
    return str(page.evaluate("document.documentElement.lang"))


def settle(page: Page, url: str) -> None:
    """Wait until the page's scripts have drawn what they fetch."""
    if url == "/play":
        wait_idle(page)
    elif url == "/daily":
        # A new visitor: the introduction and its Start button, nothing dealt.
        expect(page.locator("#daily-start")).to_be_visible()
    elif url == "/leaderboard":
        expect(page.locator("#board-status")).not_to_be_empty()
    elif url.startswith("/verify?"):
        expect(page.locator("#verify-result .mini-cards").first).to_be_visible()


def leftovers(page: Page, lang: str, english: set[str]) -> list[str]:
    found = []
    for text in page.evaluate(READ_PAGE):
        if text in PROPER:
            continue
        if text in english:
            found.append(f"English: {text!r}")
        elif lang == "bn":
            latin = set(WORD.findall(CARD_CODES.sub(" ", text))) - LATIN_IN_BENGALI
            # Hashes and fingerprints are hexadecimal; a name typed by a player is theirs.
            latin = {w for w in latin if not re.fullmatch(r"[0-9a-f]+|[a-f]+", w)}
            if latin:
                found.append(f"not Bengali: {sorted(latin)} in {text!r}")
    return found


def test_every_page_in_the_browsers_language_has_no_english_left(
    reader: Visitor, english: dict[str, set[str]]
) -> None:
    page = reader.new_page()
    lang = ""
    problems: dict[str, list[str]] = {}
    for url in SITE_PAGES:
        page.goto(url)
        settle(page, url)
        lang = lang or lang_of(page)
        assert lang_of(page) == lang, url
        found = leftovers(page, lang, english[lang])
        if found:
            problems[url] = found
    assert lang in ("bn", "de")
    assert not problems, problems
    assert not real_errors(reader), reader.errors


def play_a_hand(page: Page) -> None:
    """Take every decision by clicking, whatever the buttons say, until the summary."""
    for _ in range(HAND_LIMIT):
        wait_idle(page)
        if summary_open(page) or phase(page) == "over":
            return
        now = phase(page)
        if now == "burying":
            choose_bury(page).click()
        elif now == "calling":
            plain = page.locator('#actions [data-action^="call "]')
            unknown = page.locator('#actions [data-ui="call-unknown"]')
            if plain.count():
                plain.first.click()
            elif unknown.count():
                unknown.first.click()
                page.locator("#hand .card.live").first.click()
            else:
                page.locator('#actions [data-action="alone"]').click()
        elif now == "playing":
            refused = page.locator("#hand .card.refused")
            if refused.count():
                refused.first.hover()
            page.locator("#hand .card.live").first.click()
        else:
            page.locator("#actions button").first.click()
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("lang", ["bn", "de"])
def test_a_whole_hand_at_the_table_speaks_the_pages_language(
    browser: Browser,
    server: str,
    lang: str,
    english: dict[str, set[str]],
    artifacts: Path,
) -> None:
    guest = visitor(browser, server, "en-US", DESKTOP)
    page = guest.new_page()
    page.goto(f"/play?lang={lang}")
    deal_first(page)
    assert lang_of(page) == lang
    page.screenshot(path=str(artifacts / f"i18n-{lang}-table.png"))
    play_a_hand(page)
    expect(page.locator("#dlg-summary")).to_be_visible()
    page.screenshot(path=str(artifacts / f"i18n-{lang}-summary.png"))
    log = page.locator("#log").inner_text()
    assert log.strip(), "the live region said nothing"
    problems = leftovers(page, lang, english[lang])
    assert not problems, problems
    # The events were said in the page's language, not as the server's English.
    assert not re.search(r"\b(passes|picks|plays the|takes the trick|buries)\b", log), log
    if lang == "bn":
        info = page.locator("#info").inner_text().split(" · ")[:3]
        assert re.search("[০-৯]", " ".join(info))
        assert not re.search("[0-9]", " ".join(info))
    # The review and the score sheet, in the language too.
    page.locator("#summary-review").click()
    page.locator("#review-next").click()
    assert not leftovers(page, lang, english[lang])
    page.keyboard.press("Escape")
    page.locator("#open-scores").click()
    expect(page.locator("#dlg-scores tbody tr")).not_to_have_count(0)
    assert not leftovers(page, lang, english[lang])
    assert not real_errors(guest), guest.errors
    guest.context.close()


@pytest.mark.parametrize(("lang", "viewport"), [("bn", PHONE), ("de", DESKTOP)])
def test_guide_pages_in_each_language(
    browser: Browser, server: str, lang: str, viewport: ViewportSize, artifacts: Path
) -> None:
    guest = visitor(browser, server, "en-US", viewport)
    page = guest.new_page()
    page.goto(f"/guide/cards?lang={lang}")
    expect(page.locator(".gc.drawn").first).to_be_attached()
    page.screenshot(path=str(artifacts / f"i18n-{lang}-guide.png"), full_page=viewport == PHONE)
    page.goto(f"/guide/standard?lang={lang}#play")
    expect(page.locator("figure.trick-demo[data-state='done']")).to_be_attached(timeout=20_000)
    page.screenshot(path=str(artifacts / f"i18n-{lang}-demo.png"))
    # The demonstration's announcements are the page's own translated sentences.
    said = page.locator(".demo-live").inner_text()
    assert said, said
    assert not re.search(r"\b(the|wins|trick)\b", said), said
    assert not real_errors(guest), guest.errors
    guest.context.close()


def test_bengali_is_drawn_with_a_bengali_font(browser: Browser, server: str) -> None:
    guest = visitor(browser, server, "bn-BD", DESKTOP)
    page = guest.new_page()
    page.goto("/guide/scoring")
    assert lang_of(page) == "bn"
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    for selector in ("h1", ".guide-body p", "nav.site-nav a, .site-header nav a"):
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        families = [font["familyName"] for font in fonts]
        assert any("Bengali" in family for family in families), (selector, families)
    guest.context.close()


def test_the_language_switch_is_on_every_page_and_remembered(browser: Browser, server: str) -> None:
    guest = visitor(browser, server, "en-US", DESKTOP)
    page = guest.new_page()
    page.goto("/")
    assert lang_of(page) == "en"
    page.locator('nav.lang-switch a[lang="de"]').click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator('nav.lang-switch a[aria-current="true"]')).to_have_attribute("lang", "de")
    # Remembered: the next page, with no ?lang=, is German, and so are the table's words.
    page.goto("/play")
    deal_first(page)
    assert lang_of(page) == "de"
    expect(page.locator("#open-settings")).to_have_text("Einstellungen")
    page.locator('nav.lang-switch a[lang="bn"]').click()
    expect(page.locator("html")).to_have_attribute("lang", "bn")
    wait_idle(page)
    expect(page.locator("#open-settings")).to_have_text("সেটিংস")
    page.goto("/guide")
    assert lang_of(page) == "bn"
    assert not real_errors(guest), guest.errors
    guest.context.close()


def test_a_refused_name_is_explained_in_the_readers_language(reader: Visitor) -> None:
    """The server's reason names the refused character, or the shortest length: the
    page says it in the reader's language, the character and the number carried over."""
    page = reader.new_page()
    page.goto("/leaderboard")
    lang = lang_of(page)
    expect(page.locator("#name-input")).to_be_visible()
    error = page.locator("#name-error")
    page.fill("#name-input", "Bob☃")
    page.click("#name-form button[type=submit]")
    expect(error).to_contain_text("☃")
    expected = {"bn": "নামে কেবল অক্ষর", "de": "Ein Name darf nur Buchstaben"}[lang]
    expect(error).to_contain_text(expected)
    assert "snowman" not in error.inner_text()
    assert "letters" not in error.inner_text()
    # Three characters for the form, two once the server has trimmed the space.
    page.fill("#name-input", "Bo ")
    page.click("#name-form button[type=submit]")
    too_short = {"bn": "নামে অন্তত ৩টি অক্ষর লাগবে।", "de": "Ein Name braucht mindestens 3 Zeichen."}
    expect(error).to_have_text(too_short[lang])
    if lang == "bn":
        assert not set(WORD.findall(error.inner_text())) - LATIN_IN_BENGALI
    # A name the server takes is confirmed in the reader's language, the error gone.
    name = {"bn": "Reader Bengali", "de": "Leserin Deutsch"}[lang]
    page.fill("#name-input", name)
    page.click("#name-form button[type=submit]")
    saved = {
        "bn": f"সংরক্ষণ করা হয়েছে: তালিকায় আপনার নাম {name}।",
        "de": f"Gespeichert: In der Rangliste stehst du als {name}.",
    }
    expect(page.locator("#name-saved")).to_have_text(saved[lang])
    expect(error).to_have_text("")
