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
