"""How strong a hand is for picking: the score the rule-based levels pick by, and
the sampler reads the auction by (a seat that passed is unlikely to hold a hand
that scores high)."""

from __future__ import annotations

import math
from typing import Final

from sheepshead.cards import DECK, FAIL_SUITS, Card, Rank, ace_of, ten_of
from sheepshead.kernel import SUIT_KEY, SUIT_MASK, TRUMPS
from sheepshead.view import SeatView

__all__ = [
    "CRACK_THRESHOLD",
    "PICK_THRESHOLDS",
    "STANDARD_PICK_THRESHOLDS",
    "card_strength",
    "crack_defence",
    "crack_likelihood",
    "hand_strength",
    "per_six_cards",
    "table_key",
]

#: Pick thresholds (``hand_strength``) per table, one per position from the dealer's
#: left, the dealer last: the expert picks by them (and centres its pick search on
#: them), and the sampler reads the auction by them. Tuned by self-play in the arena
#: on the deal set "tune" (docs/bots.md). "Never pick thin in the number-two
#: position": the second seat needs most. 4-handed, 6-handed and the jack of diamonds:
#: the dealer (who picks or plays a leaster) and, 4-handed, every seat lowered to cut
#: leasters, each within 0.05 of the old thresholds in the arena (bench/tune_tables.py,
#: docs/bots.md); with version 5's stronger pickers, every seat again: 4-handed by 0.2,
#: the jack of diamonds by 0.1, each bringing its leasters under 15%. The standard
#: level's are ``STANDARD_PICK_THRESHOLDS``.
PICK_THRESHOLDS: Final[tuple[tuple[str, tuple[float, ...]], ...]] = (
    ("3/none", (11.1, 11.5, 10.6)),
    ("4/none", (8.2, 8.6, 7.8, 6.4)),
    ("4/called-ace", (4.6, 5.0, 4.2, 3.6)),
    ("5/called-ace", (7.4, 7.8, 7.0, 6.6, 6.3)),
    ("5/jack-of-diamonds", (7.9, 8.3, 7.5, 7.1, 5.8)),
    ("6/jack-of-diamonds", (7.5, 7.9, 7.2, 7.0, 6.8, 5.8)),
)

#: The standard level's pick thresholds: ``PICK_THRESHOLDS``, but six-handed every seat
#: lower by 0.3, which brings a table of standard players from 22% leasters to 13% for
#: 0.04 game points a deal among standard players, within the 0.05 issue 16 allows.
#: Not the expert's: its six-handed pick search, with a bonus for picking, brings a
#: table of experts to 14% already, and moving its thresholds too cost it 0.104 a hand
#: in all (docs/bots.md, "Leasters at six-handed tables").
STANDARD_PICK_THRESHOLDS: Final[tuple[tuple[str, tuple[float, ...]], ...]] = tuple(
    (key, tuple(round(t - 0.3, 3) for t in row) if key == "6/jack-of-diamonds" else row)
    for key, row in PICK_THRESHOLDS
)


def table_key(view: SeatView) -> str:
    """The table, as the pick thresholds name it: players and partner rule."""
    return f"{view.players}/{view.rules.partner.value}"


_TRUMP_VALUE: Final = {
    "QC": 3.0,
    "QS": 2.7,
    "QH": 2.5,
    "QD": 2.3,
    "JC": 2.0,
    "JS": 1.9,
    "JH": 1.8,
    "JD": 1.7,
    "AD": 1.5,
    "TD": 1.4,
    "KD": 1.3,
    "9D": 1.2,
    "8D": 1.2,
    "7D": 1.2,
}


def card_strength(card: Card) -> float:
    if card.is_trump:
        return _TRUMP_VALUE[card.text]
    if card.rank is Rank.ACE:
        return 1.0
    return 0.0


#: The standard level cracks with a ``crack_defence`` of at least this, for six cards a
#: seat (scaled by the cards a seat holds); the sampler reads a crack by it.
CRACK_THRESHOLD: Final = 9.0
#: Reading a crack: how wide the step from "no crack" to "crack" is, in points of
#: ``crack_defence`` (a trump is worth 1.2 to 3.0), and the least chance either way, so
#: a table of people (or beginners, who crack at 8) leaves every world possible.
CRACK_SCALE: Final = 1.0
CRACK_FLOOR: Final = 0.03


def per_six_cards(threshold: float, cards_per_seat: int) -> float:
    """A threshold of a hand's strength set for six cards a seat (a crack's, going
    alone's), at a table of ``cards_per_seat``: a strength is a sum over the cards."""
    return threshold * cards_per_seat / 6


def crack_defence(cards: tuple[Card, ...] | list[Card]) -> float:
    """A defender's strength for cracking: its trumps' strengths, and half a point a queen."""
    trumps = [c for c in cards if c.is_trump]
    return sum(card_strength(c) for c in trumps) + 0.5 * sum(
        1 for c in trumps if c.rank is Rank.QUEEN
    )


def crack_likelihood(dealt: tuple[Card, ...] | list[Card], threshold: float) -> float:
    """How likely a seat dealt ``dealt`` is to crack where cracking takes ``threshold``:
    a soft step ``CRACK_SCALE`` wide, never below ``CRACK_FLOOR`` either way."""
    x = (crack_defence(dealt) - threshold) / CRACK_SCALE
    p = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))
    return min(1.0 - CRACK_FLOOR, max(CRACK_FLOOR, p))


def hand_strength(cards: tuple[Card, ...] | list[Card]) -> float:
    """A picking score: trump quality, fail aces, voids; a bare ten is a liability."""
    # Over bits, for the sampler's many calls; the same sums in the same order as
    # card by card, so the same float.
    strength = _STRENGTH
    score = sum(strength[c] for c in cards)
    mask = 0
    for c in cards:
        mask |= c.bit
    trumps = (mask & TRUMPS).bit_count()
    for held, ten, ace in _SUITS:
        if not mask & held:
            score += 0.4 if trumps >= 2 else 0.0
        elif mask & ten and not mask & ace:
            score -= 0.3
    return score


_STRENGTH: Final[dict[Card, float]] = {c: card_strength(c) for c in DECK}
#: Per fail suit, in ``FAIL_SUITS`` order: its cards, its ten and its ace, as masks.
_SUITS: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (SUIT_MASK[SUIT_KEY[s]], ten_of(s).bit, ace_of(s).bit) for s in FAIL_SUITS
)
