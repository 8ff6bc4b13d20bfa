"""The ``expert`` level: Perfect Information Monte Carlo over sampled worlds.

For a card to play, the expert samples worlds consistent with its view
(``sampler.py``), plays each candidate card out to the end of the hand in every
world with the standard bot's card play as the policy for all seats (``playout.py``
over ``sim.py``), and plays the card with the best weighted mean of its own game
points, card points of its side breaking near-ties. Before searching, a convention
filter drops the plays a Wisconsin player calls blunders (the standard bot's
``absurd``, and a defender's lead away from the called suit), so search never makes
them; a forced move is played at once.

Its amount of search is fixed: ``worlds`` per decision, fewer only where that many
would pass ``budget`` simulated card plays (early tricks with many candidates). So
the same view and generator give the same card on any machine and under any load;
no clock is read.

Picking, burying, calling, cracking and naming the leaster trick follow the standard
bot: searching them means playing whole hands for every option, beyond the time a
decision may take in pure Python; the card play is where search pays.
"""

from __future__ import annotations

from sheepshead.actions import Action, Play
from sheepshead.bots.cardplay import absurd
from sheepshead.bots.knowledge import Knowledge, read_view
from sheepshead.bots.playout import playout
from sheepshead.bots.rng import Rng
from sheepshead.bots.rulebot import RuleBot
from sheepshead.bots.sampler import Sampler, World, plays_of
from sheepshead.bots.sim import SimHand, bit, mask_of
from sheepshead.cards import Card, Rank
from sheepshead.game import Phase
from sheepshead.view import SeatView

__all__ = ["BUDGET", "WORLDS", "ExpertBot", "candidates", "partners_of", "sim_of"]

#: Worlds sampled per card decision.
WORLDS = 40
#: At most this many simulated card plays per decision (worlds x candidates x cards
#: left); fewer worlds early in a hand with many candidates, never fewer than
#: ``MIN_WORLDS``.
BUDGET = 6000
MIN_WORLDS = 12
#: How much lower than the standard level's the expert's picking thresholds are.
PICK_MARGIN = 0.0
#: Game points per card point, when card points break near-ties.
POINT_WEIGHT = 0.001


class ExpertBot:
    """Searches sampled worlds for its card play; the standard bot for the rest."""

    level = "expert"

    def __init__(
        self, worlds: int = WORLDS, budget: int = BUDGET, pick_margin: float = PICK_MARGIN
    ) -> None:
        self.worlds = worlds
        self.budget = budget
        standard = RuleBot("standard")
        # A stronger card player can afford to pick a little thinner.
        pick = tuple(p - pick_margin for p in standard.style.pick)
        self.standard = standard.variant(pick=pick) if pick_margin else standard

    def choose(self, view: SeatView, rng: Rng) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to decide")
        if len(legal) == 1:
            return legal[0]
        if view.phase is not Phase.PLAYING:
            return self.standard.choose(view, rng)
        options = candidates(view, read_view(view))
        if len(options) == 1:
            return Play(options[0])
        return Play(self.search(view, options, rng))

    def search(self, view: SeatView, options: list[Card], rng: Rng) -> Card:
        """The option with the best mean game points over the sampled worlds."""
        me = view.seat
        played = sum(len(t.cards) for t in view.tricks) + len(view.trick.cards)
        plays_left = view.players * view.rules.tricks - played
        worlds = min(self.worlds, max(MIN_WORLDS, self.budget // (len(options) * plays_left)))
        sampler = Sampler(view)
        bits = [bit(card) for card in options]
        value = [0.0] * len(options)
        template: SimHand | None = None
        for _ in range(worlds):
            world = sampler.sample(rng)
            if template is None or sampler.facedown:
                base = template = sim_of(view, world)
            else:
                # The public play is the same in every world: only the hidden cards change.
                base = template.rewire(
                    [mask_of(h) for h in world.hands],
                    partners_of(view, world),
                    0 if world.unknown is None else bit(world.unknown),
                    mask_of(world.bury),
                    sum(c.points for c in world.blind or ()),
                )
            weight = world.weight
            for i, card in enumerate(bits):
                sim = base.copy()
                sim.play(card)
                playout(sim)
                value[i] += weight * (sim.scores()[me] + POINT_WEIGHT * sim.own_points(me))
        best = max(range(len(options)), key=value.__getitem__)
        return options[best]


def candidates(view: SeatView, k: Knowledge) -> list[Card]:
    """The legal cards that pass the convention filter (all of them if none would)."""
    legal = [a.card for a in view.legal if isinstance(a, Play)]
    keep = [c for c in legal if not absurd(k, c, legal)]
    if k.leading and not k.on_picker_side and not k.leaster:
        called = k.called
        if (
            called is not None
            and called.rank is Rank.ACE
            and k.called_suit is not None
            and not k.called_led
            and not view.alone
        ):
            # Defenders lead the called suit, through the picker to the partner's ace.
            suit = [c for c in keep if c.fail_suit is k.called_suit]
            if suit:
                keep = suit
    return keep or legal


def partners_of(view: SeatView, world: World) -> frozenset[int]:
    """The picker's partners in the world: the called card's holder, and the seat on
    the picker's right where it is a second partner."""
    called, picker = view.called, view.picker
    if picker is None or called is None or view.alone:
        return frozenset()
    holder = next((seat for seat, card, _ in plays_of(view) if card is called), None)
    if holder is None:
        holder = next(s for s, cards in enumerate(world.hands) if called in cards)
    if view.rules.second_partner:
        return frozenset((holder, (picker - 1) % view.players))
    return frozenset((holder,))


def sim_of(view: SeatView, world: World) -> SimHand:
    """The world's hand as a ``SimHand``, at the view's point of play."""
    n = view.players
    plays = plays_of(view)
    dealt = [list(world.hands[s]) for s in range(n)]
    order: list[Card] = []
    for seat, card, _ in plays:
        if card is None:
            assert world.unknown is not None
            card = world.unknown
        dealt[seat].append(card)
        order.append(card)
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
        multiplier=view.multiplier * 2 ** len(view.cracks),
        forced=picker == view.dealer,
        named_trick=view.named_trick,
    )
    for card in order:
        sim.play(bit(card))
    return sim
