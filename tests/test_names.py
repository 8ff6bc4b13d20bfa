"""Display names and recovery codes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheepshead.names import (
    CodeRefused,
    NameRefused,
    check_name,
    code_from_bytes,
    format_code,
    normalize_code,
    parse_code,
)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Bob", "Bob"),
        ("  Badger  Fan ", "Badger Fan"),
        ("O’Brien", "O'Brien"),  # a phone's curly apostrophe
        ("Ｍａｒｙ", "Mary"),  # full-width letters, NFKC
        ("José", "José"),
        ("Jose\u0301", "José"),  # a combining accent composes
        ("card_shark-99", "card_shark-99"),
        ("J.R. Ewing", "J.R. Ewing"),
        ("Дмитрий", "Дмитрий"),
        ("山田太郎", "山田太郎"),
        ("দীপা রায়", "দীপা রায়"),  # Bengali: vowel signs are combining marks
    ],
)
def test_good_names_are_accepted_and_tidied(raw: str, shown: str) -> None:
    assert check_name(raw).text == shown


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("<b>Bob</b>", "markup"),
        ("<script>alert(1)</script>", "markup"),
        ("Tom & Jerry", "markup"),
        ("Bob\x00", "control"),
        ("Bo\u200bb", "control or invisible"),  # zero-width space
        ("Bob\u202eevil", "control or invisible"),  # right-to-left override
        ("Bob\nSmith", "control"),
        ("Al", "at least 3"),
        ("  A  ", "at least 3"),
        ("x" * 25, "at most 24"),
        ("Bob!", "letters, digits, spaces"),
        ("Bob😀", "letters, digits, spaces"),
        ("...", "at least one letter"),
        ("Bоb", "cannot mix Cyrillic and Latin"),  # a Cyrillic o among Latin letters
        ("Paypaι", "cannot mix Greek and Latin"),
        ("Z" + "\u0301" * 8 + "oe", "Too many"),
        ("\u0301abc", "must follow a letter"),
        ("Admin", "reserved"),
        ("EXPERT", "reserved"),
        ("Аdmin", "cannot mix"),
    ],
)
def test_bad_names_are_refused_with_a_clear_reason(raw: str, reason: str) -> None:
    with pytest.raises(NameRefused, match=reason):
        check_name(raw)


@pytest.mark.parametrize(
    "raw",
    [
        # The whole name, its spaces, punctuation and look-alikes aside, is a reserved word.
        "Admin.",
        "Ad min",
        "A.d.m.i.n",
        "ADM1N",  # a one for the i
        "Àdmin",  # an accent does not make it another word
        "B0T",
        "3XP3RT",
        "ВОТ",  # all Cyrillic capitals that read "BOT"
        "Y.o.u",
        "Sheeps Head",
        "Bot 7",  # a count after the word: still the computer player
        # A title as whole words of a longer name.
        "Admin Bob",
        "Bob the Ad-min",
        "Admin2 Bob",
        "Moderator_Max",
        # The board's label for a player without a name, "Player #1a2b3c".
        "Player 1234",
        "Player1",
        "Player 1 Pete",
        "player_0f3a9c",
        "P1ayer 1a2b3c",
        "Player lO2",  # an l and an O for 1 and 0, with a real digit
        "Player decade",  # six hex letters: the label's exact shape
    ],
)
def test_reserved_names_are_refused_however_they_are_written(raw: str) -> None:
    with pytest.raises(NameRefused) as refused:
        check_name(raw)
    # The very sentence the page's catalogs translate (js/words.js, SERVER_REASONS).
    assert refused.value.reason == (
        "That name is reserved: it would pass for the site or a computer player."
    )


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("Моderator", "cannot mix"),  # Cyrillic М and о: refused before the reserved words
        ("Player #1a2b3c", "letters, digits, spaces"),  # "#" is not allowed at all
    ],
)
def test_reserved_look_alikes_that_fail_an_earlier_rule(raw: str, reason: str) -> None:
    with pytest.raises(NameRefused, match=reason):
        check_name(raw)


@pytest.mark.parametrize(
    "raw",
    [
        # A reserved word inside a longer word is not that word.
        "Badminton Bob",
        "Administrative Al",
        "Sysadmin Sue",
        "Bad Min",  # whole words, but they read "badmin", not "admin"
        "Youssef",
        "Bobot",
        # Only a title counts as a word in a longer name; the other reserved words are
        # ordinary words, refused only as the whole name.
        "Sheepshead Sam",
        "Expert Eddie",
        "Nobody Special",
        "Bob the Bot",
        # "Player" with a word that is not an id.
        "Player One",
        "Playerone Pete",
        "Player Ace",  # hex letters, but no digit and not six of them
        "Player",
        # Names in other scripts and with umlauts go through the same rules.
        "Jürgen Müller",
        "Günther Bäßler",
        "Bill",
        "দীপা রায়",
        "অমিত দাস",
    ],
)
def test_names_that_only_contain_a_reserved_word_are_accepted(raw: str) -> None:
    assert check_name(raw).text == raw


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Bob", "BOB"),
        ("Bob", "Ｂｏｂ"),
        ("straße", "STRASSE"),  # case folding, not just lower()
        ("Bob", "B0b"),  # a zero for an o
        ("Bob", "ВОВ"),  # all Cyrillic capitals that look Latin
        ("Bill", "BiII"),  # capital I for small l
        ("mary", "rnary"),
        ("José", "Jose\u0301"),
    ],
)
def test_names_that_look_alike_share_a_key(a: str, b: str) -> None:
    x, y = check_name(a), check_name(b)
    # The store refuses a name when either key is taken.
    assert x.key == y.key or x.look == y.look


@pytest.mark.parametrize(("a", "b"), [("Bob", "Rob"), ("Ann", "Anne"), ("Dmitri", "Дмитрий")])
def test_different_names_keep_different_keys(a: str, b: str) -> None:
    x, y = check_name(a), check_name(b)
    assert x.key != y.key and x.look != y.look


@settings(deadline=None, max_examples=200)
@given(st.text(max_size=40))
def test_any_text_is_either_refused_with_a_reason_or_a_clean_name(raw: str) -> None:
    try:
        name = check_name(raw)
    except NameRefused as exc:
        assert exc.reason
        return
    assert 3 <= len(name.text) <= 24
    assert not set(name.text) & set('<>&"\x00\n\r\t')
    assert check_name(name.text) == name


# Recovery codes ------------------------------------------------------------------


def test_a_code_round_trips_and_forgives_typing() -> None:
    code = format_code(0x0123456789ABCDE)
    assert len(code) == 14 and code.count("-") == 2
    assert parse_code(code) == 0x0123456789ABCDE
    typed = code.lower().replace("-", " ").replace("1", "l").replace("0", "o")
    assert normalize_code(typed) == code


def test_codes_from_random_bytes_use_crockford_symbols() -> None:
    code = code_from_bytes(bytes(range(8)))
    assert normalize_code(code) == code
    assert not set(code.replace("-", "")) & set("ILOU")
    assert code_from_bytes(b"\xff" * 8) == "ZZZZ-ZZZZ-ZZZZ"


@pytest.mark.parametrize(
    ("typed", "reason"),
    [("ABCD-EFGH", "12 letters"), ("ABCD-EFGH-JKMU", '"U" is not'), ("ABCD-EFGH-JK*M", "is not")],
)
def test_a_bad_code_is_refused_with_a_reason(typed: str, reason: str) -> None:
    with pytest.raises(CodeRefused, match=reason):
        parse_code(typed)


def test_a_code_needs_enough_random_bits() -> None:
    with pytest.raises(ValueError):
        code_from_bytes(b"1234")
    with pytest.raises(ValueError):
        format_code(1 << 60)


@pytest.mark.parametrize(
    "raw",
    [
        "র\u200d্যাব",  # "Rab" as Bengali keyboards write it: ra, joiner, virama, ya
        "ক্\u200cষিতি",  # a non-joiner after the virama keeps ক and ষ apart
        "পদ্\u200dমা",  # a joiner after the virama: the half form
    ],
)
def test_a_bengali_name_may_use_joiners_where_they_shape_a_conjunct(raw: str) -> None:
    name = check_name(raw)
    assert name.text == raw
    # The joiner changes a glyph's shape, not the name: without it, it is the same name.
    plain = raw.replace("\u200c", "").replace("\u200d", "")
    assert check_name(plain).key == name.key
    assert check_name(plain).look == name.look


@pytest.mark.parametrize(
    "raw",
    [
        "Bob\u200dAnn",  # between letters, with no virama: hides nothing but itself
        "\u200dরাব",  # at the start
        "র\u200d\u200d্যাব",  # two in a row
        "ক্\u200c",  # at the end
    ],
)
def test_a_joiner_anywhere_else_is_refused_as_invisible(raw: str) -> None:
    with pytest.raises(NameRefused, match="invisible"):
        check_name(raw)
