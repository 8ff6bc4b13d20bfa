"""Rule-based computer players: the beginner and standard levels (placeholder)."""

from __future__ import annotations

from sheepshead.actions import Action
from sheepshead.bots.rng import Rng
from sheepshead.view import SeatView


class RuleBot:
    def __init__(self, level: str = "standard") -> None:
        self.level = level

    def choose(self, view: SeatView, rng: Rng) -> Action:
        return rng.choice(view.legal)
