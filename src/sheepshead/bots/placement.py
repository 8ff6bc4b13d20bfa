"""Placing cards at random under constraints: each card may go to some holders (a
bitmask), each holder has room for so many cards, and every placement that fits is
possible. The sampler's worlds are placements (``sampler.py``): sequential
assignment with bounded work per placement (no rejection), guided by Hall's
condition so that it never has to retry."""

from __future__ import annotations

from sheepshead.bots.rng import Rng
from sheepshead.cards import Card, Suit

__all__ = ["Problem", "place"]


class Problem:
    """Cards to place, each with the holders (a bitmask) it may go to, and room.

    ``slack[i]``, for the set of holders ``family[i]``, is their room less the cards
    that can only go into that set. Hall's condition says every card can be placed
    exactly when no slack is negative (the room adds up to the cards). It need only be
    checked for the unions of the cards' holder sets: any other set has at least the
    slack of the largest such union inside it. Those unions are few (at most 64).
    """

    __slots__ = (
        "cap",
        "card_outside",
        "counts",
        "family",
        "free",
        "hold_options",
        "holds",
        "inside",
        "outside",
        "size",
        "slack",
        "tight_cards",
    )

    def __init__(self, cap: list[int], allowed: dict[Card, int], keep: frozenset[Card]) -> None:
        self.cap = cap
        self.size = len(cap)
        # Holders with no room can take nothing.
        room = sum(1 << h for h in range(self.size) if cap[h] > 0)
        #: Cards with a restricted set of holders (and those in ``keep``), placed first.
        self.tight_cards: list[tuple[Card, int]] = []
        #: Cards that may go anywhere: they fill what room is left.
        self.free: list[Card] = []
        for card, mask in allowed.items():
            mask &= room
            if mask == room and card not in keep:
                self.free.append(card)
            else:
                self.tight_cards.append((card, mask))
        family = {0}
        for mask in {m for _, m in self.tight_cards}:
            family |= {f | mask for f in family}
        self.family = sorted(family)
        self.slack = []
        for f in self.family:
            room_f = sum(cap[h] for h in range(self.size) if f >> h & 1)
            inside = sum(1 for _, m in self.tight_cards if m & ~f == 0)
            self.slack.append(room_f - inside)
        # ``place``'s bookkeeping, worked out once per problem instead of once per card
        # of every world: the sets that hold a holder, the sets a card's holders lie
        # inside, the sets with holders outside a card's (each with its holders).
        sets = range(len(self.family))
        self.holds = [tuple(i for i in sets if self.family[i] >> h & 1) for h in range(self.size)]
        masks = {m for _, m in self.tight_cards}
        self.inside = {m: tuple(i for i in sets if m & ~self.family[i] == 0) for m in masks}
        self.outside = {
            m: tuple((i, self.family[i]) for i in sets if m & ~self.family[i]) for m in masks
        }
        #: Per tight card (by its index): how many holders it may go to, and its
        #: ``outside`` sets, so that ``place`` looks nothing up by mask.
        self.counts = [m.bit_count() for _, m in self.tight_cards]
        self.card_outside = [self.outside[m] for _, m in self.tight_cards]
        #: ``Sampler.sample``'s hold cards, by (suit, holder): they depend on the problem only.
        self.hold_options: dict[tuple[Suit, int], list[Card]] = {}

    @property
    def feasible(self) -> bool:
        return min(self.slack) >= 0

    def fits(self, mask: int, holder: int) -> bool:
        """Whether a card that may go to ``mask`` can go to ``holder`` first."""
        return not any(
            f >> holder & 1 and mask & ~f
            for f, v in zip(self.family, self.slack, strict=True)
            if v == 0
        )


def _members(count: int) -> tuple[tuple[int, ...], ...]:
    """For every mask over ``count`` holders, its holders in order."""
    table: list[tuple[int, ...]] = [()]
    for h in range(count):
        table += [(*held, h) for held in table]
    return tuple(table)


#: The holders in a set of them (a mask), in order: ``place`` walks only those a card
#: may go to. At most seven holders: five other seats, the unknown card and the bury.
_HOLDERS_IN = _members(7)


def place(problem: Problem, rng: Rng, first: tuple[Card, int] | None) -> list[list[Card]]:
    """One placement of every card; ``first``, a card and a holder that ``fits``, is
    placed before the rest. Work is bounded: each card is placed once, and never into
    a holder that would leave a later card with no room (so it never has to retry)."""
    size = problem.size
    room = problem.cap[:]
    slack = problem.slack[:]
    holds, inside, outside = problem.holds, problem.inside, problem.card_outside
    tight, counts = problem.tight_cards, problem.counts
    holders = range(size)
    below = rng.below
    out: list[list[Card]] = [[] for _ in holders]
    # The cards in random order (the same draws as shuffling the cards themselves),
    # then the most restricted first, a stable sort by how many holders each may go
    # to: they have the fewest places left.
    order = list(range(len(tight)))
    rng.shuffle(order)
    buckets: list[list[int]] = [[] for _ in range(8)]
    for i in order:
        buckets[counts[i]].append(i)
    order = [i for bucket in buckets for i in bucket]
    forced = -1
    if first is not None:
        card, forced = first
        at = next(j for j, i in enumerate(order) if tight[i][0] is card)
        order.insert(0, order.pop(at))
    for i in order:
        card, mask = tight[i]
        if forced >= 0:
            h, forced = forced, -1
        else:
            # Holders in a set with no slack left may take only cards bound to that set.
            barred = 0
            for j, f in outside[i]:
                if slack[j] == 0:
                    barred |= f
            allowed = _HOLDERS_IN[mask & ~barred]
            weights = 0
            for h in allowed:
                weights += room[h]
            # A holder with no room adds nothing to the draw, so it is never the one.
            pick = below(weights)
            for h in allowed:
                pick -= room[h]
                if pick < 0:
                    break
        room[h] -= 1
        out[h].append(card)
        for j in holds[h]:
            slack[j] -= 1
        for j in inside[mask]:
            slack[j] += 1
    free = problem.free[:]
    rng.shuffle(free)
    at = 0
    for h in holders:
        take = room[h]
        out[h].extend(free[at : at + take])
        at += take
    return out
