"""Dealing from a seed: a shuffle any program can re-derive, and no seed can be guessed from.

The algorithm (``docs/dealing.md`` has it in full, with test vectors):

1. Start from the canonical deck ``7C 8C 9C TC JC QC KC AC 7S ... AD`` (``cards.DECK``).
2. Make a stream of bytes: SHA-256(seed || counter), counter a 4-byte big-endian
   integer counting 0, 1, 2, ..., each digest appended in turn.
3. Read the stream as 4-byte big-endian unsigned words. To draw a number below ``m``,
   take words until one is below ``2**32 - (2**32 % m)`` (rejection sampling, so every
   value is equally likely) and answer that word modulo ``m``.
4. Fisher-Yates: for ``i`` from 31 down to 1, draw ``j`` below ``i + 1`` and swap
   positions ``i`` and ``j``.
5. Seat 0 gets the first ``k`` cards of the shuffled deck, seat 1 the next ``k``, and so
   on; the blind is the last cards (``k`` and the blind's size from the deal table).

It uses nothing but SHA-256, so it gives the same deal in every language and every
Python version, unlike the ``random`` module.
"""

from __future__ import annotations

import struct
from operator import mod

from sheepshead.cards import DECK, Card

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any

    from sheepshead.rules import Rules


ALGORITHM = "sheepshead-deal/1"
_EIGHT_WORDS = struct.Struct(">8I")


#: The rejection limit for a draw below m (step 3), for m = 2 .. 32.
_LIMITS: tuple[int, ...] = tuple((1 << 32) - ((1 << 32) % m) if m else 0 for m in range(33))


#: Each step's draw bound (step 4: i + 1 for i from 31 down to 1).
_BOUNDS: tuple[int, ...] = tuple(range(32, 1, -1))
_STEPS: tuple[int, ...] = tuple(range(31, 0, -1))
#: Below this, a word is rejected by no step's draw (the lowest of their limits).
_NEVER_REJECTED = min(_LIMITS[m] for m in _BOUNDS)
#: The counters of the stream's first four blocks (32 words: a shuffle takes 31 when no
#: word is rejected), as 4-byte big-endian integers.
_FIRST_COUNTERS: tuple[bytes, ...] = tuple(c.to_bytes(4, "big") for c in range(4))
_FIRST_WORDS = struct.Struct(">32I")


def shuffle(seed: bytes) -> tuple[Card, ...]:
    """The 32 cards in the order the seed shuffles them."""
    return tuple(_shuffled(seed))


def _shuffled(seed: bytes) -> list[Card]:
    """The shuffle as a list (``shuffle``)."""
    if not isinstance(seed, bytes):
        raise TypeError("a seed is bytes")
    sha256 = _hash()
    a, b, c, d4 = _FIRST_COUNTERS
    words = _FIRST_WORDS.unpack(
        sha256(seed + a).digest()
        + sha256(seed + b).digest()
        + sha256(seed + c).digest()
        + sha256(seed + d4).digest()
    )
    if max(words) >= _NEVER_REJECTED:
        # A word some step may reject (about one seed in ten million): word by word.
        return _shuffle_stream(seed)
    # The common case: no word is rejected, so step k draws word k modulo its bound
    # (the steps written out, i from 31 down to 1: a loop costs half as much again).
    (
        j31,
        j30,
        j29,
        j28,
        j27,
        j26,
        j25,
        j24,
        j23,
        j22,
        j21,
        j20,
        j19,
        j18,
        j17,
        j16,
        j15,
        j14,
        j13,
        j12,
        j11,
        j10,
        j9,
        j8,
        j7,
        j6,
        j5,
        j4,
        j3,
        j2,
        j1,
    ) = map(mod, words, _BOUNDS)
    d = list(DECK)
    d[31], d[j31] = d[j31], d[31]
    d[30], d[j30] = d[j30], d[30]
    d[29], d[j29] = d[j29], d[29]
    d[28], d[j28] = d[j28], d[28]
    d[27], d[j27] = d[j27], d[27]
    d[26], d[j26] = d[j26], d[26]
    d[25], d[j25] = d[j25], d[25]
    d[24], d[j24] = d[j24], d[24]
    d[23], d[j23] = d[j23], d[23]
    d[22], d[j22] = d[j22], d[22]
    d[21], d[j21] = d[j21], d[21]
    d[20], d[j20] = d[j20], d[20]
    d[19], d[j19] = d[j19], d[19]
    d[18], d[j18] = d[j18], d[18]
    d[17], d[j17] = d[j17], d[17]
    d[16], d[j16] = d[j16], d[16]
    d[15], d[j15] = d[j15], d[15]
    d[14], d[j14] = d[j14], d[14]
    d[13], d[j13] = d[j13], d[13]
    d[12], d[j12] = d[j12], d[12]
    d[11], d[j11] = d[j11], d[11]
    d[10], d[j10] = d[j10], d[10]
    d[9], d[j9] = d[j9], d[9]
    d[8], d[j8] = d[j8], d[8]
    d[7], d[j7] = d[j7], d[7]
    d[6], d[j6] = d[j6], d[6]
    d[5], d[j5] = d[j5], d[5]
    d[4], d[j4] = d[j4], d[4]
    d[3], d[j3] = d[j3], d[3]
    d[2], d[j2] = d[j2], d[2]
    d[1], d[j1] = d[j1], d[1]
    return d


def _hash() -> Callable[[bytes], Any]:
    """SHA-256, imported on the first deal: loading the hash library is a good part of
    the start-up of a command that deals nothing (``sheepshead check`` replays a
    record's cards). (An import statement in ``shuffle`` itself would cost a good part
    of a shuffle.)"""
    global _sha256
    if _sha256 is None:
        try:  # CPython's own SHA-256: the same digests, less set-up per call than OpenSSL's
            from _sha256 import sha256  # type: ignore[import-not-found]
        except ImportError:  # pragma: no cover - a Python built without it
            from hashlib import sha256

        _sha256 = sha256
    return _sha256


_sha256: Callable[[bytes], Any] | None = None


def _shuffle_stream(seed: bytes) -> list[Card]:
    """The shuffle, word by word from the stream, rejections included (steps 2 to 4)."""
    sha256 = _hash()

    deck = list(DECK)
    words: list[int] = []
    counter = 0
    at = 0
    for i in range(len(deck) - 1, 0, -1):
        limit = _LIMITS[i + 1]
        while True:
            if at == len(words):
                # The stream's next eight words: SHA-256(seed || counter), counter 0, 1, ...
                block = sha256(seed + counter.to_bytes(4, "big")).digest()
                words.extend(_EIGHT_WORDS.unpack(block))
                counter += 1
            word = words[at]
            at += 1
            if word < limit:
                break
        j = word % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_cards(
    seed: bytes, players: int, cards_per_seat: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Each seat's cards (seat 0 first) and the blind, from the seed's shuffle."""
    order = tuple(_shuffled(seed))
    spans = _SPANS.get((players, cards_per_seat))
    if spans is None:
        spans = _spans(players, cards_per_seat)
    return tuple(map(order.__getitem__, spans)), order[players * cards_per_seat :]


def check_dealer(players: int, dealer: int, multiplier: int) -> None:
    """Raise ValueError unless ``dealer`` is a seat and ``multiplier`` a positive int."""
    if type(dealer) is not int or not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    if type(multiplier) is not int or multiplier < 1:
        raise ValueError(f"multiplier must be a positive integer, not {multiplier!r}")


def checked_deal(
    rules: Rules, hands: Sequence[Iterable[Card]], blind: Iterable[Card]
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """A given deal as tuples. Raises ValueError if it is not a full deck dealt as the
    rules' deal table wants."""
    n = rules.players
    cards_per_seat = rules.cards_per_seat
    blind_size = rules.blind_size
    hand_tuples = tuple(tuple(h) for h in hands)
    blind_tuple = tuple(blind)
    if len(hand_tuples) != n:
        raise ValueError(f"{n} players need {n} hands, not {len(hand_tuples)}")
    for seat, cards in enumerate(hand_tuples):
        if len(cards) != cards_per_seat:
            raise ValueError(f"seat {seat} must be dealt {cards_per_seat} cards, not {len(cards)}")
    if len(blind_tuple) != blind_size:
        raise ValueError(f"the blind must hold {blind_size} cards, not {len(blind_tuple)}")
    seen: set[Card] = set()
    for card in (*(c for h in hand_tuples for c in h), *blind_tuple):
        if not isinstance(card, Card):
            raise ValueError(f"not a card: {card!r}")
        if card in seen:
            raise ValueError(f"card {card} is dealt twice")
        seen.add(card)
    if len(seen) != len(DECK):
        raise ValueError("the deal must hold every card exactly once")
    return hand_tuples, blind_tuple


def _spans(players: int, cards_per_seat: int) -> tuple[slice, ...]:
    """Each seat's part of the shuffled deck (step 5)."""
    return tuple(slice(s * cards_per_seat, (s + 1) * cards_per_seat) for s in range(players))


#: ``_spans`` of the deal table's head counts, made once.
_SPANS: dict[tuple[int, int], tuple[slice, ...]] = {
    (n, k): _spans(n, k) for n, k in ((3, 10), (4, 7), (5, 6), (6, 5))
}


def seed_commitment(seed: bytes) -> str:
    """The SHA-256 of a seed, in hex: shown before a hand, checked against the seed after."""
    from hashlib import sha256

    return sha256(seed).hexdigest()
