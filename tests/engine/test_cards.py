"""Cards, as rules.md "Cards" pins them: 32 cards, trump order, fail ranks, points."""

from __future__ import annotations

import pickle

import pytest

from sheepshead.cards import (
    DECK,
    FAIL_SUITS,
    TRUMPS,
    Card,
    Suit,
    card_points,
    parse_cards,
    sorted_for_display,
)

TRUMP_ORDER = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D"


def test_the_deck_has_32_distinct_cards_in_canonical_order() -> None:
    assert len(DECK) == len(set(DECK)) == 32
    assert " ".join(c.text for c in DECK) == (
        "7C 8C 9C TC JC QC KC AC 7S 8S 9S TS JS QS KS AS "
        "7H 8H 9H TH JH QH KH AH 7D 8D 9D TD JD QD KD AD"
    )


def test_trumps_high_to_low() -> None:
    assert " ".join(c.text for c in TRUMPS) == TRUMP_ORDER
    powers = [c.power for c in TRUMPS]
    assert powers == sorted(powers, reverse=True)
    assert all(c.is_trump and c.fail_suit is None for c in TRUMPS)
    assert {c for c in DECK if c.is_trump} == set(TRUMPS)


@pytest.mark.parametrize("suit", ["C", "S", "H"])
def test_fail_suit_ranks_a_t_k_9_8_7(suit: str) -> None:
    cards = [c for c in DECK if c.fail_suit is Suit(suit)]
    by_power = sorted(cards, key=lambda c: -c.power)
    assert " ".join(c.text for c in by_power) == " ".join(r + suit for r in "ATK987")
    assert all(not c.is_trump for c in cards)


def test_no_fail_suit_outranks_another() -> None:
    for rank in "ATK987":
        assert len({Card.parse(rank + s).power for s in "CSH"}) == 1


def test_any_trump_beats_any_fail_card() -> None:
    assert min(c.power for c in TRUMPS) > max(c.power for c in DECK if not c.is_trump)


def test_queen_of_clubs_is_a_trump_not_a_club() -> None:
    qc = Card.parse("QC")
    assert qc.is_trump
    assert qc.fail_suit is None
    assert qc.suit is Suit.CLUBS
    assert FAIL_SUITS == (Suit.CLUBS, Suit.SPADES, Suit.HEARTS)
    assert Card.parse("AD").is_trump
    assert Card.parse("7D").fail_suit is None


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("AC AS AH AD", 44),
        ("TC TS TH TD", 40),
        ("KC KS KH KD", 16),
        ("QC QS QH QD", 12),
        ("JC JS JH JD", 8),
        ("9C 8C 7C 9D 8D 7D 9H 8H 7H 9S 8S 7S", 0),
        ("10C AC 7D KC 9H", 25),
    ],
)
def test_card_points(cards: str, points: int) -> None:
    assert card_points(parse_cards(cards)) == points


def test_deck_totals_120_points() -> None:
    assert card_points(DECK) == 120


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("TD", "TD"), ("10D", "TD"), ("td", "TD"), (" qc ", "QC"), ("10h", "TH"), ("7S", "7S")],
)
def test_reading_card_text(text: str, canonical: str) -> None:
    card = Card.parse(text)
    assert str(card) == card.text == canonical
    assert card is Card.parse(canonical)


@pytest.mark.parametrize("bad", ["", "1D", "QX", "ZC", "QCC", "11D", "Q", "10", "XX"])
def test_not_a_card(bad: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(bad)


def test_cards_are_immutable_interned_values() -> None:
    card = Card.parse("QC")
    assert repr(card) == "Card.parse('QC')"
    assert eval(repr(card), {"Card": Card}) is card
    assert pickle.loads(pickle.dumps(card)) is card
    with pytest.raises(AttributeError):
        card.points = 0


def test_card_names() -> None:
    assert Card.parse("QC").name == "queen of clubs"
    assert Card.parse("TD").name == "ten of diamonds"
    assert Card.parse("7H").name == "seven of hearts"


def test_display_order_trump_first_then_each_fail_suit_high_to_low() -> None:
    cards = parse_cards("7C AH QD 9S JC AC TD KS")
    assert " ".join(c.text for c in sorted_for_display(cards)) == "QD JC TD AC 7C KS 9S AH"
