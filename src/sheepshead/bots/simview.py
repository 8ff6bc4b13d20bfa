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

__all__ = ["dealt_of", "partners_of", "sim_of", "table_of"]


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
    called, picker = view.called, view.picker
    if picker is None or called is None or view.alone:
        return frozenset()
    # Its holder in the world, else the seat that played it (a card played is in no
    # hand): the cheap look first, since search asks it for every world.
    holder = next((s for s, cards in enumerate(world.hands) if called in cards), None)
    if holder is None:
        holder = next((seat for seat, card, _ in plays_of(view) if card is called), None)
    if holder is None:  # only if the sampler had to drop the view's constraints
        return frozenset()
    if view.rules.second_partner:
        return frozenset((holder, (picker - 1) % view.players))
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
