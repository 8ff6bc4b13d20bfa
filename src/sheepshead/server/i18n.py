"""The site in English, Bengali and German: which language a request gets, the
gettext catalogs (``sheepshead/locale``), and numbers and dates in that language.

- **Which language.** A ``?lang=`` on any page wins and is remembered in the ``lang``
  cookie; then that cookie; then the browser's ``Accept-Language``; then English.
  ``LocaleMiddleware`` decides once per request and keeps the answer in a context
  variable, so templates, filters and ``gettext`` all see the same language.
- **Catalogs.** ``locale/<lang>/LC_MESSAGES/messages.po`` are the only source: each is
  compiled in memory the first time it is needed (no ``.mo`` file to go stale). The
  messages of the page scripts (those whose source is a ``.js`` file) go into the
  page as JSON, for ``static/js/i18n.js``.
- **Numbers and dates** follow the language, with Bengali digits in Bengali. Card
  indices ("10♦") are printed on the cards and never change.

``docs/i18n.md`` says how to add a string, extract, translate and check.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, date, datetime
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode
from zoneinfo import ZoneInfo

import jinja2
from babel.dates import format_date, format_time
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sheepshead import phrases as catalog_phrases
from sheepshead.cards import Card
from sheepshead.phrases import Message as Phrase

#: Each language by its code, named in itself (as the language switch shows it).
LANGUAGES: dict[str, str] = {"en": "English", "bn": "বাংলা", "de": "Deutsch"}
DEFAULT = "en"
COOKIE = "lang"
#: A year: the choice outlives a browser session.
COOKIE_AGE = 365 * 24 * 3600
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"

_current: ContextVar[str] = ContextVar("sheepshead_language", default=DEFAULT)

_DIGITS = {"bn": str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")}


def N_(message: str) -> str:
    """Mark a string for extraction where it is defined; translate it where it is shown."""
    return message


# Which language -------------------------------------------------------------------


def current() -> str:
    """The language of the request being served (English outside a request)."""
    return _current.get()


def use(lang: str) -> None:
    """Serve the rest of this context in ``lang`` (tests and the command line)."""
    _current.set(lang if lang in LANGUAGES else DEFAULT)


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Serve the block in ``lang``, then the language before it (an error page made
    outside ``LocaleMiddleware``)."""
    token = _current.set(lang if lang in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _current.reset(token)


def _primary(tag: str) -> str:
    return tag.strip().replace("_", "-").split("-")[0].lower()


def from_accept_language(header: str) -> str | None:
    """The first language of ours in a browser's preference list, by its q-values."""
    wanted: list[tuple[float, int, str]] = []
    for order, part in enumerate(header.split(",")):
        tag, _, params = part.partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag.strip() and quality > 0:
            wanted.append((-quality, order, _primary(tag)))
    for _, _, lang in sorted(wanted):
        if lang in LANGUAGES:
            return lang
    return None


def negotiate(query: str | None, cookie: str | None, accept_language: str | None) -> str:
    for choice in (query, cookie):
        if choice and _primary(choice) in LANGUAGES:
            return _primary(choice)
    return from_accept_language(accept_language or "") or DEFAULT


def _cookie_value(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


class LocaleMiddleware:
    """Decide the request's language; remember a ``?lang=`` choice in a cookie; mark
    pages with their ``Content-Language`` and let caches keep one copy per language."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"))).get("lang")
        cookie = _cookie_value(headers.get("cookie", ""), COOKIE)
        lang = negotiate(query, cookie, headers.get("accept-language"))
        remember = bool(query) and _primary(query or "") == lang and cookie != lang
        secure = "; Secure" if scope.get("scheme") == "https" else ""

        async def send_with_language(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = MutableHeaders(scope=message)
                if out.get("content-type", "").startswith("text/html"):
                    out["content-language"] = lang
                    out.add_vary_header("Accept-Language")
                    out.add_vary_header("Cookie")
                if remember:
                    out.append(
                        "set-cookie",
                        f"{COOKIE}={lang}; Max-Age={COOKIE_AGE}; Path=/; SameSite=Lax{secure}",
                    )
            await send(message)

        token = _current.set(lang)
        try:
            await self.app(scope, receive, send_with_language)
        finally:
            _current.reset(token)


# Catalogs -----------------------------------------------------------------------------


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalog(lang: str) -> Catalog:
    """The language's ``.po`` file as Babel reads it (fuzzy entries included)."""
    with po_path(lang).open("rb") as po:
        return read_po(po, locale=lang)


@cache
def translations(lang: str) -> Translations:
    """The catalog compiled in memory; fuzzy and empty entries fall back to English."""
    mo = io.BytesIO()
    write_mo(mo, catalog(lang), use_fuzzy=False)
    mo.seek(0)
    return Translations(mo, domain=DOMAIN)


def gettext(message: str) -> str:
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """For one English word with two meanings ("Play": the site's tab, or what is played)."""
    return str(translations(current()).pgettext(context, message))


def _is_script_message(locations: Sequence[tuple[str, int | None]]) -> bool:
    return any(path.endswith(".js") for path, _ in locations)


@cache
def script_messages(lang: str) -> dict[str, str | list[str]]:
    """The page scripts' messages and their translations (a list for a plural), as
    ``i18n.js`` reads them. English needs none: its messages are their own text."""
    if lang == DEFAULT:
        return {}
    out: dict[str, str | list[str]] = {}
    for message in catalog(lang):
        if not message.id or message.fuzzy or not _is_script_message(message.locations):
            continue
        if isinstance(message.id, tuple):
            forms = [str(s) for s in message.string or ()]
            if forms and all(forms):
                out[str(message.id[0])] = forms
        elif message.string:
            out[str(message.id)] = str(message.string)
    return out


def _phrase(lang: str, message: Phrase) -> str | list[str]:
    """One message of ``phrases.py`` in ``lang``: a string, or a plural's forms."""
    if isinstance(message, str):
        return str(translations(lang).gettext(message))
    if lang != DEFAULT:
        found = catalog(lang).get(message[0])
        forms = [] if found is None or found.fuzzy else [str(f) for f in found.string or ()]
        if forms and all(forms):
            return forms
    return list(message)


@cache
def phrases(lang: str) -> dict[str, Any]:
    """The catalog of ``phrases.py`` in ``lang``, as the page reads it (``#phrases``,
    ``static/js/words.js``): ``{"events": {type: {variant: message}}, "refusals": {code:
    {variant: message}}, "scripts": {name: word}, "lesson": {kind: {part: message}}}``,
    a message a string with ``{name}`` placeholders, or a plural's forms (the form for
    one first)."""
    return {
        "events": {
            kind: {variant: _phrase(lang, m) for variant, m in variants.items()}
            for kind, variants in catalog_phrases.EVENTS.items()
        },
        "refusals": {
            code: {variant: _phrase(lang, m) for variant, m in variants.items()}
            for code, variants in catalog_phrases.REFUSALS.items()
        },
        "scripts": {name: _phrase(lang, m) for name, m in catalog_phrases.SCRIPTS.items()},
        "lesson": {
            kind: {part: _phrase(lang, m) for part, m in parts.items()}
            for kind, parts in catalog_phrases.LESSON.items()
        },
    }


# Numbers, dates and card names ----------------------------------------------------------


def digits(text: str, lang: str | None = None) -> str:
    """Write the digits of ``text`` as the language does (Bengali digits in Bengali)."""
    table = _DIGITS.get(lang or current())
    return text.translate(table) if table else text


def number(n: float) -> str:
    lang = current()
    return digits(format_decimal(n, locale=lang), lang)


def signed(n: int) -> str:
    """A score: "+2", "−4", "0" (a true minus sign, as printed score sheets have it)."""
    if n > 0:
        return "+" + number(n)
    if n < 0:
        return "−" + number(-n)
    return number(0)


def written_date(day: date | str, date_format: str = "long") -> str:
    """A day as the language writes it, in Babel's ``date_format``: "long" (December 2,
    2026) or "medium" (Dec 2, 2026; "02.12.2026")."""
    lang = current()
    when = date.fromisoformat(day) if isinstance(day, str) else day
    return digits(format_date(when, format=date_format, locale=lang), lang)


def long_date(day: date | str) -> str:
    return written_date(day, "long")


def medium_date(day: date | str) -> str:
    return written_date(day, "medium")


def moment(instant: str, zone: str = "UTC", date_format: str = "long") -> str:
    """An ISO instant as the language writes a date and time, in UTC unless ``zone``
    names another, the zone's abbreviation after the time ("UTC", "CST"); the page's
    script shows it again in the reader's own time zone. ``date_format``: Babel's
    "long" (December 2, 2026) or "medium" (Dec 2, 2026, as the scripts write it)."""
    lang = current()
    tz = UTC if zone == "UTC" else ZoneInfo(zone)
    when = datetime.fromisoformat(instant).astimezone(tz)
    # Bengali clocks read in 24 hours here: CLDR's Bengali "AM"/"PM" are Latin letters.
    time = format_time(when, "HH:mm" if lang == "bn" else "short", tzinfo=tz, locale=lang)
    day = written_date(when.date(), date_format)
    return f"{day}, {digits(time, lang)} {when.tzname()}"


def card_name(card: Card | str | Any) -> str:
    """A card's name in the reader's language: "queen of clubs", "Kreuz-Dame", "চিড়িতনের বিবি".
    Takes a ``Card``, its text, or anything with a ``text`` field (the guide's cards)."""
    if not isinstance(card, Card):
        card = Card.parse(card if isinstance(card, str) else str(card.text))
    return gettext(card.name)


def card_list(names: list[str] | Any) -> str:
    """Card names joined as the language joins a list. English sentences say "the"
    before the first name, so the others get theirs here: "the ten and the ace"."""
    names = [str(n) for n in names]
    lang = current()
    if lang == DEFAULT:
        return names[0] if len(names) == 1 else ", the ".join(names[:-1]) + " and the " + names[-1]
    return format_list(names, locale=lang)


# Templates ---------------------------------------------------------------------------------


def lang_url(request: Request, lang: str) -> str:
    """This page's address in another language (other query parameters kept)."""
    params = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
    return f"{request.url.path}?{urlencode([*params, ('lang', lang)])}"


@jinja2.pass_context
def _lang_url(context: Mapping[str, Any], lang: str) -> str:
    request = context.get("request")
    if request is None:
        return f"?lang={lang}"
    return lang_url(request, lang)


def install(env: jinja2.Environment) -> None:
    """Give templates ``_``, ``gettext``, ``ngettext``, ``pgettext`` and ``{% trans %}`` in
    the request's language, ``current_lang()``, ``languages``, ``lang_url(code)``,
    ``card_name(c)``, ``script_messages()``, ``phrases()``, and the filters ``num``, ``signed``,
    ``longdate``, ``moment``, ``cardname``, ``cards`` (card names joined as a list) and
    ``digits``."""
    env.add_extension("jinja2.ext.i18n")
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext, ngettext, newstyle=True, pgettext=pgettext
    )
    env.globals["current_lang"] = current
    env.globals["languages"] = LANGUAGES
    env.globals["lang_url"] = _lang_url
    env.globals["card_name"] = card_name
    env.globals["script_messages"] = lambda: script_messages(current())
    env.globals["phrases"] = lambda: phrases(current())
    env.filters["num"] = number
    env.filters["signed"] = signed
    env.filters["longdate"] = long_date
    env.filters["mediumdate"] = medium_date
    env.filters["moment"] = moment
    env.filters["cards"] = card_list
    env.filters["cardname"] = card_name
    env.filters["digits"] = lambda text: digits(str(text))
