"""Display names on the leaderboard, the label of a player without one, and the recovery
codes that carry an identity.

No I/O but the package's own data (ICU's, and the level names of the catalogs), no
randomness (the server draws a code's bits with ``secrets``).

What a name may contain is decided by an allow-list: Unicode's identifier profile of
UTS #39 (``Identifier_Status=Allowed``), as ICU carries it (the ``pyicu-wheels`` wheel:
``UNICODE_VERSION`` below, checked by the tests). ICU also gives the skeleton (UTS #39
section 4, which drops default-ignorable code points) and the "highly restrictive"
mixed-script check (section 5.2, with script extensions). Everything else here (the
marks, the joiners, whole-script look-alikes, names that pose as the site, its staff or
a computer player) is ours, on ICU's data, so that every rule reads one Unicode version.

A display name is checked, then stored with two keys, each unique on the site:

- ``key``: NFKC_Casefold (which also drops default-ignorables): "Bob", "BOB" and "Ｂｏｂ"
  are one name;
- ``look``: the look-alike key, the skeleton of the case-folded skeleton: "Bob" written
  with a Cyrillic "о", or "B0b" with a zero, is refused when "Bob" is taken.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import icu  # type: ignore[import-untyped]
from babel.messages.pofile import read_po

from sheepshead.bots import LEVELS, SEAT_NAMES
from sheepshead.phrases import refusal_english

#: The Unicode version of every rule here (ICU's data). A new ICU changes skeletons and
#: the profile: its upgrade re-keys the stored names (migration ``names_0001`` shows how).
UNICODE_VERSION: str = icu.UNICODE_VERSION
ICU_VERSION: str = icu.ICU_VERSION

MIN_LENGTH = 3
MAX_LENGTH = 24
#: Besides letters, marks and digits of the profile: the space and these.
PUNCTUATION = "-_.'"
#: Typographic apostrophes phones type for "'", read as it.
_APOSTROPHES = {"\u2019": "'", "\u02bc": "'", "\u2018": "'"}
#: At most this many non-spacing marks on one letter, none twice (UTS #39 section 5.4):
#: enough for Vietnamese and for a Bengali vowel sign with candrabindu or nukta.
MAX_MARKS = 3

_NFKC = icu.Normalizer2.getNFKCInstance()
_NFD = icu.Normalizer2.getNFDInstance()
_NFKC_CF = icu.Normalizer2.getNFKCCasefoldInstance()
_PROFILE = icu.UnicodeSet("[:Identifier_Status=Allowed:]")
_IGNORABLE = icu.UnicodeSet("[:Default_Ignorable_Code_Point:]")
# Frozen: read by many threads at once.
_PROFILE.freeze()
_IGNORABLE.freeze()
_SPOOF = icu.SpoofChecker()
_SPOOF.setRestrictionLevel(icu.URestrictionLevel.HIGHLY_RESTRICTIVE)
_SPOOF.setChecks(icu.USpoofChecks.RESTRICTION_LEVEL | icu.USpoofChecks.MIXED_NUMBERS)
_CATEGORY = {
    getattr(icu.UCharCategory, name): code
    for name, code in {
        "UPPERCASE_LETTER": "Lu",
        "LOWERCASE_LETTER": "Ll",
        "TITLECASE_LETTER": "Lt",
        "MODIFIER_LETTER": "Lm",
        "OTHER_LETTER": "Lo",
        "NON_SPACING_MARK": "Mn",
        "COMBINING_SPACING_MARK": "Mc",
        "ENCLOSING_MARK": "Me",
        "DECIMAL_DIGIT_NUMBER": "Nd",
        "LETTER_NUMBER": "Nl",
        "OTHER_NUMBER": "No",
        "SPACE_SEPARATOR": "Zs",
        "LINE_SEPARATOR": "Zl",
        "PARAGRAPH_SEPARATOR": "Zp",
        "CONTROL_CHAR": "Cc",
        "FORMAT_CHAR": "Cf",
        "PRIVATE_USE_CHAR": "Co",
        "SURROGATE": "Cs",
        "UNASSIGNED": "Cn",
    }.items()
}
_NEUTRAL_SCRIPTS = frozenset({"Zyyy", "Zinh"})
_VIRAMA = 9
#: RFC 5892's joining types (ICU's UJoiningType numbers).
_JT_CAUSING, _JT_DUAL, _JT_LEFT, _JT_RIGHT, _JT_TRANSPARENT = 1, 2, 3, 4, 5


def category(ch: str) -> str:
    """The general category, two letters ("Lu", "Mn"), as ICU's data says."""
    return _CATEGORY.get(icu.Char.charType(ch), "So")


def _script(ch: str) -> str:
    return str(icu.Script.getScript(ch).getShortName())


def _script_name(ch: str) -> str:
    return str(icu.Script.getScript(ch).getName()).replace("_", " ")


class NameRefused(ValueError):
    """A display name that cannot be used: its refusal ``code`` and ``params``
    (``phrases.REFUSALS``, ``docs/api.md``), the ``reason`` in English made from them,
    and its kind (for the tests and the logs): markup, invisible, symbol, profile,
    length, marks, letter, mixed_script, whole_script, site, staff, computer, reserved.

    ``params`` hold what the sentence names: ``n`` (a length limit), ``shown`` (a
    refused character as the page shows it: itself, or its code point such as
    ``U+200B`` if it cannot be seen), ``scripts`` (the scripts mixed, by ICU's names).
    """

    def __init__(
        self,
        code: str,
        kind: str = "other",
        params: Mapping[str, Any] | None = None,
        variant: str = "you",
    ) -> None:
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        self.variant = variant
        reason = refusal_english(code, {**self.params, **_english_params(self.params)}, variant)
        super().__init__(reason)
        self.reason = reason
        self.kind = kind


def _english_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """The server's English names a refused character with its Unicode name."""
    out: dict[str, Any] = {}
    if "described" in params:
        out["char"] = params["described"]
    if "scripts" in params:
        out["scripts"] = " and ".join(params["scripts"])
    return out


def _refused_char(code: str, kind: str, ch: str) -> NameRefused:
    """A refused character: the page shows it quoted, or its code point if it cannot
    be seen; the server's English adds its Unicode name (``_describe``)."""
    visible = category(ch)[0] not in "CZ" and ch not in _IGNORABLE
    point = f"U+{ord(ch):04X}"
    shown = f'"{ch}"' if visible else point
    return NameRefused(code, kind, {"codepoint": point, "shown": shown, "described": _describe(ch)})


@dataclass(frozen=True, slots=True)
class DisplayName:
    #: The name as shown: trimmed, NFKC, single spaces.
    text: str
    #: Unique on the site: NFKC_Casefold.
    key: str
    #: Unique on the site too: the case-folded UTS #39 skeleton.
    look: str


# Joiners -------------------------------------------------------------------------

#: Zero-width non-joiner and joiner: invisible, but Bengali and other Indic names need
#: them next to a virama to choose a conjunct's shape ("র‍্যাব": ra, joiner, virama, ya).
_JOINERS = frozenset("\u200c\u200d")


def _joining_type(ch: str) -> int:
    return int(icu.Char.getIntPropertyValue(ch, icu.UProperty.JOINING_TYPE))


def _joins(text: str, i: int) -> bool:
    """RFC 5892's CONTEXTJ rules for the joiner at ``i``: after a virama (both
    joiners), or a non-joiner between two letters that join (Arabic script); and, as
    Bengali's ra-phala needs (র‍্য: ra, joiner, virama, ya), before a virama. Either
    way between two characters of one script, never at an end or next to another
    joiner."""
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if not before or not after or before in _JOINERS or after in _JOINERS:
        return False
    if _script(before) != _script(after):
        return False
    if _VIRAMA in (icu.Char.getCombiningClass(before), icu.Char.getCombiningClass(after)):
        return True
    if text[i] != "\u200c":
        return False
    left = next((c for c in reversed(text[:i]) if _joining_type(c) != _JT_TRANSPARENT), "")
    right = next((c for c in text[i + 1 :] if _joining_type(c) != _JT_TRANSPARENT), "")
    return bool(
        left
        and right
        and _joining_type(left) in (_JT_DUAL, _JT_LEFT, _JT_CAUSING)
        and _joining_type(right) in (_JT_DUAL, _JT_RIGHT, _JT_CAUSING)
    )


# Keys ------------------------------------------------------------------------------


def fold_key(text: str) -> str:
    """NFKC_Casefold: case, width and compatibility forms aside, and without the
    joiners (and any other default-ignorable), which change a glyph's shape, not the
    name."""
    return str(_NFKC_CF.normalize(text))


def skeleton(text: str) -> str:
    """UTS #39's skeleton (ICU's): NFD, default-ignorables dropped, each character
    replaced by its prototype, NFD again."""
    return str(_SPOOF.getSkeleton(0, text))


def look_key(text: str) -> str:
    """Two names with the same look key could be mistaken for each other: the skeleton,
    case folded (a capital has look-alikes of its own: "ВОВ" reads "BOB"), and the
    skeleton of that."""
    return skeleton(fold_key(skeleton(str(_NFKC.normalize(text)))))


def keys(text: str) -> tuple[str, str]:
    """``(key, look)`` of any text, checked or not (a moderator's typing, a name stored
    under older rules)."""
    return fold_key(text), look_key(text)


# The board's label for a player without a name ----------------------------------

#: "Player #" and six symbols of Crockford's base32, at least one a digit: a keyed hash
#: of the identity, so that it tells nothing of the cookie.
LABEL_PREFIX = "Player #"
LABEL_SYMBOLS = 6


def player_label(secret: bytes, player_id: str) -> str:
    """The board's name for a player without one (or whose name is hidden): the same on
    every board, and unrelated to the id without the server's secret."""
    digest = hmac.new(secret, b"label:" + player_id.encode(), hashlib.sha256).digest()
    value = int.from_bytes(digest[:8], "big")
    symbols = [CROCKFORD[(value >> (5 * i)) & 31] for i in range(LABEL_SYMBOLS)]
    if not any(s.isdigit() for s in symbols):
        # A digit in every label: so that no word ("Player Decade") passes for one.
        symbols[-1] = str(digest[8] % 10)
    return LABEL_PREFIX + "".join(symbols)


# Words that pose as the site, its staff or a computer player -------------------

#: The site's name (and the game's German one, which a German reader takes for it).
SITE_WORDS = ("sheepshead", "schafkopf", "শিপসহেড")
#: Words that claim a role on the site, in the three languages (and Korean, whose
#: names the profile allows): with the site's name
#: ("Sheepshead Team") or as the whole name ("Staff", "Support").
STAFF_WORDS = (
    *("team", "official", "staff", "support", "admin", "administrator", "moderator", "mod"),
    *("helpdesk", "system", "offiziell", "mitarbeiter", "personal", "betreiber"),
    *("verwaltung", "moderation", "দল", "টিম", "অফিসিয়াল", "অফিশিয়াল", "কর্মী", "সহায়তা"),
    *("সাপোর্ট", "অ্যাডমিন", "প্রশাসক", "মডারেটর", "পরিচালক", "팀", "운영자", "관리자"),
)
#: Staff words that claim a role wherever they stand as a word ("Admin Bob").
TITLES = ("admin", "administrator", "moderator", "অ্যাডমিন", "প্রশাসক", "মডারেটর", "관리자")
#: Words that say "computer player".
COMPUTER_WORDS = (
    # Not "AI" (or "KI"): with "l" read as "I" it is "Al", a name.
    *("bot", "robot", "computer", "cpu", "npc", "machine", "engine"),
    *("rechner", "roboter", "maschine", "computerspieler"),
    *("কম্পিউটার", "বট", "রোবট", "যন্ত্র"),
)
#: Words that may stand with the others without making a name ("The Expert").
_FILLERS = ("the", "a", "der", "die", "das", "player", "spieler", "খেলোয়াড়")
#: Other names nobody may take: they would pass for the site's words or for nobody.
RESERVED = ("you", "anonymous", "nobody", "unknown", "deleted", "du", "আপনি")


@cache
def _level_words() -> tuple[str, ...]:
    """The computer players' levels, as the code names them and as the catalogs
    translate them ("expert", "Experte", "দক্ষ")."""
    words = list(LEVELS)
    titles = {level.title() for level in LEVELS}
    locale = resources.files("sheepshead") / "locale"
    for lang in ("de", "bn"):
        with (locale / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
            catalog = read_po(handle)
        for title in sorted(titles):
            message = catalog.get(title)
            if message is not None and isinstance(message.string, str) and message.string:
                words.append(message.string)
    return tuple(words)


def _seat_names() -> tuple[str, ...]:
    """The computer players' seat names, as the table shows them."""
    return SEAT_NAMES


#: Digits written for letters ("ADM1N", "3XP3RT"), and "l" for "i" after the skeleton
#: (a capital "I" and a small "l" look the same in many fonts).
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b"})
_LEET_AFTER = str.maketrans({"l": "i"})


def _form(text: str) -> str:
    """What a piece of a name reads as: case folded, digits read as the letters they
    stand for, the case-folded skeleton without accents, spaces or punctuation."""
    # The case stays until the skeleton has read it: capitals have look-alikes of their
    # own ("ВОТ" reads "BOT", "вот" does not).
    read = look_key(text.translate(_LEET)).translate(_LEET_AFTER)
    plain = str(_NFD.normalize(read))
    return "".join(ch for ch in plain if category(ch)[0] in "LN")


@cache
def _forms(words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(_form(w) for w in words)


def _words(text: str) -> list[str]:
    """The words of a name: runs of letters, marks and digits."""
    words: list[str] = []
    word = ""
    for ch in text:
        if category(ch)[0] in "LMN" or ch in _JOINERS:
            word += ch
        elif word:
            words.append(word)
            word = ""
    if word:
        words.append(word)
    return words


def _runs(words: list[str]) -> Iterable[tuple[int, int, str]]:
    """Every run of consecutive words, read as one ("Sheeps Head", "Ad min"), with a
    count after it dropped ("Bot 7", "Admin2")."""
    for first in range(len(words)):
        for last in range(first + 1, len(words) + 1):
            run = "".join(words[first:last])
            for piece in {run, run.rstrip("0123456789")}:
                if piece:
                    yield first, last, _form(piece)


def _posing(words: list[str]) -> str | None:
    """The kind of posing the name does, if any: "site", "staff", "computer",
    "reserved"."""
    site, staff = _forms(SITE_WORDS), _forms(STAFF_WORDS)
    titles, computer = _forms(TITLES), _forms(COMPUTER_WORDS)
    levels, seats = _forms(_level_words()), _forms(_seat_names())
    fillers, reserved = _forms(_FILLERS), _forms(RESERVED)
    found: dict[str, set[int]] = {}
    for first, last, form in _runs(words):
        for kind, forms in (
            ("site", site),
            ("staff", staff),
            ("title", titles),
            ("computer", computer),
            ("level", levels),
            ("seat", seats),
            ("filler", fillers),
            ("reserved", reserved),
        ):
            if form in forms:
                found.setdefault(kind, set()).update(range(first, last))
    every = set(range(len(words)))
    if "site" in found and ("staff" in found or found["site"] == every):
        return "site"  # "Sheepshead Team", "Official Sheepshead", "Sheeps Head"
    if "title" in found:
        return "staff"  # "Admin Bob", "Bob the Moderator"
    posing = found.get("computer", set()) | found.get("level", set())
    if posing and (
        "seat" in found
        or ("computer" in found and "level" in found)
        or posing | found.get("filler", set()) == every
    ):
        return "computer"  # "Ann Bot", "Expert Eve", "Expert Bot", "The Expert"
    if "staff" in found and found["staff"] | found.get("filler", set()) == every:
        return "staff"  # "Staff", "Support", "Support Team"
    if "reserved" in found and found["reserved"] == every:
        return "reserved"
    return None


#: What may follow "player" in a name that passes for the board's label: symbols of
#: Crockford's base32 (and i, l, o, u, read as the reader reads them).
_LABEL_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")


def _passes_for_label(words: list[str]) -> bool:
    """Whether the name passes for the board's "Player #7KQ2M9": "player" (or a
    look-alike) begins it, followed in the same word or the next by a code with a
    digit ("Player 1234", "Player1", "P1ayer_0f3a9c", "Player 7KQ2M9"). Every label
    has a digit, so "Player One" and "Player Decade" are names."""
    if not words:
        return False
    first = words[0]
    target = _form("player")
    for end in range(1, len(first) + 1):
        if _form(first[:end]) == target:
            rest = (first[end:] or (words[1] if len(words) > 1 else "")).casefold()
            break
    else:
        return False
    return bool(rest) and set(rest) <= _LABEL_CHARS and any(ch.isdigit() for ch in rest)


# The check ---------------------------------------------------------------------


def _describe(ch: str) -> str:
    name = str(icu.Char.charName(ch) or "")
    cat = category(ch)
    shown = ch if cat[0] not in "CZ" and ch not in _IGNORABLE else ""
    code = f"U+{ord(ch):04X}"
    return f'"{shown}" ({name.lower() or code})' if shown else f"{code} {name.lower()}".strip()


def _tidy(raw: str) -> str:
    text = "".join(_APOSTROPHES.get(ch, ch) for ch in raw)
    text = str(_NFKC.normalize(text)).strip(" ")
    # Runs of spaces (NFKC turns most other space characters into U+0020) become one.
    return " ".join(part for part in text.split(" ") if part)


def _check_characters(text: str) -> None:
    for i, ch in enumerate(text):
        if ch == " " or (ch in _JOINERS and _joins(text, i)):
            continue
        cat = category(ch)
        if ch in _IGNORABLE or cat[0] in "CZ":
            raise _refused_char("name-invisible", "invisible", ch)
    for ch in text:
        if ch == " " or ch in _JOINERS:
            continue
        cat = category(ch)
        if not (cat[0] in "LM" or cat == "Nd" or ch in PUNCTUATION):
            raise _refused_char("name-symbol", "symbol", ch)
        if ch not in _PROFILE:
            raise _refused_char("name-profile", "profile", ch)


def _check_marks(text: str) -> None:
    """No mark without a letter, at most ``MAX_MARKS`` non-spacing marks on a letter,
    and none twice on one letter (NFD: an accent composed with its letter counts)."""
    marks: list[str] = []
    previous = ""
    for ch in str(_NFD.normalize(text)):
        if ch in _JOINERS:
            continue  # invisible: the virama beside it still belongs to the letter
        cat = category(ch)
        if cat[0] == "M":
            if not (previous and category(previous)[0] in "LM"):
                raise NameRefused("name-mark-alone", "marks")
            if cat in ("Mn", "Me"):
                if ch in marks:
                    raise NameRefused("name-mark-twice", "marks")
                marks.append(ch)
                if len(marks) > MAX_MARKS:
                    raise NameRefused("name-too-many-marks", "marks")
        else:
            marks = []
        previous = ch


def _check_scripts(text: str) -> None:
    plain = "".join(ch for ch in text if ch not in _JOINERS)
    scripts = {_script_name(ch) for ch in plain if category(ch)[0] in "LN"} - {
        "Common",
        "Inherited",
    }
    if _SPOOF.check(plain):
        if len(scripts) > 1:
            raise NameRefused("name-mixed-scripts", "mixed_script", {"scripts": sorted(scripts)})
        raise NameRefused("name-mixed-scripts", "mixed_script", {"scripts": []}, "unnamed")
    # Whole-script look-alikes (UTS #39 section 4): "ѕсоре" in Cyrillic reads as Latin
    # "scope". Refused when every letter's prototype is a letter of the profile of one
    # other script, so that someone could type the same-looking name there.
    own = {_script(ch) for ch in plain if category(ch)[0] == "L"} - _NEUTRAL_SCRIPTS
    shape = skeleton(plain)
    letters = [ch for ch in str(_NFD.normalize(shape)) if category(ch)[0] == "L"]
    others = {_script(ch) for ch in letters} - _NEUTRAL_SCRIPTS
    if (
        len(own) == 1
        and len(others) == 1
        and others != own
        and all(ch in _PROFILE for ch in str(_NFKC.normalize(shape)) if ch != " ")
    ):
        raise NameRefused("name-whole-script", "whole_script")


def check_name(raw: str) -> DisplayName:
    """The display name ``raw`` stands for, or ``NameRefused`` with the reason.

    Uniqueness against other players' names is the store's job: it compares ``key``
    and ``look`` with theirs.
    """
    if not isinstance(raw, str):
        raise NameRefused("name-not-text", "other")
    text = _tidy(raw)
    if any(ch in "<>&" for ch in text):
        raise NameRefused("name-markup", "markup")
    if len(text) < MIN_LENGTH:
        raise NameRefused("name-too-short", "length", {"n": MIN_LENGTH})
    if len(text) > MAX_LENGTH:
        raise NameRefused("name-too-long", "length", {"n": MAX_LENGTH})
    # Posing first: "Bob (computer)" is refused as what it claims, not for its brackets.
    words = _words(text)
    if _passes_for_label(words):
        raise NameRefused("name-reserved", "reserved")
    posing = _posing(words)
    if posing is not None:
        raise NameRefused(f"name-{posing}", posing)
    _check_characters(text)
    _check_marks(text)
    if not any(category(ch)[0] == "L" or category(ch) == "Nd" for ch in text):
        raise NameRefused("name-no-letter", "letter")
    _check_scripts(text)
    key, look = keys(text)
    return DisplayName(text=text, key=key, look=look)


# Recovery codes ------------------------------------------------------------------
#
# A code carries an identity to another device: 12 symbols of Crockford's base32
# (60 bits), written in three groups, "7KQ2-M9XD-4TPA". Crockford's alphabet leaves
# out I, L, O and U; a reader takes I and L as 1 and O as 0, and refuses U.
# Case, spaces and dashes do not matter when a code is typed back.

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_SYMBOLS = 12
CODE_GROUP = 4
CODE_BITS = 5 * CODE_SYMBOLS
_DECODE = {ch: i for i, ch in enumerate(CROCKFORD)} | {"I": 1, "L": 1, "O": 0}


class CodeRefused(ValueError):
    """Text that is not a recovery code: its refusal ``code`` and ``params``
    (``phrases.REFUSALS``), ``str()`` the sentence in English."""

    def __init__(self, code: str, params: Mapping[str, Any]) -> None:
        self.code = code
        self.params = dict(params)
        super().__init__(refusal_english(code, self.params))


def format_code(value: int) -> str:
    if not 0 <= value < 1 << CODE_BITS:
        raise ValueError(f"a recovery code holds {CODE_BITS} bits")
    symbols = "".join(
        CROCKFORD[(value >> (5 * (CODE_SYMBOLS - 1 - i))) & 31] for i in range(CODE_SYMBOLS)
    )
    return "-".join(symbols[i : i + CODE_GROUP] for i in range(0, CODE_SYMBOLS, CODE_GROUP))


def code_from_bytes(raw: bytes) -> str:
    """A code from random bytes (at least 8; the server passes ``secrets.token_bytes(8)``)."""
    if len(raw) < 8:
        raise ValueError("a recovery code needs at least 8 random bytes")
    return format_code(int.from_bytes(raw[:8], "big") >> (64 - CODE_BITS))


def parse_code(text: str) -> int:
    """The value of a typed code. Raises ``CodeRefused`` with a reason."""
    symbols = "".join(ch for ch in text.upper() if ch not in " -\t")
    if len(symbols) != CODE_SYMBOLS:
        raise CodeRefused("recovery-code-length", {"n": CODE_SYMBOLS, "example": "7KQ2-M9XD-4TPA"})
    value = 0
    for ch in symbols:
        digit = _DECODE.get(ch)
        if digit is None:
            raise CodeRefused("recovery-code-symbol", {"char": ch})
        value = value << 5 | digit
    return value


def normalize_code(text: str) -> str:
    """The canonical form of a typed code: what the server hashes and compares."""
    return format_code(parse_code(text))
