"""The expert's card search over its sampled worlds: each candidate card played out in
every world, the results weighed by the world's weight. Compiled with the sampler and
the simulator (``sheepshead.native``): in Python, the loop's own bookkeeping cost about
as much as the playouts it ran (issue 16, "Half the search's time").

``ExpertBot.search`` (``expert.py``) chooses the card from these values; this module
only adds them up, so a change here changes no decision unless it changes a value.
"""

from __future__ import annotations

from sheepshead.bots.playout import playout
from sheepshead.bots.rng import Rng
from sheepshead.bots.sampler import Sampler
from sheepshead.bots.sim import SimHand
from sheepshead.bots.simview import Partners, sim_of
from sheepshead.cards import Card
from sheepshead.kernel import bit, mask_of
from sheepshead.view import SeatView

__all__ = ["world_values"]


def world_values(
    view: SeatView,
    sampler: Sampler,
    rng: Rng,
    worlds: int,
    cards: list[int],
    point_weight: float,
) -> tuple[list[float], float]:
    """Each candidate's (one-bit masks, ``cards``) weighted sum over ``worlds`` worlds
    drawn from ``sampler`` of the seat's game points plus ``point_weight`` times its
    side's card points, played out with the one policy; and the sum of the weights."""
    me = view.seat
    value = [0.0] * len(cards)
    total = 0.0
    template: SimHand | None = None
    facedown = sampler.facedown
    partners = Partners(view)
    # Late in a hand few worlds are possible, and the sampler draws some again: a
    # world's playouts are a function of the world, so each is played once.
    seen: dict[tuple[int, ...], list[float]] = {}
    for _ in range(worlds):
        world = sampler.sample(rng)
        hands = [mask_of(h) for h in world.hands]
        unknown_card: Card | None = world.unknown
        unknown = 0 if unknown_card is None else bit(unknown_card)
        bury = mask_of(world.bury)
        blind = world.blind
        blind_mask = 0 if blind is None else mask_of(blind)
        key = (*hands, unknown, bury, blind_mask)
        results = seen.get(key)
        if results is None:
            if template is None or facedown:
                base = template = sim_of(view, world)
            else:
                # The public play is the same in every world: only the hidden cards change.
                blind_points = 0
                if blind is not None:
                    for c in blind:
                        blind_points += c.points
                base = template.rewire(hands, partners.of(world), unknown, bury, blind_points)
            results = []
            for card in cards:
                sim = base.copy()
                sim.play(card)
                playout(sim)
                score, own = sim.outcome(me)
                results.append(score + point_weight * own)
            seen[key] = results
        weight = world.weight
        total += weight
        for i in range(len(results)):
            value[i] += weight * results[i]
    return value, total
