"""Judging one decision: every option on the same sampled worlds.

The worlds come from the seat's view at that moment (``bots.sampler``), with a
generator of the coach's own, seeded from that view's canonical text: the coach
knows nothing of who played, and two records that look the same to the seat get the
same judgement. Every option is played out in every world (common random numbers), so
the difference between two options is measured far more precisely than either value;
its standard error comes from the per-world differences. Worlds are added in batches
until the difference between what was played and the best option has a standard
error of at most ``TARGET_SE`` game points, or ``max_worlds`` is reached: then the
decision is "close" and gets no label.

With many options (a bury, an unknown call), all are played in the first batch and
only the most promising few (and the one played) go on: a race, as strong programs
shortlist candidates.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from sheepshead.actions import Action

# Version 4 of the bots' play, frozen, whatever the live version (coach/worlds.py).
from sheepshead.bots.frozen.v4.rng import Rng
from sheepshead.bots.frozen.v4.sampler import Sampler
from sheepshead.coach.worlds import Outcome, Playouts
from sheepshead.game import Phase
from sheepshead.view import SeatView

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "TARGET_SE",
    "Effort",
    "Evaluation",
    "OptionValue",
    "evaluate",
    "label_of",
]

INACCURACY = 0.25
MISTAKE = 0.5
BLUNDER = 1.0
#: The largest standard error (game points) of a labelled difference.
TARGET_SE = 0.1
#: Game points per card point when choosing the best option: card points break
#: near-ties, since game points move in steps and card points show the margin.
CARD_POINT_WEIGHT = 0.01


@dataclass(frozen=True, slots=True)
class Effort:
    """How many worlds: ``first`` in the first batch (``race`` when there are more than
    ``keep`` options: all of them are played in a quick first round, and only the
    ``keep`` best, and the one played, go on), then ``batch`` at a time up to ``most``."""

    first: int = 24
    batch: int = 24
    most: int = 960
    keep: int = 5
    race: int = 8
    #: At most this many playouts (options x worlds) for a card, and for a decision
    #: before the play (whose playouts also run the rest of the auction: dearer).
    card_playouts: int = 4800
    auction_playouts: int = 1600


@dataclass(frozen=True, slots=True)
class OptionValue:
    action: Action
    #: Expected game points of the seat.
    game_points: float
    #: Expected card points of the seat's side.
    card_points: float
    #: Worlds this option was played in.
    worlds: int


@dataclass(frozen=True, slots=True)
class Evaluation:
    played: Action | None
    best: Action
    #: Every option evaluated, best first.
    options: tuple[OptionValue, ...]
    #: Expected game points lost by what was played (0 if it was the best).
    loss: float
    card_points_loss: float
    #: Standard error of the difference (best - played), game points.
    se: float
    worlds: int
    forced: bool

    @property
    def close(self) -> bool:
        return self.se > TARGET_SE

    @property
    def label(self) -> str | None:
        return None if self.close else label_of(self.loss)


def label_of(loss: float) -> str | None:
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def rng_for(view: SeatView) -> Rng:
    """The coach's own generator for a decision: from what the seat knew, only."""
    text = "coach/1\x00" + view.canonical_text()
    return Rng.from_bytes(hashlib.sha256(text.encode()).digest())


class _Tally:
    """Per-option sums over the worlds, weighted, and the per-world outcomes."""

    def __init__(self) -> None:
        self.weights: list[float] = []
        self.rows: list[dict[int, Outcome]] = []
        #: Per option: the weight of its worlds, its weighted game and card points, and
        #: its count of worlds, summed as the worlds come (in their order, so each sum
        #: is the very float a sum over ``rows`` gives; ``mean`` is asked every batch).
        self.sums: dict[int, tuple[float, float, float, int]] = {}

    def add(self, weight: float, row: dict[int, Outcome]) -> None:
        self.weights.append(weight)
        self.rows.append(row)
        sums = self.sums
        for option, out in row.items():
            total, gp, cp, count = sums.get(option, (0.0, 0.0, 0.0, 0))
            sums[option] = (
                total + weight,
                gp + weight * out.game_points,
                cp + weight * out.card_points,
                count + 1,
            )

    def mean(self, option: int) -> tuple[float, float, int]:
        total, gp, cp, count = self.sums[option]
        return gp / total, cp / total, count

    def se_of_difference(self, a: int, b: int) -> float:
        """Standard error of the weighted mean of (a - b) over worlds that played both."""
        pairs = [
            (w, row[a].game_points - row[b].game_points)
            for w, row in zip(self.weights, self.rows, strict=True)
            if a in row and b in row
        ]
        if len(pairs) < 2:
            return math.inf
        total = sum(w for w, _ in pairs)
        mean = sum(w * d for w, d in pairs) / total
        var = sum(w * (d - mean) ** 2 for w, d in pairs) / total
        n_eff = total**2 / sum(w * w for w, _ in pairs)
        return math.sqrt(var / max(1.0, n_eff - 1))


def _score(mean: tuple[float, float, int]) -> float:
    return mean[0] + CARD_POINT_WEIGHT * mean[1]


def evaluate(view: SeatView, played: Action | None, effort: Effort = Effort()) -> Evaluation:
    """Every legal option of the seat's decision in ``view``, and how ``played`` fares."""
    options = list(view.legal)
    if not options:
        raise ValueError(f"seat {view.seat} has nothing to decide")
    if played is not None and played not in options:
        raise ValueError(f"{played} is not one of seat {view.seat}'s options")
    if len(options) == 1:
        only = OptionValue(options[0], 0.0, 0.0, 0)
        return Evaluation(played, options[0], (only,), 0.0, 0.0, 0.0, 0, True)
    rng = rng_for(view)
    sampler = Sampler(view)
    runs = Playouts(view)
    tally = _Tally()
    alive = list(range(len(options)))
    mine = None if played is None else options.index(played)
    worlds = playouts = 0
    budget = effort.card_playouts if view.phase is Phase.PLAYING else effort.auction_playouts
    step = effort.race if len(options) > effort.keep else effort.first
    while True:
        for _ in range(step):
            world = sampler.sample(rng)
            outcomes = runs.play(world, [options[i] for i in alive])
            tally.add(world.weight, dict(zip(alive, outcomes, strict=True)))
        worlds += step
        playouts += step * len(alive)
        means = {i: tally.mean(i) for i in alive}
        ranked = sorted(alive, key=lambda i: -_score(means[i]))
        best = ranked[0]
        if len(alive) > effort.keep:
            alive = ranked[: effort.keep]
            if mine is not None and mine not in alive:
                alive.append(mine)
        se = 0.0 if mine is None or mine == best else tally.se_of_difference(best, mine)
        if mine is None:
            se = 0.0 if len(ranked) < 2 else tally.se_of_difference(best, ranked[1])
        if se <= TARGET_SE or worlds >= effort.most:
            break
        step = min(effort.batch, effort.most - worlds, (budget - playouts) // len(alive))
        if step <= 0:
            break
    return _evaluation(options, played, mine, tally, worlds, se)


def _evaluation(
    options: list[Action],
    played: Action | None,
    mine: int | None,
    tally: _Tally,
    worlds: int,
    se: float,
) -> Evaluation:
    values = []
    for i, action in enumerate(options):
        if i not in tally.sums:
            continue
        gp, cp, count = tally.mean(i)
        values.append((i, OptionValue(action, gp, cp, count)))
    # Options that ran the whole race first, then the dropped ones; best first.
    values.sort(key=lambda iv: (-iv[1].worlds, -_score((iv[1].game_points, iv[1].card_points, 0))))
    best_i, best = values[0]
    if mine is not None and _score(tally.mean(mine)) >= _score(tally.mean(best_i)) - 1e-9:
        # What was played is as good as any: it is the best (not an equal other).
        best_i, best = next((i, v) for i, v in values if i == mine)
    loss = cp_loss = 0.0
    if mine is not None and mine != best_i:
        gp_b, cp_b, _ = tally.mean(best_i)
        gp_m, cp_m, _ = tally.mean(mine)
        # Over the worlds both were played in (all of them: the played option is never dropped).
        loss = max(0.0, gp_b - gp_m)
        cp_loss = cp_b - cp_m
    else:
        se = 0.0 if mine is not None else se
    return Evaluation(
        played,
        best.action,
        tuple(v for _, v in values),
        round(loss, 4),
        round(cp_loss, 4),
        se,
        worlds,
        False,
    )
