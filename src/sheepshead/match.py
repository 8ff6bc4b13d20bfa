"""A match: a run of hands at one table, the deal passing left, scores kept per seat.

A browser session or a daily game is simply a match. Seeds come from outside
(the engine has no randomness of its own): ``start_hand(seed)`` deals the next
hand with the right dealer and multiplier.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheepshead.actions import Action
from sheepshead.deal import seed_commitment
from sheepshead.game import Game
from sheepshead.rules import Result, Rules


@dataclass(frozen=True, slots=True)
class Match:
    rules: Rules
    #: The dealer of the first hand.
    first_dealer: int = 0
    #: Every finished hand, in order (thrown-in doublers included).
    hands: tuple[Game, ...] = ()
    #: The hand being played, or None between hands.
    current: Game | None = None
    #: Running game points per seat.
    scores: tuple[int, ...] = ()
    #: Doubled hands still to come: each doubler adds one.
    doubles_owed: int = 0

    def __post_init__(self) -> None:
        if not self.scores:
            object.__setattr__(self, "scores", (0,) * self.rules.players)
        if not 0 <= self.first_dealer < self.rules.players:
            raise ValueError(f"first_dealer must be a seat from 0 to {self.rules.players - 1}")

    @property
    def next_dealer(self) -> int:
        """The dealer of the next hand: the deal passes left after every hand."""
        started = len(self.hands) + (1 if self.current is not None else 0)
        return (self.first_dealer + started) % self.rules.players

    @property
    def next_multiplier(self) -> int:
        return 2 if self.doubles_owed else 1

    def start_hand(self, seed: bytes) -> Match:
        if self.current is not None and not self.current.is_done:
            raise ValueError("the current hand is not finished")
        match = self._finish() if self.current is not None else self
        game = Game.deal(match.rules, match.next_dealer, seed, match.next_multiplier)
        return Match(
            match.rules, match.first_dealer, match.hands, game, match.scores, match.doubles_owed
        )

    def apply(self, action: Action) -> Match:
        if self.current is None:
            raise ValueError("no hand is being played: start one first")
        game = self.current.apply(action)
        match = Match(
            self.rules, self.first_dealer, self.hands, game, self.scores, self.doubles_owed
        )
        return match._finish() if game.is_done else match

    def _finish(self) -> Match:
        game = self.current
        assert game is not None
        assert game.is_done
        result = game.result()
        assert result is not None
        owed = self.doubles_owed
        if result.result is Result.DOUBLER:
            owed += 1
        elif game.multiplier > 1 and owed:
            owed -= 1
        scores = tuple(a + b for a, b in zip(self.scores, result.scores, strict=True))
        return Match(self.rules, self.first_dealer, (*self.hands, game), None, scores, owed)


def sheet_line(number: int, game: Game, seed: bytes) -> dict[str, Any]:
    """A finished hand's line of the score sheet, with its deal's fingerprint and seed
    (to check the deal): written once when the hand ends, never recomputed."""
    result = game.result()
    assert result is not None
    return {
        "hand": number,
        "dealer": game.dealer,
        "picker": result.picker,
        "partners": list(result.partners),
        "result": result.result.value,
        "multiplier": result.multiplier,
        "scores": list(result.scores),
        "seed_sha256": seed_commitment(seed),
        "seed": seed.hex(),
    }
