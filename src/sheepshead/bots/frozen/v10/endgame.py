# Frozen copy of sheepshead.bots/endgame.py at version 10: never edit.
"""Exact play of a hand's last tricks in one sampled world (issue 16's "different
search": the expert's card play, against the plateau of playouts over the policy).

``solve`` plays every line of the tricks left, open-handed, as the two sides would
if each saw every card (the picker's side against the defence, as ``SimHand.side``
sets them in that world): the seat's own side takes the best line for its value,
the other side the worst (alpha-beta). A seat's value is what search reads of a
finished hand (``SimHand.outcome``: its game points, and its side's card points
weighted by ``point_weight``), and the scores of a hand with a picker sum to zero,
so one side's best is the other's worst. Not in a leaster, where every seat plays
for itself: there the expert keeps its playouts.

Its cost is fixed by the cards left, never by a clock: the same world and view give
the same value on any machine.
"""

from __future__ import annotations

from sheepshead.bots.frozen.v10.sim import SimHand

__all__ = ["solve"]


def solve(sim: SimHand, me: int, point_weight: float) -> float:
    """``me``'s value of the hand played out exactly from ``sim`` (not a leaster)."""
    return _search(sim, me, point_weight, float("-inf"), float("inf"))


def _value(sim: SimHand, me: int, point_weight: float) -> float:
    score, own = sim.outcome(me)
    return score + point_weight * own


def _search(sim: SimHand, me: int, point_weight: float, alpha: float, beta: float) -> float:
    if sim.trick_no >= sim.total_tricks - 1:
        if sim.trick_no == sim.total_tricks - 1:
            sim.finish()
        return _value(sim, me, point_weight)
    legal = sim.legal()
    if legal & (legal - 1) == 0:
        sim.play(legal)
        return _search(sim, me, point_weight, alpha, beta)
    ours = (sim.side >> sim.turn & 1) == (sim.side >> me & 1)
    best = float("-inf") if ours else float("inf")
    cards = legal
    while cards:
        card = cards & -cards
        cards ^= card
        child = sim.copy()
        child.play(card)
        value = _search(child, me, point_weight, alpha, beta)
        if ours:
            if value > best:
                best = value
            if best > alpha:
                alpha = best
        else:
            if value < best:
                best = value
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best
