"""Rule-based computer players: the ``beginner`` and ``standard`` levels.

The standard level plays the conventions a Wisconsin table expects (see
``docs/bots.md``): it picks by a hand-strength score with seat-aware thresholds,
buries for voids and points, calls the right ace, leads trump on the picker's side,
leads the called suit on defence, schmears only to a known partner who will win,
and counts trumps and voids to know when a trick is safe. The beginner picks
loosely with noise and plays simpler cards, but never absurdly.

Both are deterministic: the same view and generator give the same action.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from sheepshead.actions import ALONE, CRACK, NOCRACK, PASS, PICK, Action, Bury, Call, Name, Play
from sheepshead.bots.burial import bury_score
from sheepshead.bots.cardplay import choose_card
from sheepshead.bots.knowledge import read_view
from sheepshead.bots.rng import Rng
from sheepshead.bots.strength import (
    CRACK_THRESHOLD,
    STANDARD_PICK_THRESHOLDS,
    crack_defence,
    hand_strength,
    per_six_cards,
    table_key,
)
from sheepshead.bots.style import Style
from sheepshead.cards import Card, Rank, ten_of
from sheepshead.hand import Phase
from sheepshead.view import SeatView

__all__ = ["STYLES", "RuleBot", "hand_strength"]


def _flat(value: float) -> tuple[tuple[str, tuple[float, ...]], ...]:
    return tuple((key, (value * scale,) * n) for key, n, scale in _TABLES)


#: Every table a rule set can make: key, players, how a hand's strength scales.
_TABLES = (
    ("3/none", 3, 1.75),
    ("4/none", 4, 1.3),
    ("4/called-ace", 4, 1.15),
    ("5/called-ace", 5, 1.0),
    ("5/jack-of-diamonds", 5, 1.0),
    ("6/jack-of-diamonds", 6, 0.85),
)

STYLES: dict[str, Style] = {
    "standard": Style(
        level="standard",
        # Tuned by self-play in the arena on the deal set "tune" (docs/bots.md).
        # "Never pick thin in the number-two position": the second seat needs most.
        # 4-handed, 6-handed and the jack of diamonds: the dealer (who picks or plays
        # a leaster) and, 4-handed, every seat lowered to cut leasters, each within
        # 0.05 of the old thresholds in the arena (bench/tune_tables.py, docs/bots.md).
        pick=STANDARD_PICK_THRESHOLDS,
        pick_noise=0.0,
        alone=13.5,
        crack=CRACK_THRESHOLD,
        play_noise=0.0,
    ),
    "beginner": Style(
        level="beginner",
        pick=_flat(5.5),
        pick_noise=2.0,
        alone=12.5,
        crack=8.0,
        # 0.2 until version 2, 0.3 until version 5: with the one card-play policy the
        # beginner had grown too close to the standard level (its margin's lower end
        # under 0.1), and again when version 5's policy made both stronger.
        play_noise=0.35,
    ),
}


def _pick_threshold(view: SeatView, style: Style) -> float:
    n = view.players
    position = (view.seat - view.dealer - 1) % n
    return style.pick_table(table_key(view))[position]


# The bot --------------------------------------------------------------------


class RuleBot:
    """A rule-based bot of the given level (``beginner`` or ``standard``)."""

    def __init__(self, level: str = "standard", style: Style | None = None) -> None:
        if style is None:
            if level not in STYLES:
                raise ValueError(f"no rule-based level {level!r}")
            style = STYLES[level]
        self.level = level
        self.style = style

    def variant(self, **changes: object) -> RuleBot:
        """The same bot with some style fields changed (for tuning in the arena)."""
        return RuleBot(self.level, replace(self.style, **changes))  # type: ignore[arg-type]

    def choose(self, view: SeatView, rng: Rng) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to decide")
        if len(legal) == 1:
            return legal[0]
        action = self.propose(view, rng)
        # A safety net for a table in play; the tests check that it is never needed.
        return action if action in legal else legal[0]

    def propose(self, view: SeatView, rng: Rng) -> Action:
        """The rules' choice, before the safety net of ``choose``."""
        if len(view.legal) == 1:
            return view.legal[0]
        phase = view.phase
        if phase is Phase.PLAYING:
            return Play(choose_card(read_view(view), self.style, rng))
        if phase is Phase.PICKING:
            return self._pick(view, rng)
        if phase is Phase.BURYING:
            return self._bury(view, rng)
        if phase is Phase.CALLING:
            return self._call(view)
        if phase is Phase.CRACKING:
            return self._crack(view)
        return self._name(view)

    # Pick --------------------------------------------------------------------

    def _pick(self, view: SeatView, rng: Rng) -> Action:
        style = self.style
        threshold = _pick_threshold(view, style)
        if style.pick_noise:
            threshold += (rng.random() * 2 - 1) * style.pick_noise
        return PICK if hand_strength(view.cards) >= threshold else PASS

    # Bury --------------------------------------------------------------------

    def _bury(self, view: SeatView, rng: Rng) -> Action:
        # Bury points: in arena tuning, the two (or four) richest fail cards beat every
        # weighting of voids, kept aces and call quality we tried (docs/bots.md).
        # Among burials worth the same, the one that makes more voids; the beginner
        # breaks ties at random.
        cards = list(view.cards)
        size = view.rules.blind_size
        fails = [c for c in cards if not c.is_trump]
        trumps = sorted((c for c in cards if c.is_trump), key=lambda c: c.power)
        # Trump only when forced, and then the weakest.
        forced = trumps[: max(0, size - len(fails))]
        best: tuple[float, tuple[Card, ...]] | None = None
        for combo in combinations(fails, size - len(forced)):
            buried = (*forced, *combo)
            if self.style.level == "beginner":
                score = float(sum(c.points for c in buried)) + rng.random()
            else:
                score = bury_score(buried, [c for c in fails if c not in combo])
            if best is None or score > best[0]:
                best = (score, buried)
        assert best is not None
        return Bury(best[1])

    # Call --------------------------------------------------------------------

    def _call(self, view: SeatView) -> Action:
        legal = view.legal
        kept = list(view.cards)
        calls = [a for a in legal if isinstance(a, Call)]
        if not calls:
            return ALONE
        best = max(calls, key=lambda a: _call_value(kept, a))
        strength = hand_strength(kept) + 0.05 * sum(c.points for c in view.bury or ())
        threshold = per_six_cards(self.style.alone, view.rules.cards_per_seat)
        if best.unknown is not None:
            # An unknown call gives away a card and finds the partner late; with no
            # fail card to spare, it gives away a trump.
            threshold -= self.style.unknown_alone[best.unknown.is_trump]
        if ALONE in legal and strength >= threshold:
            return ALONE
        return best

    # Crack ------------------------------------------------------------------

    def _crack(self, view: SeatView) -> Action:
        if view.partner or CRACK not in view.legal:
            return NOCRACK
        defence = crack_defence(view.cards)
        threshold = per_six_cards(self.style.crack, view.rules.cards_per_seat)
        return CRACK if defence >= threshold else NOCRACK

    # Name (leaster with the named-trick blind) --------------------------------

    def _name(self, view: SeatView) -> Action:
        # The dealer plays last to the first trick and can usually duck it with a
        # low card; with no low card, the last trick is the least likely to be won,
        # since a leaster player sheds high cards early.
        low = sum(1 for c in view.cards if (not c.is_trump and c.power <= 3) or c.power <= 102)
        trick = 1 if low >= 2 else view.rules.tricks
        return Name(trick)


def _call_value(kept: list[Card], action: Call) -> float:
    card = action.card
    if card.is_trump:  # the jack of diamonds (or of hearts): the only call there is
        return 0.0
    if action.unknown is not None:
        # The unknown is lost to the called trick: make it the cheapest fail card.
        u = action.unknown
        return -3.0 - u.points - (5.0 + u.power - 100 if u.is_trump else 0.0)
    held = [c for c in kept if c.fail_suit is card.suit]
    if card.rank is Rank.TEN:
        return 1.0 - len(held) * 0.5
    value = 0.0
    if ten_of(card.suit) in held:
        value += 6.0  # the ten on the partner's ace makes 21 points
    if len(held) == 1:
        value += 3.0
    elif len(held) == 2:
        value += 1.0
    else:
        value -= 6.0  # never a long suit: the ace gets trumped
    return value
