# Frozen copy of sheepshead.bots/cardplay.py at version 10: never edit.
"""Card play for the rule-based levels, and the convention filter.

The card a rule-based level plays is the one policy's (``playout.py``, the same code
the expert's playouts run), asked over the seat's own table (``playout.table_of``:
only what the seat can see and infer). The convention filter (``absurd``) names the
plays a Wisconsin player would call a blunder at sight; no level makes them on
purpose, and the beginner's random plays are drawn only from the rest.
"""

from __future__ import annotations

from sheepshead.actions import Play
from sheepshead.bots.frozen.v10.knowledge import Knowledge, beats
from sheepshead.bots.frozen.v10.playout import choose as policy
from sheepshead.bots.frozen.v10.playout import table_of
from sheepshead.bots.frozen.v10.rng import Rng
from sheepshead.bots.frozen.v10.style import Style
from sheepshead.cards import Card
from sheepshead.kernel import CARD_AT

__all__ = ["absurd", "choose_card", "discard_cost", "schmear_value"]


def choose_card(k: Knowledge, style: Style, rng: Rng) -> Card:
    legal = [a.card for a in k.view.legal if isinstance(a, Play)]
    if len(legal) == 1:
        return legal[0]
    card = CARD_AT[policy(table_of(k.view)).bit_length() - 1]
    if style.play_noise and rng.random() < style.play_noise:
        options = [c for c in legal if not absurd(k, c, legal)]
        if options:
            card = rng.choice(options)
    elif absurd(k, card, legal):
        # The policy missed a convention (rare, e.g. a sure winner it did not count as
        # sure): fall back to the conventional play among the sensible cards.
        options = [c for c in legal if not absurd(k, c, legal)]
        if options:
            ally_sure = k.winner is not None and k.side_of(k.winner) == 1
            card = max(options, key=schmear_value) if ally_sure else _lowest(options, k)
    return card


# Costs ------------------------------------------------------------------------


def discard_cost(card: Card, hand: tuple[Card, ...]) -> float:
    """What throwing ``card`` away costs: its points, and a trump's power.

    A short fail suit is cheaper to shed, since the void it makes lets the seat trump.
    """
    if card.is_trump:
        return card.points + 5.0 + (card.power - 101)
    length = sum(1 for c in hand if c.fail_suit is card.fail_suit)
    return card.points + 0.1 * length + 0.01 * card.power


def schmear_value(card: Card) -> float:
    """What a card adds to a trick one's own side will surely win; trumps are kept."""
    if card.is_trump:
        return card.points - 6.0 - (card.power - 101)
    return card.points + 0.01 * card.power


def _lowest(cards: list[Card], k: Knowledge) -> Card:
    return min(cards, key=lambda c: discard_cost(c, k.hand))


# The convention filter ----------------------------------------------------------


def absurd(k: Knowledge, card: Card, legal: list[Card], *, unplaced_ok: bool = False) -> bool:
    """A play any Wisconsin player calls a blunder: a defender leading trump while
    holding fail, points thrown to a trick a seat not known to be an ally will take
    (``unplaced_ok``: a known opponent only, leaving a seat of unknown side to a
    search that weighs it), or trumping a known partner's sure winner."""
    if k.leaster or k.picker is None:
        return False
    if k.leading:
        defender = not k.on_picker_side
        return defender and card.is_trump and any(not c.is_trump for c in legal)
    best, led = k.best, k.led
    if best is None or k.winner is None:
        return False
    wins = beats(card, best, led)
    side = k.side_of(k.winner)
    if not wins and side < (0 if unplaced_ok else 1) and card.points >= 10:
        return any(c.points < card.points for c in legal)
    if wins and side == 1 and k.winner_is_sure():
        return any(not beats(c, best, led) for c in legal)
    return False
