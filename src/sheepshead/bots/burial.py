"""Reading the picker's bury, for the worlds of another seat's search (``sampler.py``).

The standard level buries the fail cards with the most points, then those that make
the most voids, and a trump only when it must (``RuleBot._bury``); version 1's
standard bot, whose auction turn 1's experts play, buries the same way. A world that
places the picker's hidden cards at random gives it a bury of about 10 card points
where a standard picker buries about 13, so the defenders' worlds held the points and
the fail suits the picker had put away. Where it reads the bury (``Sampler(view,
bury=True)``; by default at the tables of ``sampler.BURY_TABLES``), the sampler
splits the picker's cards of each world (its hand and its bury, not the cards
it played) as the rule would (``rule_split``), keeping the world's own bury first
among equals, and weighs a world whose rule would have buried a card the picker has
since played by how many card points its bury falls short (``BURY_SCALE``, at least
``BURY_FLOOR``).

``docs/bots.md``, "Reading the bury", has what it changes and what it gains.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from itertools import combinations

from sheepshead.cards import FAIL_SUITS, Card

__all__ = ["BURY_FLOOR", "BURY_SCALE", "bury_score", "rule_split"]

#: The card points by which a world's bury may fall short of the rule's (a card the
#: picker played would have been buried) for its weight to fall by a factor of e; and
#: the least weight that leaves it.
BURY_SCALE = 3.0
BURY_FLOOR = 0.02


def rule_split(
    pool: Sequence[Card], kept: Sequence[Card], size: int, prefer: Collection[Card]
) -> tuple[list[Card], float] | None:
    """The ``size`` cards of ``pool`` the standard level buries, given that it also
    kept ``kept`` (cards it has played since, the unknown), with the world's weight
    factor; None when the rule cannot bury from ``pool`` (it would bury a kept card)."""
    fails = [c for c in pool if not c.is_trump]
    kept_fails = [c for c in kept if not c.is_trump]
    if len(fails) + len(kept_fails) < size:
        # Trump only when it must, and then the weakest.
        trumps = sorted((c for c in pool if c.is_trump), key=lambda c: c.power)
        need = size - len(fails)
        if need > len(trumps) or kept_fails:
            return None
        return [*fails, *trumps[:need]], 1.0
    if len(fails) < size:
        return None
    chosen = _richest(fails, kept_fails, size, prefer)
    every = sorted((c.points for c in (*fails, *kept_fails)), reverse=True)
    short = sum(every[:size]) - sum(c.points for c in chosen)
    return chosen, max(BURY_FLOOR, math.exp(-short / BURY_SCALE))


def _richest(
    fails: list[Card], kept_fails: list[Card], size: int, prefer: Collection[Card]
) -> list[Card]:
    """The ``size`` fail cards with the most points, then the most voids among the fail
    cards left (``kept_fails`` too), then the most of ``prefer``."""
    ranked = sorted(fails, key=lambda c: -c.points)
    cut = ranked[size - 1].points
    sure = [c for c in fails if c.points > cut]
    tied = [c for c in fails if c.points == cut]
    need = size - len(sure)
    if need == len(tied):
        return sure + tied
    best: list[Card] = []
    best_score = (-1.0, -1)
    for combo in combinations(tied, need):
        buried = [*sure, *combo]
        kept = [c for c in fails if c not in buried] + kept_fails
        score = (bury_score(buried, kept), sum(1 for c in combo if c in prefer))
        if score > best_score:
            best, best_score = buried, score
    return best


def bury_score(buried: Sequence[Card], kept_fails: Sequence[Card]) -> float:
    """What the standard level buries by (``RuleBot._bury``): the points buried, then
    (a hundredth each) the fail suits none of ``kept_fails`` is of."""
    voids = sum(1 for s in FAIL_SUITS if all(c.fail_suit is not s for c in kept_fails))
    return float(sum(c.points for c in buried)) + 0.01 * voids
