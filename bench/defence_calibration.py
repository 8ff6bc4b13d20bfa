"""How well does a defender's search judge its own side before the first lead? (issue 16)

    nice -n 5 .venv/bin/python bench/defence_calibration.py --deals 800

Hands of 5-handed ``standard`` with cracking on, a table of standard players (the
deal set ``calib-crack``). At each chance to crack (a seat after the picker that does
not hold the called card), the seat's mean game points over 40 sampled worlds, each
played out by the one policy (the expert's evaluation, ``playout.playout``), are set
against what the hand then gave it (divided by the cracks, so both are per unit of
stake). Every seat of the table plays by the same policy as the playouts, so what the
estimate misses is the worlds'. Three ways to draw them:

- ``sampler``: ``Sampler(view, bury=False)``, what the expert's search draws;
- ``bury``: ``Sampler(view, bury=True)``, the picker's cards split as it buries
  (``burial.py``);
- ``bury+trumps``: the same, resampled four times over by the picker's trumps
  (``expert_ablate.py``'s ``ptrump``: a standard picker keeps 4.7 trumps of 6).

For each: the mean estimate and the mean result, and what cracking would have gained
a seat that cracked whenever its estimate passed a margin (the result summed over the
hands it cracks, per chance), beside the standard level's own rule (its trumps'
``crack_defence`` at a threshold).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from expert_ablate import _resampled
from sheepshead import bots, kernel
from sheepshead.actions import CRACK
from sheepshead.bots import seed_rng
from sheepshead.bots.arena import deal_seed
from sheepshead.bots.playout import playout
from sheepshead.bots.sampler import PASS_SCALE, Sampler
from sheepshead.bots.simview import sim_of
from sheepshead.bots.strength import crack_defence
from sheepshead.cli import _rules_with
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import PRESETS
from sheepshead.view import SeatView

WAYS = ("sampler", "bury", "bury+trumps")
WORLDS = 40


def estimate(view: SeatView, way: str) -> float:
    """The seat's weighted mean game points, per unit of stake, over the worlds."""
    sampler = Sampler(view, bury=way != "sampler")
    rng = seed_rng("expert", view, 0)
    drawn = [sampler.sample(rng) for _ in range(WORLDS)]
    if way == "bury+trumps":
        drawn = _resampled(view, sampler, rng, WORLDS, 4, PASS_SCALE, drawn, 0.0, True)
    value = total = 0.0
    for world in drawn:
        sim = sim_of(view, world)
        stake = sim.multiplier
        playout(sim)
        value += world.weight * sim.scores()[view.seat] / stake
        total += world.weight
    return value / (total or 1.0)


def chances(first: int, deals: int) -> list[dict[str, float]]:
    rules = _rules_with(PRESETS["standard"], ["cracking=true"])
    out: list[dict[str, float]] = []
    for i in range(first, first + deals):
        game = Game.deal(rules, i % rules.players, deal_seed("calib-crack", i))
        found: list[tuple[int, dict[str, float]]] = []
        while not game.is_done:
            assert game.turn is not None
            view = game.view(game.turn)
            if view.phase is Phase.CRACKING and CRACK in view.legal and not view.partner:
                row = {way: estimate(view, way) for way in WAYS}
                row["defence"] = crack_defence(view.cards)
                found.append((view.seat, row))
            legal = game.legal_actions()
            game = game.apply(legal[0] if len(legal) == 1 else bots.decide("standard", view, 0))
        result = game.result()
        assert result is not None
        end = game.view(0)
        stake = kernel.hand_multiplier(end.multiplier, len(end.cracks))
        for seat, row in found:
            row["result"] = result.scores[seat] / stake
            out.append(row)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--deals", type=int, default=800)
    args = parser.parse_args()
    rows = chances(args.first, args.deals)
    n = len(rows)
    report: dict[str, object] = {"deals": args.deals, "chances": n}
    report["result"] = sum(r["result"] for r in rows) / n
    for way in WAYS:
        report[way] = {
            "estimate": sum(r[way] for r in rows) / n,
            "crack_above": {
                f"{margin:+.1f}": {
                    "cracks": sum(1 for r in rows if r[way] > margin) / n,
                    "gain": sum(r["result"] for r in rows if r[way] > margin) / n,
                }
                for margin in (0.0, 0.5, 1.0, 1.5)
            },
        }
    report["standard_rule"] = {
        f"{t}": {
            "cracks": sum(1 for r in rows if r["defence"] >= t) / n,
            "gain": sum(r["result"] for r in rows if r["defence"] >= t) / n,
        }
        for t in (7, 8, 9)
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
