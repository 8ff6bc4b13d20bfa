# Frozen copy of sheepshead.bots/style.py at version 10: never edit.
"""How a rule-based level plays: its ``Style`` (thresholds and noise), read by the
level's bidding (``rulebot.py``) and its card play (``cardplay.py``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Style:
    """How a level plays. Thresholds are hand-strength scores (``hand_strength``)."""

    level: str
    #: Pick thresholds by table ("players/partner rule"), one per position from the
    #: dealer's left, the dealer last.
    pick: tuple[tuple[str, tuple[float, ...]], ...]
    #: Uniform noise added to the threshold, +/- this much.
    pick_noise: float
    #: Go alone at or above this strength (after the bury), for six cards a seat.
    alone: float
    #: Crack with at least this defensive strength.
    crack: float
    #: Chance of a random (but never absurd) card instead of the rule's choice.
    play_noise: float
    #: How much less strength an alone needs when the only call is an unknown
    #: (the unknown a fail card, a trump).
    unknown_alone: tuple[float, float] = (1.0, 1.0)

    def pick_table(self, key: str) -> tuple[float, ...]:
        return dict(self.pick)[key]
