"""A seat's view as a ``SimHand``: in a sampled world (``sim_of``, for search) or at
the seat's own table (``table_of``, for the standard level's policy). Re-exported by
``playout.py``, whose policy plays them."""

from __future__ import annotations

import hashlib

from sheepshead import kernel
from sheepshead.bots.rng import Rng
from sheepshead.bots.sampler import Sampler, World, plays_of
from sheepshead.bots.sim import SimHand
from sheepshead.cards import Card
from sheepshead.kernel import bit
from sheepshead.view import SeatView

__all__ = ["Partners", "dealt_of", "partners_of", "sim_of", "table_of"]


# The seat's own table -------------------------------------------------------------

#: ``table_of`` places the cards the seat cannot see with this fixed generator: where
#: they go changes nothing the policy reads, but the placement is deterministic anyway.
_TABLE_SEED = hashlib.sha256(b"sheepshead-table-of/1").digest()


def table_of(view: SeatView) -> SimHand:
    """The seat's table as a ``SimHand`` at the view's point of play, for the policy:
    the unseen cards are placed by the sampler (consistent with the view), which the
    policy never reads for any seat but its own."""
    return sim_of(view, Sampler(view, bury=False).sample(Rng.from_bytes(_TABLE_SEED)))


def partners_of(view: SeatView, world: World) -> frozenset[int]:
    """The picker's partners in the world: the called card's holder (and a second)."""
    return Partners(view).of(world)


class Partners:
    """``partners_of`` for one view and any of its worlds: what it reads of the view,
    read once (search asks it for every world)."""

    __slots__ = ("called", "none", "played_by", "second")

    def __init__(self, view: SeatView) -> None:
        called, picker = view.called, view.picker
        #: No partner to find: nobody picked, nothing called, or the picker alone.
        self.none = picker is None or called is None or view.alone
        self.called = called
        #: The seat that played the called card, if it was played (a card played is in
        #: no hand); -1 if not.
        self.played_by = -1
        #: The picker's right-hand seat, a second partner; -1 without one.
        self.second = -1
        if picker is not None and not self.none:
            by = next((seat for seat, card, _ in plays_of(view) if card is called), None)
            self.played_by = -1 if by is None else by
            if view.rules.second_partner:
                self.second = (picker - 1) % view.players

    def of(self, world: World) -> frozenset[int]:
        if self.none:
            return frozenset()
        # Its holder in the world, else the seat that played it: the cheap look first.
        called = self.called
        holder = -1
        for s, cards in enumerate(world.hands):
            if called in cards:
                holder = s
                break
        if holder < 0:
            holder = self.played_by
        if holder < 0:  # only if the sampler had to drop the view's constraints
            return frozenset()
        if self.second >= 0:
            return frozenset((holder, self.second))
        return frozenset((holder,))


def sim_of(view: SeatView, world: World) -> SimHand:
    """The world's hand as a ``SimHand``, at the view's point of play."""
    sim, order = dealt_of(view, world)
    for _, card in order:
        sim.play(bit(card))
    return sim


def dealt_of(view: SeatView, world: World) -> tuple[SimHand, list[tuple[int, Card]]]:
    """The world's hand as a ``SimHand`` at its first lead, and the cards played since
    (seat, card; the face-down unknown as the world's), in order."""
    n = view.players
    plays = plays_of(view)
    dealt = [list(world.hands[s]) for s in range(n)]
    order: list[tuple[int, Card]] = []
    for seat, card, _ in plays:
        if card is None:
            assert world.unknown is not None
            card = world.unknown
        dealt[seat].append(card)
        order.append((seat, card))
    picker = view.picker
    sim = SimHand.start(
        view.rules,
        dealt,
        (view.dealer + 1) % n,
        picker=picker,
        partners=partners_of(view, world),
        called=view.called,
        unknown=world.unknown,
        bury=world.bury,
        blind=world.blind or (),
        multiplier=kernel.hand_multiplier(view.multiplier, len(view.cracks)),
        forced=picker == view.dealer,
        named_trick=view.named_trick,
    )
    return sim, order
