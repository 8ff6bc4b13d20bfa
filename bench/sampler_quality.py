"""Does reading the auction and the play make the sampler's worlds truer? (issue 16)

    nice -n 19 .venv/bin/python bench/sampler_quality.py --positions 10000 --field beginner
    nice -n 19 .venv/bin/python bench/sampler_quality.py --positions 10000 --field standard
    nice -n 19 .venv/bin/python bench/sampler_quality.py --positions 2000 --field standard --cracks
    nice -n 19 .venv/bin/python bench/sampler_quality.py --positions 10000 --field standard --bury

Hands of 5-handed ``standard`` played by a field of one level (``beginner`` or
``standard``); from each hand one card decision of one seat is a position (seat and
decision drawn from the hand's index). At each position both samplers draw the same
number of worlds (the expert's ``WORLDS``) from that seat's view: today's (version 1,
``bots.frozen.v1.sampler``, every consistent world alike) and this code's (worlds
weighted by the passes and the play, ``Sampler(view)``). For every card the seat
cannot see, each sampler's probability of each place (each other seat; or the bury,
blind or unknown, as one place) is scored against where the card really is: the
multi-class Brier score and the log loss (probabilities floored at 0.001), averaged
over the position's unseen cards. The report: each sampler's mean, and the mean of
(new - old) per position with a paired bootstrap 95% interval (lower is better), and
each sampler's CPU time a position (``time.process_time``, its worlds drawn).

``--cracks``: hands with cracking on, only those where some seat cracked, and the
sampler reading the cracks against the same sampler without (``Sampler(view,
cracks=False)``) instead of version 1's; with the crackers' mean defence for cracking
(``strength.crack_defence``) in each sampler's worlds and in their hands.

``--bury``: the sampler splitting the picker's cards as the standard level buries
(``Sampler(view, bury=True)``, ``burial.py``) against the same sampler without; with
the card points of the bury in each sampler's worlds and in truth (positions of a seat
that did not pick, after a bury).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable, Sequence

from sheepshead import bots
from sheepshead.bots.expert import WORLDS
from sheepshead.bots.frozen.v1.sampler import Sampler as OldSampler
from sheepshead.bots.rng import Rng
from sheepshead.bots.sampler import Sampler, World, plays_of
from sheepshead.bots.strength import crack_defence
from sheepshead.cards import Card
from sheepshead.cli import _rules_with
from sheepshead.game import Game, Phase
from sheepshead.rules import PRESETS
from sheepshead.view import SeatView

Position = tuple[SeatView, list[tuple[Card, ...]]]


def positions(field: str, count: int, first: int = 0, cracks: bool = False) -> list[Position]:
    """One position per hand: a seat's card decision, and every seat's true cards;
    ``cracks``: of hands with cracking on where some seat cracked."""
    out: list[Position] = []
    i = first
    rules = _rules_with(PRESETS["standard"], ["cracking=true"] if cracks else [])
    while len(out) < count:
        game = Game.deal(rules, i % 5, f"sampler-quality-{field}-{i}".encode())
        seat = (i * 3) % 5
        found: list[Position] = []
        while not game.is_done:
            assert game.turn is not None
            view = game.view(game.turn)
            if game.turn == seat and game.phase is Phase.PLAYING and len(view.legal) > 1:
                # Every seat's true cards, then the bury (which ``score`` does not read).
                found.append((view, [*(game.hands[s] for s in range(game.players)), game.bury]))
            game = game.apply(bots.decide(field, view, seed=i))
        if found and (game.cracks or not cracks):
            out.append(found[(i * 7) % len(found)])
        i += 1
    return out


def score(
    view: SeatView, truth: Sequence[tuple[Card, ...]], worlds: list[World]
) -> tuple[float, float]:
    """(Brier, log loss) of the worlds' placement of the unseen cards."""
    n = view.players
    me = view.seat
    total = sum(w.weight for w in worlds)
    where: dict[Card, int] = {}
    for s in range(n):
        for c in truth[s]:
            where[c] = s
    probs: dict[Card, list[float]] = {}
    for w in worlds:
        for s in range(n):
            if s == me:
                continue
            for c in w.hands[s]:
                probs.setdefault(c, [0.0] * (n + 1))[s] += w.weight / total
    mine = set(view.cards) | set(view.bury or ()) | set(view.blind or ())
    played = {c for t in (*view.tricks, view.trick) for c in t.cards if c is not None}
    everything = {c for w in worlds for h in w.hands for c in h} | set(where)
    unseen = [c for c in everything if c not in mine and c not in played]
    brier = logloss = 0.0
    for c in unseen:
        p = probs.get(c, [0.0] * (n + 1))
        p[n] = max(0.0, 1.0 - sum(p[:n]))  # elsewhere: the bury, blind or unknown
        true = where.get(c, n)
        if true == me:  # cannot happen for an unseen card
            continue
        brier += sum((p[k] - (1.0 if k == true else 0.0)) ** 2 for k in range(n + 1) if k != me)
        logloss += -math.log(max(1e-3, p[true]))
    k = max(1, len(unseen))
    return brier / k, logloss / k


def bootstrap(diffs: list[float], resamples: int = 1000) -> tuple[float, float]:
    rng = Rng.from_bytes(b"sampler-quality-bootstrap".ljust(32, b"\0"))
    n = len(diffs)
    means = sorted(sum(diffs[rng.below(n)] for _ in range(n)) / n for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def measure(
    field: str, count: int, worlds: int, cracks: bool = False, bury: bool = False
) -> dict[str, object]:
    rows: list[tuple[float, float, float, float]] = []
    make: list[Callable[[SeatView], object]] = [OldSampler, Sampler]
    if cracks:
        make = [lambda view: Sampler(view, cracks=False), Sampler]
    if bury:
        make = [lambda view: Sampler(view, bury=False), lambda view: Sampler(view, bury=True)]
    #: The card points of the bury: in each sampler's worlds, and in truth.
    buried: list[tuple[float, float, float]] = []
    #: Each sampler's CPU seconds, its worlds drawn at every position.
    cpu = [0.0, 0.0]
    #: The crackers' defence for cracking: in each sampler's worlds, and in truth.
    defence: list[tuple[float, float, float]] = []
    for index, (view, truth) in enumerate(positions(field, count, cracks=cracks)):
        seed = f"{index}".encode().ljust(32, b"\0")
        pair = []
        shown: list[float] = []
        points: list[float] = []
        crackers = [
            int(move.split()[0])
            for move in view.moves
            if move.endswith(" crack") and int(move.split()[0]) != view.seat
        ]
        played = [
            [c for s, c, _ in plays_of(view) if s == seat and c] for seat in range(view.players)
        ]
        for side, build in enumerate(make):
            start = time.process_time()
            sampler = build(view)
            rng = Rng.from_bytes(seed)
            drawn = [sampler.sample(rng) for _ in range(worlds)]  # type: ignore[attr-defined]
            cpu[side] += time.process_time() - start
            pair.append(score(view, truth, drawn))
            total = sum(w.weight for w in drawn) * max(1, len(crackers))
            shown.append(
                sum(
                    w.weight * crack_defence((*w.hands[s], *played[s]))
                    for w in drawn
                    for s in crackers
                )
                / total
            )
            if bury and drawn[0].bury:
                weight = sum(w.weight for w in drawn)
                points.append(sum(w.weight * sum(c.points for c in w.bury) for w in drawn) / weight)
        (b0, l0), (b1, l1) = pair
        rows.append((b0, b1, l0, l1))
        if len(points) == 2:
            buried.append((points[0], points[1], float(sum(c.points for c in truth[view.players]))))
        if crackers:
            held = [crack_defence((*truth[s], *played[s])) for s in crackers]
            defence.append((shown[0], shown[1], sum(held) / len(held)))
    report: dict[str, object] = {
        "field": field,
        "positions": len(rows),
        "worlds": worlds,
        "cracks": cracks,
        "cpu_ms_per_position": [1000.0 * c / max(1, len(rows)) for c in cpu],
    }
    if buried:
        report["bury_points"] = _means(buried)
    if defence:
        report["cracker_defence"] = _means(defence)
    for name, a, b in (("brier", 0, 1), ("log_loss", 2, 3)):
        old = [r[a] for r in rows]
        new = [r[b] for r in rows]
        diffs = [y - x for x, y in zip(old, new, strict=True)]
        lo, hi = bootstrap(diffs)
        report[name] = {
            "today": sum(old) / len(old),
            "new": sum(new) / len(new),
            "diff": sum(diffs) / len(diffs),
            "ci95": [lo, hi],
        }
    return report


def _means(rows: list[tuple[float, float, float]]) -> dict[str, float]:
    """The means of (in today's sampler's worlds, in the new one's, held) over ``rows``."""
    n = len(rows)
    return {
        "positions": n,
        "today": sum(r[0] for r in rows) / n,
        "new": sum(r[1] for r in rows) / n,
        "held": sum(r[2] for r in rows) / n,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--field", choices=("beginner", "standard"), default="beginner")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--worlds", type=int, default=WORLDS)
    parser.add_argument("--cracks", action="store_true", help="cracked hands, cracks read or not")
    parser.add_argument("--bury", action="store_true", help="the bury read or not")
    args = parser.parse_args()
    print(json.dumps(measure(args.field, args.positions, args.worlds, args.cracks, args.bury)))


if __name__ == "__main__":
    main()
