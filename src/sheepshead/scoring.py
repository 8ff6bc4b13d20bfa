"""A finished hand's score: the picker's side against the defenders, a leaster, or a
doubler, by the rules kernel's table (``kernel.picker_score``, ``kernel.leaster_scores``).
``Game.result`` gives it; it reads the hand as a ``hand.HandState``.
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter

from sheepshead import kernel
from sheepshead.hand import HandResult, HandState, Phase
from sheepshead.rules import LeasterBlind, Result

_POINTS = attrgetter("points")
# Enum members as plain names: a member read from its class costs a class lookup.
_DONE, _DOUBLER, _LEASTER = Phase.DONE, Result.DOUBLER, Result.LEASTER
_CARDS = attrgetter("cards")
_new = object.__new__
# A HandResult's slots, set as its frozen __init__ sets them, without the call (its
# nine ``object.__setattr__`` calls cost a fifth of a hand's scoring).
(
    _set_picker,
    _set_partners,
    _set_alone,
    _set_leaster,
    _set_tricks,
    _set_points,
    _set_result,
    _set_scores,
    _set_multiplier,
) = (HandResult.__dict__[name].__set__ for name in HandResult.__match_args__)


def hand_result(hand: HandState) -> HandResult | None:
    """The hand's score once it is done, else None."""
    if hand.phase is not _DONE:
        return None
    # Each field read once: a state of the play serves them as properties.
    n = hand.players
    picker = hand.picker
    tricks = hand.tricks
    if picker is None and not tricks:
        return HandResult(None, (), False, False, (), None, _DOUBLER, (0,) * n, 1)
    if picker is None:
        return _leaster_result(hand)
    partners = hand.partners
    rules = hand.rules
    side = 1 << picker
    for partner in partners:
        side |= 1 << partner
    won = [t for t in tricks if side >> t.winner & 1]
    points = sum(map(_POINTS, chain(chain.from_iterable(map(_CARDS, won)), hand.bury)))
    result, scores, multiplier = kernel.picker_score(
        n,
        picker,
        side,
        points,
        len(won),
        rules.tricks,
        kernel.hand_multiplier(hand.multiplier, len(hand.cracks)),
        kernel.bumps(rules, picker == hand.dealer),
    )
    made = _new(HandResult)
    _set_picker(made, picker)
    _set_partners(made, tuple(sorted(partners)))
    _set_alone(made, not partners)
    _set_leaster(made, False)
    _set_tricks(made, tricks)
    _set_points(made, (points, 120 - points))
    _set_result(made, result)
    _set_scores(made, scores)
    _set_multiplier(made, multiplier)
    return made


def leaster_blind_seat(hand: HandState) -> int | None:
    """Who takes the blind in a finished leaster, by the table's rule."""
    rule = hand.rules.leaster_blind
    if rule is LeasterBlind.ASIDE:
        return None
    if rule is LeasterBlind.NAMED_TRICK:
        assert hand.named_trick is not None
        return hand.tricks[hand.named_trick - 1].winner
    return hand.tricks[-1].winner


def _leaster_result(hand: HandState) -> HandResult:
    n = hand.players
    points = [0] * n
    taken = [0] * n
    for trick in hand.tricks:
        points[trick.winner] += trick.points
        taken[trick.winner] += 1
    blind_seat = leaster_blind_seat(hand)
    if blind_seat is not None:
        points[blind_seat] += sum(c.points for c in hand.blind)
    m = hand.multiplier
    scores = kernel.leaster_scores(points, taken, hand.rules.leaster_needs_trick, m)
    return HandResult(None, (), False, True, hand.tricks, tuple(points), _LEASTER, scores, m)
