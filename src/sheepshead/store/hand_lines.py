"""What one finished hand says about one seat: its role, its place from the dealer, its
game points and how the hand went for its side. Pure (no database): the statistics
(``store/stats.py``) fold these lines, and the history keeps one per hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sheepshead.game import Game
from sheepshead.rules import PRESETS, Result, Rules

#: The roles a seat can have in a hand, as the statistics name them.
ROLES = ("picker", "partner", "defender", "alone", "leaster")
#: A hand everybody passed and that was thrown in (no role: it counts only as played).
THROWN_IN = "thrown-in"
#: The kinds of hands in the history: free play, a ranked daily deal, a replay of a past
#: day (practice: kept in the history, left out of the statistics), a hand at a
#: friends' table.
KINDS = ("free", "daily", "replay", "friends")
#: Rules that are none of the presets.
CUSTOM = "custom"
_WINS = frozenset({Result.WIN, Result.WIN_SCHNEIDER, Result.WIN_NO_TRICK})


def preset_name(rules: Rules) -> str:
    """The preset these rules are, or ``custom``."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return CUSTOM


def position_key(position: int, players: int) -> str:
    """``"1"`` for the first to speak (the dealer's left) ... ``"dealer"`` (speaks last):
    keys that mean the same at every table size."""
    return "dealer" if position == players - 1 else str(position + 1)


@dataclass(frozen=True, slots=True)
class HandLine:
    """One finished hand as one seat played it."""

    players: int
    #: 0 for the first to speak after the dealer, ``players - 1`` for the dealer.
    position: int
    #: One of ``ROLES``, or ``THROWN_IN``.
    role: str
    #: The seat's game points (its score for the hand, multipliers included).
    points: int
    #: The hand's result from the picker's side (``Result`` value).
    result: str
    multiplier: int
    #: The seat picked, and (if so) its side won.
    picked: bool
    picker_won: bool
    #: ``"won"`` (the seat's side made it), ``"lost"`` (it was made against them), or None.
    schneider: str | None
    no_trick: str | None

    @property
    def position_key(self) -> str:
        return position_key(self.position, self.players)


def hand_line(game: Game, seat: int) -> HandLine:
    """The line of a finished hand for ``seat``. Raises ValueError if it is not over."""
    result = game.result()
    if result is None:
        raise ValueError("the hand is not over")
    players = game.players
    position = (seat - game.dealer - 1) % players
    points = result.scores[seat]
    on_picker_side = seat == result.picker or seat in result.partners
    picker_side_won = result.result in _WINS
    schneider = no_trick = None
    if result.result in (Result.WIN_SCHNEIDER, Result.LOSS_SCHNEIDER):
        schneider = _side(on_picker_side, result.result is Result.WIN_SCHNEIDER)
    elif result.result in (Result.WIN_NO_TRICK, Result.LOSS_NO_TRICK):
        no_trick = _side(on_picker_side, result.result is Result.WIN_NO_TRICK)
    picked = result.picker == seat and not result.leaster
    return HandLine(
        players=players,
        position=position,
        role=_role(seat, result.result, result.leaster, result.picker, result.partners),
        points=points,
        result=result.result.value,
        multiplier=result.multiplier,
        picked=picked,
        picker_won=picked and picker_side_won,
        schneider=schneider,
        no_trick=no_trick,
    )


def _side(on_picker_side: bool, picker_side_made_it: bool) -> str:
    return "won" if on_picker_side == picker_side_made_it else "lost"


def _role(
    seat: int, result: Result, leaster: bool, picker: int | None, partners: Sequence[int]
) -> str:
    if result is Result.DOUBLER:
        return THROWN_IN
    if leaster:
        return "leaster"
    if seat == picker:
        return "picker" if partners else "alone"
    return "partner" if seat in partners else "defender"


# The daily streak ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Streaks:
    """The daily days counted (a finished ranked attempt whose result stands), the run
    of consecutive days that ends on ``end`` and the longest run ever."""

    days: int = 0
    run: int = 0
    end: date | None = None
    best: int = 0

    def add(self, day: date) -> Streaks:
        """A day counted after every day counted so far."""
        if self.end is not None and day <= self.end:
            return self
        follows = self.end is not None and (day - self.end).days == 1
        run = self.run + 1 if follows else 1
        return Streaks(self.days + 1, run, day, max(self.best, run))

    def current(self, today: date) -> int:
        """The streak as of ``today``: it includes today if played, else runs to
        yesterday; a day missed before that (or a void one) has broken it."""
        if self.end is None or (today - self.end).days > 1:
            return 0
        return self.run


def streaks_of(days: Sequence[date]) -> Streaks:
    """The streaks of the days counted, in any order (a recount, after a voided result)."""
    out = Streaks()
    for day in sorted(set(days)):
        out = out.add(day)
    return out
