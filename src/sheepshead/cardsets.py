"""Sets of cards as the rules kernel's masks, read back in text order.

``Game`` keeps each seat's cards as a mask (``kernel.py`` has the layout) and lists
cards and actions sorted by their text (``7C`` < ``7D`` < ... < ``TS``), as records
do. These tables turn a mask into that order with eight lookups instead of a sort:
a mask's four bytes give its cards' text positions (a second mask, whose bit ``i`` is
the ``i``-th card in text order), and that mask's four bytes give the cards, or their
``Play`` actions, lowest text first.
"""

from __future__ import annotations

from sheepshead.actions import PLAYS, Play
from sheepshead.cards import DECK, Card

#: Every card, in text order.
BY_TEXT: tuple[Card, ...] = tuple(sorted(DECK, key=lambda c: c.text))


def _tables() -> tuple[list[list[int]], list[list[tuple[Card, ...]]], list[list[tuple[Play, ...]]]]:
    """For each byte ``k`` of a mask and each value ``v`` of it: the text-position mask
    of the kernel bits ``v`` stands for, and the cards (and plays) of the text
    positions it stands for. A value's entry is that of the value without its lowest
    bit, plus that bit's card."""
    text_bit = {card: 1 << i for i, card in enumerate(BY_TEXT)}
    kernel_card = {card.bit: card for card in DECK}
    to_text: list[list[int]] = []
    cards: list[list[tuple[Card, ...]]] = []
    plays: list[list[tuple[Play, ...]]] = []
    for k in range(4):
        t = [0] * 256
        c: list[tuple[Card, ...]] = [()] * 256
        p: list[tuple[Play, ...]] = [()] * 256
        for v in range(1, 256):
            rest = v & (v - 1)
            low = v & -v
            t[v] = t[rest] | text_bit[kernel_card[low << 8 * k]]
            card = BY_TEXT[8 * k + low.bit_length() - 1]
            c[v] = (card, *c[rest])
            p[v] = (PLAYS[card], *p[rest])
        to_text.append(t)
        cards.append(c)
        plays.append(p)
    return to_text, cards, plays


_T, _C, _P = _tables()
_T0, _T1, _T2, _T3 = (tuple(t) for t in _T)
_C0, _C1, _C2, _C3 = (tuple(c) for c in _C)
_P0, _P1, _P2, _P3 = (tuple(p) for p in _P)
del _T, _C, _P
#: The tables of ``text_mask`` and ``plays_of``, for a caller that inlines them (the
#: play of a card, ``game.py``).
TO_TEXT = (_T0, _T1, _T2, _T3)
TEXT_PLAYS = (_P0, _P1, _P2, _P3)


def text_mask(mask: int) -> int:
    """A kernel mask's cards as text positions (bit ``i``: ``BY_TEXT[i]``)."""
    return _T0[mask & 255] | _T1[mask >> 8 & 255] | _T2[mask >> 16 & 255] | _T3[mask >> 24]


def cards_of(mask: int) -> tuple[Card, ...]:
    """A mask's cards in text order."""
    t = _T0[mask & 255] | _T1[mask >> 8 & 255] | _T2[mask >> 16 & 255] | _T3[mask >> 24]
    return _C0[t & 255] + _C1[t >> 8 & 255] + _C2[t >> 16 & 255] + _C3[t >> 24]


def plays_of(mask: int) -> tuple[Play, ...]:
    """A mask's cards as their ``Play`` actions, in text order."""
    t = _T0[mask & 255] | _T1[mask >> 8 & 255] | _T2[mask >> 16 & 255] | _T3[mask >> 24]
    return _P0[t & 255] + _P1[t >> 8 & 255] + _P2[t >> 16 & 255] + _P3[t >> 24]


def hands_of(masks: int, players: int) -> tuple[tuple[Card, ...], ...]:
    """Each seat's cards in text order, from every seat's mask in one int (32 bits a
    seat, as ``game.Game`` keeps them)."""
    return tuple([cards_of(masks >> (s << 5) & 0xFFFFFFFF) for s in range(players)])
