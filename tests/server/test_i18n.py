"""The site in English, Bengali and German: which language a request gets, that every
message of the sources is in the catalogs (and no word of the templates and page
scripts outside them: ``test_i18n_sources.py``), that every catalog has a translation
for it, that the pages come out in the language asked for (Bengali digits included),
and that the glossaries agree with the catalogs."""

from __future__ import annotations

import json
import re
import unicodedata
import warnings
from collections.abc import Iterator
from configparser import RawConfigParser
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from sheepshead.cards import DECK
from sheepshead.server import Settings, create_app, i18n
from sheepshead.server.guide import GLOSSARY, PAGES

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "sheepshead" / "server"
LOCALE = ROOT / "src" / "sheepshead" / "locale"
TRANSLATED = ("bn", "de")
BLURB = Path("/work/shared/seeds/000_af29d62e9e5c7e97.txt")
#: The Bengali words of the product's own description, where the glossary starts.
BLURB_WORDS = ("টেক্কা", "দহলা", "সাহেব", "বিবি", "গোলাম", "তুরুপ", "ফেল রং", "পিকার", "ব্লাইন্ড", "বেরি")

#: Keywords of the extraction, as docs/i18n.md gives them to pybabel.
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
    "t": None,
    "tn": (1, 2),
}

#: A translation may equal its English source: names and the game's own words.
SAME_IN = {
    "de": {
        "Blind",
        "Leaster",
        '<a href="%(ref_leaster_rules)s">Leaster</a>',
        "Partner",
        "Schneider",
        "Standard",
        "Normal",
        "{card} ({note})",
        # Names of scripts that German writes as English does.
        "Devanagari",
        "Thai",
        "Hangul",
        "Hiragana",
        "Katakana",
    },
    "bn": {"{card} ({note})"},
}
#: Latin-script words a Bengali page may show: names of people, places and sites,
#: the game's name, technical names, and the card indices printed on the cards.
LATIN_IN_BENGALI = {
    "Sheepshead", "Schafkopf", "Wisconsin", "Milwaukee", "Bavaria", "Indiana",
    "Eric", "Bushnell", "pagat", "com", "Pagat", "Wikipedia", "English", "Deutsch",
    "Ann", "Bob", "Cal", "Dot", "Eve", "Ada", "Ben", "Cora", "Dan",
    "SHA", "HMAC", "SHA256", "CC", "BY", "SA", "JavaScript", "UTC", "ten",
    "Chicago", "CST", "CDT", "GMT",
    "card", "game", "json", "plain", "win", "one", "trick",
    "Q", "J", "K", "A", "m", "k", "w", "n", "T",
}  # fmt: skip

WORD = re.compile(r"[A-Za-z]+")
#: Card codes as hand records write them ("QC TD"): what a page shows without script.
CARD_CODES = re.compile(r"\b(?:(?:10|[2-9TJQKA])[CSHD]\b ?)+")
PLACEHOLDER = re.compile(r"%\([a-z_0-9]+\)s|\{[a-z_]+\}")
TAG = re.compile(r"</?[a-z]+(?:\s[^>]*)?>")


def catalog(name: str) -> Catalog:
    path = LOCALE / ("messages.pot" if name == "pot" else f"{name}/LC_MESSAGES/messages.po")
    with path.open("rb") as file:
        return read_po(file, locale=None if name == "pot" else name)


def translations(message: Message) -> tuple[str, ...]:
    """A message's translated strings (one, or one per plural form)."""
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return tuple(s for s in strings if isinstance(s, str))


def message_ids(cat: Catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in cat if m.id}


def plain(text: str) -> str:
    """What a reader sees of a message: no markup, code or placeholders."""
    text = re.sub(r"<code>.*?</code>|7KQ2-M9XD-4TPA", " ", text)
    return PLACEHOLDER.sub(" ", TAG.sub(" ", text))


# Which language ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("bn-BD,bn;q=0.9,en;q=0.8", "bn"),
        ("de-AT", "de"),
        ("fr-CH, fr;q=0.9, de;q=0.7, *;q=0.5", "de"),
        ("en;q=0.5, de;q=0.8", "de"),
        ("de;q=0, en", "en"),
        ("fr, es", None),
        ("", None),
        ("garbage;;q=x", None),
    ],
)
def test_the_browser_preference_picks_one_of_our_languages(
    header: str, expected: str | None
) -> None:
    assert i18n.from_accept_language(header) == expected


def test_a_chosen_language_beats_the_cookie_which_beats_the_browser() -> None:
    assert i18n.negotiate("de", "bn", "en") == "de"
    assert i18n.negotiate(None, "bn", "de") == "bn"
    assert i18n.negotiate("xx", None, "de-DE") == "de"
    assert i18n.negotiate(None, "klingon", None) == "en"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=tmp_path_factory.mktemp("i18n-data")))
    with TestClient(app) as test_client:
        yield test_client
    app.state.engine.dispose()


def html_lang(text: str) -> str:
    match = re.search(r'<html lang="([a-z]+)"', text)
    assert match, "the page declares no language"
    return match.group(1)


def test_the_language_switch_is_remembered(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path))
    with TestClient(app) as visitor:
        first = visitor.get("/guide?lang=de")
        assert html_lang(first.text) == "de"
        assert "lang=de" in first.headers["set-cookie"]
        assert first.headers["content-language"] == "de"
        later = visitor.get("/play", headers={"accept-language": "bn"})
        assert html_lang(later.text) == "de", "the remembered choice beats the browser's"
        back = visitor.get("/play?lang=en")
        assert html_lang(back.text) == "en"
        assert html_lang(visitor.get("/").text) == "en"
    app.state.engine.dispose()


def test_without_a_choice_the_browser_preference_decides(client: TestClient) -> None:
    client.cookies.clear()
    page = client.get("/", headers={"accept-language": "bn-IN,bn;q=0.9"})
    assert html_lang(page.text) == "bn"
    assert "set-cookie" not in page.headers or "lang=" not in page.headers["set-cookie"]
    vary = page.headers["vary"].lower()
    # Guide pages are cached: a cache must keep one copy per language.
    assert "accept-language" in vary
    assert "cookie" in vary
    assert html_lang(client.get("/", headers={"accept-language": "fr"}).text) == "en"


# Every page, in every language ---------------------------------------------------------


class Visible(HTMLParser):
    """The text a reader meets: text nodes (not in script, style or code) and the
    attributes that are read out or shown (alt, title, aria-label, placeholder)."""

    SKIP = frozenset({"script", "style", "code"})
    SHOWN = frozenset({"alt", "title", "aria-label", "placeholder"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skipping = 0
        self.meta: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skipping += 1
        values = dict(attrs)
        if tag == "meta" and values.get("name") == "description":
            self.meta.append(values.get("content") or "")
        for name, value in attrs:
            if name in self.SHOWN and value and value != "XXXX-XXXX-XXXX":
                self.texts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.texts.append(" ".join(data.split()))


def visible(html: str) -> list[str]:
    parser = Visible()
    parser.feed(html)
    return parser.texts + parser.meta


SEED = "00" * 32
#: Every page of the site a reader can open (the browser tests read them too).
SITE_PAGES = [
    "/",
    "/play",
    "/daily",
    "/learn",
    "/leaderboard",
    "/privacy",
    f"/verify?seed={SEED}&players=5",
    f"/verify/daily?date=2020-01-01&seed={SEED}",
    *[page.url for page in PAGES],
]
PAGES_TO_READ = [
    *SITE_PAGES,
    "/guide/fragment/trick-demo",
    "/guide/fragment/called-ace",
    "/guide/fragment/schmear",
]


def english_msgids() -> set[str]:
    """The English texts that a translated page must never show as they are."""
    ids = set()
    for message in catalog("pot"):
        if not message.id:
            continue
        for text in [message.id] if isinstance(message.id, str) else list(message.id):
            shown = " ".join(plain(text).split())
            if WORD.search(shown) and len(shown) > 3:
                ids.add(shown)
    return ids


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_page_comes_out_in_the_language_asked_for(client: TestClient, lang: str) -> None:
    english = english_msgids() - {" ".join(s.split()) for s in SAME_IN.get(lang, set())}
    proper = {"Sheepshead", "English", "Deutsch", "বাংলা"}
    for url in PAGES_TO_READ:
        sep = "&" if "?" in url else "?"
        page = client.get(f"{url}{sep}lang={lang}")
        assert page.status_code == 200, url
        if "/fragment/" not in url:
            assert html_lang(page.text) == lang, url
        for text in visible(page.text):
            assert text not in english or text in proper, f"{url}: English left: {text!r}"
            text = CARD_CODES.sub(" ", text)
            if lang == "bn":
                latin = set(WORD.findall(text)) - LATIN_IN_BENGALI
                assert not latin, f"{url}: not Bengali: {sorted(latin)} in {text!r}"


def test_bengali_pages_write_their_numbers_in_bengali_digits(client: TestClient) -> None:
    # Allowed ASCII digits: names (SHA-256, HMAC-SHA256, CC BY-SA 4.0), card indices as
    # printed on the cards, and the example recovery code's format.
    allowed = re.compile(
        r"SHA-?256|HMAC-SHA256|4\.0|(?:10|[2-9])[♣♠♥♦]|7KQ2-M9XD-4TPA|"
        r"\b(?:[0-9a-f]{64}|0{64})\b|one-trick|plain-win"
    )
    for url in PAGES_TO_READ:
        sep = "&" if "?" in url else "?"
        page = client.get(f"{url}{sep}lang=bn")
        for text in visible(page.text):
            rest = allowed.sub(" ", CARD_CODES.sub(" ", text))
            assert not re.search(r"[0-9]", rest), f"{url}: Latin digits in {text!r}"


def test_a_translated_page_carries_its_scripts_catalog(client: TestClient) -> None:
    page = client.get("/play?lang=de").text
    match = re.search(r'<script type="application/json" id="i18n-catalog">(.*?)</script>', page)
    assert match, "the German page has no catalog for its scripts"
    messages = json.loads(match.group(1))
    assert messages["Pick up the blind"] == "Blind aufnehmen"
    assert messages["queen of clubs"] == "Kreuz-Dame"
    assert "i18n-catalog" not in client.get("/play?lang=en").text, "English needs none"
    # The events' and refusals' sentences come from phrases.py, in the page's language.
    found = re.search(r'<script type="application/json" id="phrases">(.*?)</script>', page)
    assert found, "the German page has no phrases"
    phrases = json.loads(found.group(1))
    assert phrases["events"]["trick"]["other"] == [
        "{name} macht den Stich: {n} Auge",
        "{name} macht den Stich: {n} Augen",
    ]
    assert phrases["refusals"]["must-follow"]["you"] == "Du musst {suits} bedienen"
    assert "{name} takes the trick: {n} point" not in messages, "no second copy for the scripts"


def test_every_page_has_a_switch_to_each_language(client: TestClient) -> None:
    for url in ("/", "/play", "/guide/cards", "/leaderboard"):
        page = client.get(f"{url}?lang=bn").text
        switch = re.search(r'<nav class="lang-switch"[^>]*>(.*?)</nav>', page, re.S)
        assert switch, url
        links = re.findall(
            r'<a href="([^"]+)" lang="([a-z]+)" hreflang="[a-z]+"([^>]*)>', switch[1]
        )
        assert [code for _, code, _ in links] == ["en", "bn", "de"]
        assert all(href.startswith(url.split("?")[0]) for href, _, _ in links)
        assert [code for _, code, rest in links if "aria-current" in rest] == ["bn"]


# Numbers, dates and card names ------------------------------------------------------------


def test_numbers_and_dates_follow_the_language() -> None:
    i18n.use("bn")
    assert i18n.number(1234) == "১,২৩৪"
    assert i18n.signed(-4) == "−৪"
    assert i18n.signed(2) == "+২"
    assert i18n.signed(0) == "০"
    assert i18n.long_date("2026-10-14") == "১৪ অক্টোবর, ২০২৬"
    i18n.use("de")
    assert i18n.number(1234) == "1.234"
    assert i18n.long_date("2026-10-14") == "14. Oktober 2026"
    i18n.use("en")
    assert i18n.signed(-4) == "−4"
    assert i18n.long_date("2026-10-14") == "October 14, 2026"


def test_every_card_has_its_name_in_every_language() -> None:
    for lang in TRANSLATED:
        i18n.use(lang)
        names = {i18n.card_name(card) for card in DECK}
        assert len(names) == len(DECK), f"{lang}: two cards share a name"
        assert not names & {card.name for card in DECK}, f"{lang}: an English card name"
    i18n.use("en")
    assert i18n.card_name("QC") == "queen of clubs"
    assert i18n.card_list(["ten of clubs", "ace of hearts"]) == "ten of clubs and the ace of hearts"


# The catalogs ----------------------------------------------------------------------------


def extracted() -> dict[str, set[str]]:
    """Every message of the sources, extracted as docs/i18n.md does, by file."""
    config = RawConfigParser()
    config.read(ROOT / "babel.cfg")
    method_map = []
    options_map = {}
    for section in config.sections():
        method, pattern = (part.strip() for part in section.split(":", 1))
        method_map.append((pattern, method))
        options_map[pattern] = dict(config.items(section))
    found: dict[str, set[str]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path, _, message, _, _ in extract_from_dir(
            ROOT, method_map, options_map, keywords=KEYWORDS
        ):
            msgid = message if isinstance(message, str) else message[0]
            if msgid:
                found.setdefault(msgid, set()).add(path)
    return found


def test_every_message_of_the_sources_is_in_the_catalogs() -> None:
    sources = extracted()
    pot = message_ids(catalog("pot"))
    missing = sorted(set(sources) - pot)
    assert not missing, f"not in messages.pot (run the extraction of docs/i18n.md): {missing}"
    stale = sorted(pot - set(sources))
    assert not stale, f"messages.pot holds messages no source has: {stale}"
    for lang in ("en", *TRANSLATED):
        assert message_ids(catalog(lang)) == pot, f"{lang}.po is not updated from messages.pot"


def test_script_messages_are_marked_as_such_in_the_catalogs() -> None:
    """The scripts' catalog is chosen by the .js locations: they must be up to date."""
    sources = extracted()
    for lang in TRANSLATED:
        for message in catalog(lang):
            if not message.id:
                continue
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            in_scripts = any(path.endswith(".js") for path in sources.get(msgid, ()))
            marked = any(path.endswith(".js") for path, _ in message.locations)
            assert in_scripts == marked, f"{lang}: {msgid!r} has stale locations"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_has_a_translation(lang: str) -> None:
    for message in catalog(lang):
        if not message.id:
            continue
        assert not message.fuzzy, f"{lang}: fuzzy {message.id!r}"
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert strings, f"{lang}: no translation of {message.id!r}"
        assert all(strings), f"{lang}: no translation of {message.id!r}"
        if isinstance(message.id, str) and message.string == message.id:
            assert message.id in SAME_IN[lang], f"{lang}: untranslated {message.id!r}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders_and_the_markup(lang: str) -> None:
    for message in catalog(lang):
        if not message.id:
            continue
        source = message.id if isinstance(message.id, str) else message.id[1]
        for text in translations(message):
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(source)), text
            assert sorted(TAG.findall(text)) == sorted(TAG.findall(source)), text


def test_bengali_translations_are_in_bengali() -> None:
    for message in catalog("bn"):
        if not message.id:
            continue
        for text in translations(message):
            latin = set(WORD.findall(plain(text))) - LATIN_IN_BENGALI
            assert not latin, f"Latin words {sorted(latin)} in {text!r}"
            digits = re.sub(r"SHA-?256|HMAC-SHA256|4\.0|7KQ2-M9XD-4TPA", "", plain(text))
            assert not re.search(r"[0-9]", digits), f"Latin digits in {text!r}"


# The glossaries -------------------------------------------------------------------------------


def glossary(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LOCALE / f"glossary-{lang}.json").read_text("utf-8"))
    return data


def translated(lang: str) -> dict[str, str]:
    return {
        m.id: str(m.string) for m in catalog(lang) if m.id and isinstance(m.id, str) and m.string
    }


def nfc(text: str) -> str:
    # A soft hyphen (German's long column names) is where a word may break, not text.
    return unicodedata.normalize("NFC", text.replace("\u00ad", "")).casefold()


def test_the_glossaries_cover_the_same_words() -> None:
    english = glossary("en")
    for lang in TRANSLATED:
        other = glossary(lang)
        assert other["language"] == lang
        for part in ("ranks", "suits", "cards", "terms"):
            assert other[part].keys() == english[part].keys(), f"{lang}: {part}"
        assert english["cards"].keys() == {card.text for card in DECK}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalogs_name_the_cards_as_the_glossary_does(lang: str) -> None:
    words = glossary(lang)
    strings = translated(lang)
    for card in DECK:
        name = words["cards"][card.text]
        assert strings[card.name] == name, card.text
        assert nfc(words["ranks"][card.rank.value]) in nfc(name)
        assert nfc(words["suits"][card.suit.value]["one"]) in nfc(name)
    suits = {"C": "club", "S": "spade", "H": "heart", "D": "diamond"}
    for code, word in suits.items():
        assert strings[word] == words["suits"][code]["one"]
        assert strings[word + "s"] == words["suits"][code]["many"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_guide_uses_the_glossary_terms(lang: str) -> None:
    """Each term of the rules guide's glossary is translated with the glossary's word."""
    words = glossary(lang)["terms"]
    strings = translated(lang)
    for anchor, term in GLOSSARY:
        if anchor not in words:
            continue
        expected = nfc(words[anchor]["term"])
        assert expected in nfc(strings[term]), f"{lang}: {term!r} -> {strings[term]!r}"
    # And each term is used in the translated guide, not only in the glossary file.
    text = nfc(" ".join(strings.values()))
    for entry in words.values():
        assert nfc(entry["term"]) in text, f"{lang}: the catalog never says {entry['term']!r}"


def test_bengali_starts_from_the_products_own_words() -> None:
    words = glossary("bn")
    everything = nfc(json.dumps(words, ensure_ascii=False))
    strings = nfc(" ".join(translated("bn").values()))
    for word in BLURB_WORDS:
        assert nfc(word) in everything, word
        assert nfc(word) in strings, word
    if BLURB.exists():
        blurb = nfc(BLURB.read_text("utf-8"))
        assert all(nfc(word) in blurb for word in BLURB_WORDS)


def test_german_uses_french_suited_card_words() -> None:
    words = glossary("de")
    assert words["ranks"] == {
        "7": "Sieben", "8": "Acht", "9": "Neun", "T": "Zehn",
        "J": "Bube", "Q": "Dame", "K": "König", "A": "Ass",
    }  # fmt: skip
    assert [words["suits"][s]["one"] for s in "CSHD"] == ["Kreuz", "Pik", "Herz", "Karo"]
    strings = " ".join(translated("de").values())
    # Bavarian-suited names would be the wrong deck; English game words the wrong language.
    for word in (r"\w+-Ober", r"\w+-Unter", "Eichel", "Schelle", "Picker", "Trick", "Bury"):
        assert not re.search(rf"\b{word}\b", strings), word
