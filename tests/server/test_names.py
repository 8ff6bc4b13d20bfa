"""Display names, the board's label for a player without one, and recovery codes.

The hostile and real names are data, in ``name_corpus.py``."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.name_corpus import HOSTILE, REAL_NAMES
from sheepshead import names, phrases
from sheepshead.names import (
    CodeRefused,
    NameRefused,
    check_name,
    code_from_bytes,
    format_code,
    keys,
    normalize_code,
    parse_code,
    player_label,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_unicode_data_is_the_pinned_version() -> None:
    # Every rule reads ICU's data: a new wheel brings a new Unicode version, new
    # skeletons and a new profile, and must come with a migration that re-keys the
    # stored names (store/name_keys.py). This fails first, so that nobody forgets.
    assert names.UNICODE_VERSION == "16.0"
    assert names.ICU_VERSION == "77.1"
    pinned = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert "pyicu-wheels==2.15.2" in pinned["dependencies"]
    assert version("pyicu-wheels") == "2.15.2"


def refusal(raw: str) -> NameRefused:
    with pytest.raises(NameRefused) as refused:
        check_name(raw)
    return refused.value


@pytest.mark.parametrize(
    ("attack", "raw", "kind"),
    [(attack, raw, kind) for attack, cases in HOSTILE.items() for raw, kind in cases],
)
def test_every_hostile_name_of_the_corpus_is_refused_for_what_it_is(
    attack: str, raw: str, kind: str
) -> None:
    refused = refusal(raw)
    assert refused.kind == kind, (attack, raw, refused.reason)
    assert refused.reason.endswith(".")


def test_the_corpus_has_fifteen_names_of_each_attack_over_five_scripts() -> None:
    assert all(len(cases) >= 15 for cases in HOSTILE.values())
    text = "".join(raw for cases in HOSTILE.values() for raw, _ in cases)
    for first, last in [
        ("A", "z"),
        ("\u0400", "\u04ff"),
        ("\u0370", "\u03ff"),
        ("\u0980", "\u09ff"),
        ("\uac00", "\ud7a3"),
    ]:
        assert any(first <= ch <= last for ch in text), (first, last)
    assert len(set(REAL_NAMES)) >= 100


def test_every_real_name_of_the_corpus_passes_as_typed() -> None:
    refused = {}
    for raw in REAL_NAMES:
        try:
            name = check_name(raw)
        except NameRefused as exc:
            refused[raw] = exc.reason
            continue
        assert name.text == raw.replace("\u2019", "'").replace("e\u0301", "é")
    assert not refused


@pytest.mark.parametrize(
    "raw",
    [
        # Issue 13, as it was done: each showed as "Robert", "Kim" or "Dana".
        "Robert\u3164",
        "Robert\u1160",
        "Robert\u115f",
        "Robert\ufe0f",
        "Robert\u034f",
        "Kim\uffa0",
        "Dana\u17b4",
    ],
)
def test_the_invisible_characters_of_issue_13_are_refused_and_named(raw: str) -> None:
    refused = refusal(raw)
    assert refused.kind == "invisible"
    # NFKC stores the Hangul fillers U+3164 and U+FFA0 as U+1160: the reason names it.
    code = 0x1160 if raw[-1] in "\u3164\uffa0" else ord(raw[-1])
    shown = f"U+{code:04X}"
    assert refused.reason.startswith("A name cannot contain control or invisible characters")
    assert shown in refused.reason
    # Had it been stored (under older rules), it would still look like the real name.
    assert keys(raw)[1] == keys(raw[:-1])[1]


def test_zalgo_with_four_acute_accents_is_refused() -> None:
    assert refusal("Zalgo" + "\u0301" * 4).reason == "A letter cannot carry the same mark twice."
    assert refusal("Zalgo\u0300\u0301\u0302\u0303").reason == (
        "Too many accents or marks on one letter."
    )


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
        ("\u0301abc", "must follow a letter"),
        # Letters, but outside the identifier profile: not in common use today.
        ("Bobᚠ", 'not "ᚠ" \\(runic letter fehu feoh fe f\\)'),
        ("Ꭰꮳꮃ", "in common use"),  # Cherokee: a limited-use script
        ("ǀhoa", "in common use"),  # a click letter, for phonetics
        ("Ⰰⰱⰲ", "in common use"),  # Glagolitic: a script no longer in use
    ],
)
def test_bad_names_are_refused_with_a_clear_reason(raw: str, reason: str) -> None:
    with pytest.raises(NameRefused, match=reason):
        check_name(raw)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("Sheepshead Team", "That name would pass for the site or its staff."),
        ("Staff", "That name would pass for the site or its staff."),
        ("Ann Bot", "That name would pass for a computer player."),
        ("Player 1234", "That name is reserved: it would pass for the site or a computer player."),
        ("Y.o.u", "That name is reserved: it would pass for the site or a computer player."),
    ],
)
def test_posing_names_get_the_sentences_the_page_translates(raw: str, reason: str) -> None:
    # The refusal's code names its sentence in phrases.py, which the page gets translated.
    refused = refusal(raw)
    assert refused.reason == reason
    assert phrases.REFUSALS[refused.code]["you"] == reason


def test_the_computer_players_names_and_levels_come_from_the_code() -> None:
    from sheepshead import bots, table

    for seat in table.NAMES[1:]:
        assert refusal(f"{seat} Bot").kind == "computer"
        assert check_name(seat).text == seat  # plain "Ann" is a name
    for level in bots.LEVELS:
        assert refusal(f"The {level}").kind == "computer"
        assert refusal(f"{level} {table.NAMES[1]}").kind == "computer"
    # And as the catalogs translate the levels.
    assert refusal("Der Experte").kind == refusal("দক্ষ বট").kind == "computer"


@pytest.mark.parametrize(
    "raw",
    [
        "Player 1234",
        "Player1",
        "Player 1 Pete",
        "player_0f3a9c",
        "P1ayer 1a2b3c",
        "Player lO2",
        "Player 7KQ2M9",  # the label's own shape, without its "#"
        "Player #7KQ2M9",
    ],
)
def test_names_that_pass_for_the_label_are_refused(raw: str) -> None:
    assert refusal(raw).kind == "reserved"


def test_the_label_is_a_keyed_hash_that_shares_nothing_with_the_id() -> None:
    secret = b"server secret"
    ids = ["e37f80" + "0" * 26, "e37f80" + "f" * 26, "0123456789abcdef" * 2]
    labels = [player_label(secret, i) for i in ids]
    for player_id, label in zip(ids, labels, strict=True):
        assert re.fullmatch(r"Player #[0-9A-HJKMNP-TV-Z]{6}", label)
        assert any(ch.isdigit() for ch in label[8:])
        code = label[8:].lower()
        # Not a piece of the id: no run of three of its characters.
        assert not any(code[k : k + 3] in player_id for k in range(len(code) - 2))
        # The same player has the same label on every board; another secret, another.
        assert player_label(secret, player_id) == label
        assert player_label(b"another secret", player_id) != label
        # No name passes for it.
        assert refusal(label).kind == "reserved"
        assert refusal(label.replace("#", "")).kind == "reserved"
    # Two ids with the same first 24 bits (the old label) get different labels.
    assert labels[0] != labels[1]


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
        "Al",  # too short, but not for "AI"
        # Posing words next to an ordinary name do not pose.
        "Sheepshead Sam",
        "Expert Eddie",
        "Nobody Special",
        "Team Rocket",
        "Robot Wars Fan",
        # "Player" with a word that is not a code: every label has a digit.
        "Player One",
        "Playerone Pete",
        "Player Ace",
        "Player Decade",
        "Player",
    ],
)
def test_names_that_only_contain_a_posing_word_are_accepted(raw: str) -> None:
    try:
        accepted = check_name(raw).text
    except NameRefused as exc:
        accepted, kind = raw, exc.kind
    else:
        kind = "accepted"
    assert accepted == raw
    assert kind in ("accepted", "length")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Bob", "BOB"),
        ("Bob", "Ｂｏｂ"),
        ("straße", "STRASSE"),  # case folding, not just lower()
        ("Bob", "B0b"),  # a zero for an o
        ("Bill", "BiII"),  # capital I for small l
        ("mary", "rnary"),
        ("José", "Jose\u0301"),
        ("Robert", "R0BERT"),
        ("দীপা", "দীপা\u200d"),  # a joiner is no part of the key
    ],
)
def test_names_that_look_alike_share_a_key(a: str, b: str) -> None:
    x, y = keys(check_name(a).text), keys(b)
    # The store refuses a name when either key is taken.
    assert x[0] == y[0] or x[1] == y[1]


def test_a_whole_script_look_alike_shares_the_look_key_of_the_name_it_copies() -> None:
    # Refused as a name, and a name stored before the rule is found by hide-name.
    assert refusal("ВОВ").kind == "whole_script"
    assert keys("ВОВ")[1] == keys("Bob")[1]


@pytest.mark.parametrize(("a", "b"), [("Bob", "Rob"), ("Ann", "Anne"), ("Dmitri", "Дмитрий")])
def test_different_names_keep_different_keys(a: str, b: str) -> None:
    x, y = check_name(a), check_name(b)
    assert x.key != y.key
    assert x.look != y.look


@settings(deadline=None, max_examples=200)
@given(st.text(max_size=40))
def test_any_text_is_either_refused_with_a_reason_or_a_clean_name(raw: str) -> None:
    try:
        name = check_name(raw)
    except NameRefused as exc:
        refused: NameRefused | None = exc
    else:
        refused = None
    if refused is not None:
        assert refused.reason
        assert refused.kind
        return
    assert 3 <= len(name.text) <= 24
    assert not set(name.text) & set('<>&"\x00\n\r\t\u3164\u1160\ufe0f')
    assert check_name(name.text) == name


# Recovery codes ------------------------------------------------------------------


def test_a_code_round_trips_and_forgives_typing() -> None:
    code = format_code(0x0123456789ABCDE)
    assert len(code) == 14
    assert code.count("-") == 2
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
    with pytest.raises(ValueError, match="at least 8 random bytes"):
        code_from_bytes(b"1234")
    with pytest.raises(ValueError, match="bits"):
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
        "سارا\u200cا",  # after an Arabic letter that joins on no left side
    ],
)
def test_a_joiner_anywhere_else_is_refused_as_invisible(raw: str) -> None:
    with pytest.raises(NameRefused, match="invisible"):
        check_name(raw)
