"""Display names on the leaderboard, and the recovery codes that carry an identity.

Pure: no I/O, no randomness (the server draws a code's bits with ``secrets``).

A display name is checked, then stored with two keys, each unique on the site:

- ``key``: NFKC, then Unicode case folding: "Bob", "BOB" and "Ｂｏｂ" are one name;
- ``look``: the look-alike key, a skeleton as in Unicode TR39 (section 4), case
  folded: "Bob" written with a Cyrillic "о", or "B0b" with a zero, is refused when
  "Bob" is taken.

The skeleton needs Unicode's ``confusables.txt``. The ``confusable-homoglyphs``
package ships it, but as a two-way table (each source next to its prototype and
each prototype next to its sources); ``_prototypes`` turns it back into TR39's
one-way map from a character to its prototype.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache

from confusable_homoglyphs import categories, confusables  # type: ignore[import-untyped]

MIN_LENGTH = 3
MAX_LENGTH = 24
#: Besides letters and digits: the space and these.
PUNCTUATION = "-_.'"
#: Typographic apostrophes phones type for "'", read as it.
_APOSTROPHES = {"\u2019": "'", "\u02bc": "'", "\u2018": "'"}
#: At most this many combining marks on one letter: enough for any script's
#: vowel signs and accents, too few for "zalgo" text that spills over its neighbours.
MAX_MARKS = 3
#: Names nobody may take, or take a look-alike of: they would pass for the site or
#: for the computer players.
RESERVED = (
    "admin",
    "administrator",
    "moderator",
    "sheepshead",
    "system",
    "computer",
    "expert",
    "bot",
    "you",
    "anonymous",
    "nobody",
)
#: Reserved words that claim a role on the site wherever they stand as words of a name
#: ("Admin Bob", "Bob the Moderator"). The other reserved words are ordinary words that
#: real names use ("Sheepshead Sam", "Expert Eddie"): they are refused as a whole name.
TITLES = ("admin", "administrator", "moderator")
#: The board's label for a player without a name is "Player #" and six hex digits.
PLACEHOLDER = "player"
#: Scripts that may share a name (TR39's "highly restrictive" level): Japanese mixes
#: kana and kanji, Chinese and Korean mix with Latin letters. Any other mix is refused.
_SCRIPT_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
_NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})


class NameRefused(ValueError):
    """A display name that cannot be used, with the reason in words for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class DisplayName:
    #: The name as shown: trimmed, NFKC, single spaces.
    text: str
    #: Unique on the site: NFKC and case folded.
    key: str
    #: Unique on the site too: the case-folded TR39 skeleton.
    look: str


#: Zero-width non-joiner and joiner: invisible, but Bengali and other Indic names need
#: them next to a virama to choose a conjunct's shape ("র‍্যাব": ra, joiner, virama, ya).
_JOINERS = frozenset("\u200c\u200d")


def _joins_at_virama(text: str, i: int) -> bool:
    """A joiner is allowed only where it shapes a conjunct: next to a virama, between
    two characters of one script (UTS #31's contexts, and the ra-phala spelling)."""
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if not before or not after or before in _JOINERS or after in _JOINERS:
        return False
    if not (unicodedata.combining(before) == 9 or unicodedata.combining(after) == 9):
        return False
    return bool(categories.alias(before) == categories.alias(after))


def fold_key(text: str) -> str:
    # Joiners change a conjunct's shape, not the name: two names differing only by
    # them are one name.
    plain = "".join(ch for ch in text if ch not in _JOINERS)
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", plain).casefold())


@cache
def _prototypes() -> dict[str, str]:
    """TR39's map: character -> its prototype, for every character that has one."""
    data: dict[str, list[dict[str, str]]] = confusables.confusables_data

    def clean(s: str) -> str:
        # The package wraps right-to-left characters in direction marks for display.
        return s.replace("\u200e", "").replace("\u200f", "")

    table: dict[str, str] = {}
    for raw_key, entries in data.items():
        key = clean(raw_key)
        if len(key) != 1 or len(entries) != 1:
            # A sequence, or a character listing several others: a prototype itself.
            continue
        target = clean(entries[0]["c"])
        back = data.get(entries[0]["c"], [])
        if len(target) != 1 or len(back) > 1:
            table[key] = target
        elif key != target:
            # Two characters naming only each other: one is the other's prototype, and
            # the table does not say which. Either way both must share a skeleton.
            table[key] = min(key, target)
    return table


def skeleton(text: str) -> str:
    """TR39's skeleton: NFD, each character replaced by its prototype, NFD again."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in decomposed))


def look_key(text: str) -> str:
    """Two names with the same look key could be mistaken for each other."""
    plain = "".join(ch for ch in text if ch not in _JOINERS)
    folded = skeleton(unicodedata.normalize("NFKC", plain)).casefold()
    # Folding can give new characters with prototypes (capital to small): map again.
    return skeleton(folded)


#: Digits written for letters ("ADM1N", "3XP3RT"), after the skeleton (which already
#: turns "0" into "o" and "1" into "l"). "l" and "i" are one letter here: a capital "I"
#: and a small "l" look the same in many fonts, and so "ADM1N" reads "admin".
_LEET = str.maketrans({"l": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b"})


def _reserved_form(text: str) -> str:
    """What a piece of a name reads as, to compare with the reserved words: the
    case-folded skeleton without accents, spaces, punctuation or symbols, digits
    that stand for letters read as those letters."""
    skeleton_ = look_key(text).translate(_LEET)
    return "".join(ch for ch in skeleton_ if unicodedata.category(ch)[0] in "LN")


_RESERVED_FORMS = frozenset(_reserved_form(word) for word in RESERVED)
_TITLE_FORMS = frozenset(_reserved_form(word) for word in TITLES)
_PLACEHOLDER_FORM = _reserved_form(PLACEHOLDER)
#: What may follow "player" in a name that passes for the placeholder: hex digits, and
#: the letters that read as 0 and 1.
_ID_CHARS = frozenset("0123456789abcdefoil")


def _words(text: str) -> list[str]:
    """The words of a name: runs of letters, marks and digits. Case stays: capitals
    have look-alikes of their own ("ВОТ" reads "BOT", "вот" does not)."""
    words: list[str] = []
    word = ""
    for ch in unicodedata.normalize("NFKC", text):
        if unicodedata.category(ch)[0] in "LMN":
            word += ch
        elif word:
            words.append(word)
            word = ""
    if word:
        words.append(word)
    return words


def _reads_reserved(words: list[str]) -> bool:
    """Whether the name passes for a reserved one.

    The whole name, its spaces and punctuation ignored, may not read as a reserved word
    ("Admin.", "Ad min", "A.d.m.i.n", "ADM1N"), nor may a run of whole words of it read
    as a title ("Admin Bob", "Bob the Ad-min"). A reserved word inside a longer word
    does not count: "Badminton Bob" and "Sheepshead Sam" are names. Digits at the end
    are a count, not part of the name: "Bot 7" and "Admin2 Bob" are refused too.
    """
    for first in range(len(words)):
        for last in range(first + 1, len(words) + 1):
            run = "".join(words[first:last])
            whole = first == 0 and last == len(words)
            for piece in {run, run.rstrip("0123456789")}:
                form = _reserved_form(piece) if piece else ""
                if form and (form in _TITLE_FORMS or (whole and form in _RESERVED_FORMS)):
                    return True
    return False


def _reads_placeholder(words: list[str]) -> bool:
    """Whether the name passes for the board's "Player #1a2b3c".

    That is: "player" (or a look-alike) begins the name and is followed, in the same
    word or the next, by an id: hex digits (or "o", "i", "l" for 0 and 1) with at least
    one real digit ("Player 1234", "Player1", "P1ayer_0f3a9c"), or six hex letters
    ("Player decade"). "Player One" and "Playerone Pete" are names.
    """
    if not words:
        return False
    first = words[0]
    for end in range(1, len(first) + 1):
        if _reserved_form(first[:end]) == _PLACEHOLDER_FORM:
            rest = (first[end:] or (words[1] if len(words) > 1 else "")).casefold()
            break
    else:
        return False
    if not rest or not set(rest) <= _ID_CHARS:
        return False
    hex_only = set(rest) <= set("0123456789abcdef")
    return any(ch.isdigit() for ch in rest) or (hex_only and len(rest) == 6)


def _describe(ch: str) -> str:
    name = unicodedata.name(ch, "")
    shown = ch if ch.isprintable() and not ch.isspace() else ""
    code = f"U+{ord(ch):04X}"
    return f'"{shown}" ({name.lower() or code})' if shown else f"{code} {name.lower()}".strip()


def check_name(raw: str) -> DisplayName:
    """The display name ``raw`` stands for, or ``NameRefused`` with the reason.

    Uniqueness against other players' names is the store's job: it compares ``key``
    and ``look`` with theirs.
    """
    if not isinstance(raw, str):
        raise NameRefused("A name is text.")
    text = "".join(_APOSTROPHES.get(ch, ch) for ch in raw)
    text = unicodedata.normalize("NFKC", text).strip()
    # Runs of spaces (NFKC turns every other space character into U+0020) become one.
    text = " ".join(text.split(" "))
    while "  " in text:
        text = text.replace("  ", " ")
    if any(ch in "<>&" for ch in text):
        raise NameRefused("A name cannot contain markup: no <, > or &.")
    for i, ch in enumerate(text):
        cat = unicodedata.category(ch)
        if ch in _JOINERS and _joins_at_virama(text, i):
            continue
        if cat[0] == "C" or cat in ("Zl", "Zp"):
            raise NameRefused(
                f"A name cannot contain control or invisible characters ({_describe(ch)})."
            )
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in _JOINERS:
            continue  # allowed above, where it shapes a conjunct
        if not (cat[0] in "LM" or cat == "Nd" or ch == " " or ch in PUNCTUATION):
            raise NameRefused(
                f"A name may use letters, digits, spaces and - _ . ' only, not {_describe(ch)}."
            )
    if len(text) < MIN_LENGTH:
        raise NameRefused(f"A name needs at least {MIN_LENGTH} characters.")
    if len(text) > MAX_LENGTH:
        raise NameRefused(f"A name has at most {MAX_LENGTH} characters.")
    marks = 0
    previous = ""
    for ch in text:
        if ch in _JOINERS:
            continue  # invisible: the virama beside it still belongs to the letter
        if unicodedata.category(ch)[0] == "M":
            marks += 1
            if not (previous and unicodedata.category(previous)[0] in "LM"):
                raise NameRefused("A combining mark must follow a letter.")
            if marks > MAX_MARKS:
                raise NameRefused("Too many accents or marks on one letter.")
        else:
            marks = 0
        previous = ch
    if not any(unicodedata.category(ch)[0] == "L" or ch.isdigit() for ch in text):
        raise NameRefused("A name needs at least one letter or digit.")
    scripts = {categories.alias(ch) for ch in text if ch.isalnum()} - _NEUTRAL_SCRIPTS
    if len(scripts) > 1 and not any(scripts <= mix for mix in _SCRIPT_MIXES):
        names = " and ".join(sorted(s.title() for s in scripts))
        raise NameRefused(
            f"A name cannot mix {names} letters: mixed scripts make look-alike names."
        )
    words = _words(text)
    if _reads_reserved(words) or _reads_placeholder(words):
        # One sentence for both: the placeholder is the site's own label for a player.
        raise NameRefused("That name is reserved: it would pass for the site or a computer player.")
    look = look_key(text)
    return DisplayName(text=text, key=fold_key(text), look=look)


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
    """Text that is not a recovery code, with the reason in words."""


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
        raise CodeRefused(
            f"A recovery code has {CODE_SYMBOLS} letters and digits, like 7KQ2-M9XD-4TPA."
        )
    value = 0
    for ch in symbols:
        digit = _DECODE.get(ch)
        if digit is None:
            raise CodeRefused(f'"{ch}" is not in a recovery code.')
        value = value << 5 | digit
    return value


def normalize_code(text: str) -> str:
    """The canonical form of a typed code: what the server hashes and compares."""
    return format_code(parse_code(text))
