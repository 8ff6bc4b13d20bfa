"""The playout policy's card arithmetic over masks: the tables that rank cards (with
the standard bot's ties), the cards that take a trick, the seats' order of play, and
the picks that need no hand state. Kept apart from ``playout.py``, which reads the
hand, so that each stays one room.
"""

from __future__ import annotations

from typing import Final

from sheepshead.kernel import ABOVE, ACE_BIT, CARD_AT, FAIL, POINTS_AT, SUIT_MASK, TRUMPS, low

FAIL_ACES: Final = ACE_BIT[0] | ACE_BIT[1] | ACE_BIT[2]


def power(b: int) -> int:
    return b + 83 if b >= 18 else b % 6 + 1


# The standard bot breaks ties by the order of ``view.legal``, the cards' text: so
# does every key below, in its lowest five bits (``TIE`` for a minimum, ``TIE_MAX``
# for a maximum, where the first in text order must weigh most).
_TEXT_ORDER = sorted(range(32), key=lambda b: CARD_AT[b].text)
TIE: Final[tuple[int, ...]] = tuple(_TEXT_ORDER.index(b) for b in range(32))
TIE_MAX: Final[tuple[int, ...]] = tuple(31 - t for t in TIE)


# What a card costs to throw away (``discard_cost``), less the fail suit's length,
# which is added per hand; what it adds to a sure trick of one's own side
# (``schmear_value``); how likely it is to take a leaster trick (``_danger``).
# All scaled to integers in the order the floats of ``cardplay.py`` give.
DISCARD: Final[tuple[int, ...]] = tuple(
    32 * ((POINTS_AT[b] + 5 + power(b) - 101) * 100 if b >= 18 else POINTS_AT[b] * 100 + power(b))
    + TIE[b]
    for b in range(32)
)
SCHMEAR: Final[tuple[int, ...]] = tuple(
    32 * ((POINTS_AT[b] - 6 - (power(b) - 101)) * 100 if b >= 18 else POINTS_AT[b] * 100 + power(b))
    + TIE_MAX[b]
    for b in range(32)
)
DANGER: Final[tuple[int, ...]] = tuple(
    32 * (10 * POINTS_AT[b] + 15 * (power(b) - 100) if b >= 18 else 10 * (POINTS_AT[b] + power(b)))
    + TIE_MAX[b]
    for b in range(32)
)


#: The cards that take a trick led in ``led`` (a suit key) from its best card so far
#: (a bit position, -1 for none: only the face-down card was played), as
#: ``kernel.takes`` reckons: ``BEATERS[led][best + 1]``.
BEATERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        SUIT_MASK[led] | TRUMPS
        if best < 0
        else ABOVE[best]
        if best >= 18
        else (ABOVE[best] & SUIT_MASK[led]) | TRUMPS
        for best in range(-1, 32)
    )
    for led in range(4)
)

#: The seats in the order they play from each leader, by head count: ``ORDER[n][leader]``.
ORDER: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple((leader + i) % n for i in range(n)) for leader in range(n)) for n in range(9)
)


def is_boss(out: int, card: int) -> bool:
    b = card.bit_length() - 1
    if b >= 18:
        return not ABOVE[b] & out
    return not (ABOVE[b] & SUIT_MASK[b // 6] & out) and not out & TRUMPS


def max_by(cards: int, key: tuple[int, ...]) -> int:
    best, best_key = 0, -(1 << 30)
    while cards:
        card = cards & -cards
        k = key[card.bit_length() - 1]
        if k > best_key:
            best, best_key = card, k
        cards ^= card
    return best


#: The cards worth 10 or more (aces and tens), and the trumps among them.
RICH: Final = sum(1 << b for b in range(32) if POINTS_AT[b] >= 10)
RICH_TRUMPS: Final = RICH & TRUMPS


def cheapest_sure(cards: int) -> int:
    """Of cards sure to take the trick, the cheapest: a fail card before any trump,
    and of the trumps one worth under 10 (a jack before the ace of diamonds: both
    hold, and the ace's 11 points would be spent for nothing)."""
    fails = cards & FAIL
    if fails:
        return low(fails)
    poor = cards & ~RICH_TRUMPS
    return low(poor) if poor else low(cards)


def cheapest_winner(cards: int) -> int:
    """A fail card before any trump, then the weakest."""
    fails = cards & FAIL
    return low(fails) if fails else low(cards)


def lowest_power(fails: int) -> int:
    best, best_power = 0, 1 << 30
    while fails:
        card = fails & -fails
        b = card.bit_length() - 1
        p = b % 6 * 32 + TIE[b]
        if p < best_power:
            best, best_power = card, p
        fails ^= card
    return best


def fewest_points_highest(cards: int) -> int:
    best, best_key = 0, 1 << 30
    while cards:
        card = cards & -cards
        b = card.bit_length() - 1
        key = (POINTS_AT[b] * 200 - power(b)) * 32 + TIE[b]
        if key < best_key:
            best, best_key = card, key
        cards ^= card
    return best


def fewest_points_lowest(cards: int) -> int:
    best, best_key = 0, 1 << 30
    while cards:
        card = cards & -cards
        b = card.bit_length() - 1
        key = (POINTS_AT[b] * 1000 + power(b)) * 32 + TIE[b]
        if key < best_key:
            best, best_key = card, key
        cards ^= card
    return best
