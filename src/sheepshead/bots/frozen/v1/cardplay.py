# Frozen copy of sheepshead.bots/cardplay.py at version 1: never edit.
"""Card play for the rule-based levels: leads, follows, schmears and leasters.

Every choice reads a ``Knowledge`` (what the seat can infer from its view) and the
level's ``Style``. The convention filter (``absurd``) names the plays a Wisconsin
player would call a blunder at sight; no level makes them on purpose, and the
beginner's random plays are drawn only from the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sheepshead import kernel
from sheepshead.actions import Play
from sheepshead.bots.frozen.v1.knowledge import Knowledge, SuitKey, beats
from sheepshead.bots.frozen.v1.rng import Rng
from sheepshead.cards import Card, Rank
from sheepshead.view import SeenTrick

if TYPE_CHECKING:
    from sheepshead.bots.frozen.v1.rulebot import Style

__all__ = ["absurd", "choose_card", "discard_cost", "schmear_value"]


def choose_card(k: Knowledge, style: Style, rng: Rng) -> Card:
    legal = [a.card for a in k.view.legal if isinstance(a, Play)]
    if len(legal) == 1:
        return legal[0]
    if k.leaster:
        card = _leaster(k, legal)
    elif k.leading:
        card = _lead(k, legal, style)
    else:
        card = _follow(k, legal, style)
    if style.play_noise and rng.random() < style.play_noise:
        options = [c for c in legal if not absurd(k, c, legal)]
        if options:
            card = rng.choice(options)
    elif absurd(k, card, legal):
        # The rules above missed a convention (rare, e.g. a sure winner they did not
        # count as sure): fall back to the conventional play among the sensible cards.
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


def _cheapest_winner(cards: list[Card]) -> Card:
    """The weakest card that wins: a fail card before any trump, then the lowest."""
    return min(cards, key=lambda c: (c.is_trump, c.power, -c.points))


def _lowest(cards: list[Card], k: Knowledge) -> Card:
    return min(cards, key=lambda c: discard_cost(c, k.hand))


def _beaters(k: Knowledge, card: Card) -> int:
    """How many trumps this seat cannot place are higher than the trump ``card``."""
    return sum(1 for t in k.unseen if t.is_trump and t.power > card.power)


# The convention filter ----------------------------------------------------------


def absurd(k: Knowledge, card: Card, legal: list[Card]) -> bool:
    """A play any Wisconsin player calls a blunder: a defender leading trump while
    holding fail, points thrown to a trick a known opponent will take, or trumping
    a known partner's sure winner."""
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
    if not wins and side < 1 and card.points >= 10:
        return any(c.points < card.points for c in legal)
    if wins and side == 1 and k.winner_is_sure():
        return any(not beats(c, best, led) for c in legal)
    return False


# Leads --------------------------------------------------------------------------


def _lead(k: Knowledge, legal: list[Card], style: Style) -> Card:
    trumps = sorted((c for c in legal if c.is_trump), key=lambda c: -c.power)
    fails = [c for c in legal if not c.is_trump]
    if k.on_picker_side:
        return _picker_side_lead(k, trumps, fails, style)
    return _defender_lead(k, trumps, fails, style)


def _picker_side_lead(k: Knowledge, trumps: list[Card], fails: list[Card], style: Style) -> Card:
    out = k.trumps_unseen()
    if trumps and (out or not fails):
        top = trumps[0]
        if not style.counts:
            return top
        if k.is_boss(top) or len(trumps) >= 3:
            return top  # QC first when strong: draw the defenders' trumps
        if k.me_partner:
            return trumps[-1]  # a low trump through the defenders, for the picker to take
        return top if len(trumps) == 2 and top.power >= 110 else trumps[-1]
    # No trump worth leading: cash fail aces, then give the partner the called suit.
    aces = [c for c in fails if c.rank is Rank.ACE]
    if aces:
        return min(aces, key=lambda c: _suit_len(k, c))
    called = [c for c in fails if c.fail_suit is k.called_suit and k.called_suit is not None]
    if k.me_picker and called and not k.called_led:
        return min(called, key=lambda c: c.power)
    return _lowest(fails, k)


def _defender_lead(k: Knowledge, trumps: list[Card], fails: list[Card], style: Style) -> Card:
    if not fails:
        return trumps[-1]
    picker = k.picker
    suit = k.called_suit
    called = k.called
    if (
        suit is not None
        and called is not None
        and called.rank is Rank.ACE
        and not k.called_led
        and not k.view.alone
    ):
        # Lead the called suit through the picker: the partner must play the ace, and a
        # defender void in the suit may trump it. Not with a ten or king (they would
        # feed the ace), and, as sheepsheadai measured, not when this seat has no
        # trump, late in the hand, or with a three-card side suit to lead instead.
        mine = sorted((c for c in fails if c.fail_suit is suit), key=lambda c: c.power)
        others = {c.fail_suit for c in fails} - {suit}
        long_side = any(sum(1 for c in k.hand if c.fail_suit is s) >= 3 for s in others)
        if mine and mine[0].points == 0 and trumps and k.trick_number <= 2 and not long_side:
            return mine[0]
    picker_voids = k.voids[picker] if picker is not None else frozenset()
    aces = [
        c
        for c in fails
        if c.rank is Rank.ACE and c.fail_suit not in k.suits_led and c.fail_suit not in picker_voids
    ]
    if aces and style.counts:
        return min(aces, key=lambda c: _suit_len(k, c))
    # A low card of the longest suit, keeping the tens and kings back.
    return min(fails, key=lambda c: (c.points >= 10, -_suit_len(k, c), c.points, c.power))


def _suit_len(k: Knowledge, card: Card) -> int:
    return sum(1 for c in k.hand if c.fail_suit is card.fail_suit)


# Follows ------------------------------------------------------------------------


def _split(k: Knowledge, legal: list[Card]) -> tuple[list[Card], list[Card]]:
    best, led = k.best, k.led
    if best is None:  # only the face-down unknown so far: any card that follows wins
        winners = [c for c in legal if c.is_trump or c.fail_suit is led]
    else:
        winners = [c for c in legal if beats(c, best, led)]
    return winners, [c for c in legal if c not in winners]


def _follow(k: Knowledge, legal: list[Card], style: Style) -> Card:
    winners, losers = _split(k, legal)
    winner = k.winner
    side = 0 if winner is None else k.side_of(winner)
    points = k.trick_points
    if style.counts:
        sure = winner is not None and k.winner_is_sure()
        secure = [c for c in winners if k.sure_to_win(c)]
    else:
        best = k.best
        sure = winner is not None and (not k.later or (best is not None and best.power >= 112))
        secure = [c for c in winners if not k.later or c.power >= 113]

    if side == 1:
        if sure:
            # Schmear a known partner's sure trick; never trump it.
            if losers:
                top = max(losers, key=schmear_value)
                return top if schmear_value(top) > 0 else _lowest(losers, k)
            return _cheapest_winner(winners)
        if secure and (points >= 10 or not losers):
            return _cheapest_winner(secure)
        return _lowest(losers, k) if losers else _cheapest_winner(winners)

    # An opponent, or a seat this one cannot place, is winning.
    if k.on_picker_side and winners:
        # The picker's side takes a trick worth 5 with the cheapest card that probably
        # holds, and spends a boss trump on a poorer one only if it is its lowest trump.
        if points >= 5:
            return _likely_winner(k, winners, points)
        lowest_trump = min((c.power for c in legal if c.is_trump), default=0)
        cheap = [c for c in secure if not c.is_trump or c.power == lowest_trump]
        if cheap:
            return _cheapest_winner(cheap)
        if losers and (_lowest(losers, k).points < 10 or not winners):
            return _lowest(losers, k)
        return _cheapest_winner(winners)
    if secure:
        choice = _cheapest_winner(secure)
        # A boss trump is spent on a trick only when the trick is worth it.
        lowest_trump = min((c.power for c in legal if c.is_trump), default=0)
        if points + choice.points >= 5 or not choice.is_trump or choice.power == lowest_trump:
            return choice
    if winners and points >= 10:
        return _defender_winner(k, winners)
    if losers:
        low = _lowest(losers, k)
        if low.points >= 10 and winners:
            # Every loser gives the trick 10 points: rather try to win it.
            return _cheapest_winner(winners)
        return low
    return _cheapest_winner(winners)


def _defender_winner(k: Knowledge, winners: list[Card]) -> Card:
    """A card that probably holds: the top card of a fail suit on its first round,
    else the cheapest trump with at most one card out above it, else the strongest."""
    led = k.led
    first_round = led is not None and led not in {_led_of(t, k) for t in k.view.tricks if t.cards}
    fail = [c for c in winners if not c.is_trump]
    if fail and first_round:
        return max(fail, key=lambda c: c.power)
    trumps = sorted((c for c in winners if c.is_trump), key=lambda c: c.power)
    if not trumps:
        return max(winners, key=lambda c: c.power)
    if first_round:
        return trumps[0]  # others must follow the first round: a low trump usually holds
    for card in trumps:
        if _beaters(k, card) <= 1:
            return card
    return trumps[-1]


def _likely_winner(k: Knowledge, winners: list[Card], points: int) -> Card:
    """The cheapest card that probably holds: the top of a fail suit on its first
    round; else the cheapest with at most one card above it that a later seat may
    hold (none for a trick of 15 or more), allowing two more on a suit's first round,
    when the later seats probably still follow."""
    led = k.led
    first_round = led is not None and led not in {_led_of(t, k) for t in k.view.tricks if t.cards}
    fail = [c for c in winners if not c.is_trump]
    if fail and first_round:
        return max(fail, key=lambda c: c.power)
    ranked = sorted(winners, key=lambda c: (c.is_trump, c.power))
    allowed = 1 if points < 15 else 0
    if first_round:
        allowed += 2
    for card in ranked:
        if k.later_beaters(card) <= allowed:
            return card
    return ranked[-1]


def _led_of(trick: SeenTrick, k: Knowledge) -> SuitKey:
    return kernel.counts_as(trick.cards[0], k.view.unknown, k.view.called)


# Leasters -----------------------------------------------------------------------


def _danger(card: Card) -> float:
    """How likely a card is to take a trick (and its points) in a leaster."""
    if card.is_trump:
        return card.points + (card.power - 100) * 1.5
    return card.points + card.power


def _leaster(k: Knowledge, legal: list[Card]) -> Card:
    if k.leading:
        # Lead low: the weakest fail card, else the weakest trump.
        return min(legal, key=lambda c: (c.is_trump, c.power, c.points))
    winners, losers = _split(k, legal)
    if not losers:
        if not k.later:
            return min(winners, key=lambda c: (c.points, -c.power))
        return min(winners, key=lambda c: c.power)
    rules = k.view.rules
    need_trick = rules.leaster_needs_trick and k.tricks_won[k.seat] == 0
    if need_trick and winners and not k.later and k.trick_points <= 3:
        cheap = min(winners, key=lambda c: (c.points, c.power))
        last = k.tricks_left == 1 and rules.leaster_blind.value == "last-trick"
        if cheap.points <= 3 and not last:
            return cheap  # a cheap trick makes this seat eligible to win the leaster
    led = k.led
    following = [c for c in losers if (c.is_trump if led is None else c.fail_suit is led)]
    if following:
        return max(following, key=lambda c: c.power)  # duck with the highest loser
    return max(losers, key=_danger)  # shed a bare ace or a high trump while it is safe
