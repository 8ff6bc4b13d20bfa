"""How often a table of one level all pass: the leaster rate of a table of experts and
of a table of standard players, at every preset (issue 16).

    nice -n 5 .venv/bin/python bench/leaster_rates.py --deals 2000
    nice -n 5 .venv/bin/python bench/leaster_rates.py --levels expert --presets three-handed
    nice -n 5 .venv/bin/python bench/leaster_rates.py --levels expert --presets three-handed \
        --pick-bonus 3.0

Who picks is settled in the auction, before any card is played, and every seat decides
it from its own dealt cards and the passes before it: so only the auctions are played
(the arena's deals of the named deal set, the dealer rotating with the deal index, as
``sheepshead arena`` deals them), with the level in every seat, each seat's generator
seeded as the arena seats it. A hand "is a leaster" when every seat passed at a table
whose rule for that is a leaster. Prints one JSON line per preset and level: the
leaster rate with a 95% Wilson interval, the pick rate by seat position (first to
speak is position 0; the dealer speaks last) and the rate of picks gone alone.

``--pick-bonus B`` has the expert search its pick at the named presets with that bonus
(``bigsearch.PICK_BONUS``, which the live expert reads at every decision), as
``bench/expert_ablate.py --variant search_pick=1,pick_bonus=B`` does in a match.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from sheepshead import bots
from sheepshead.actions import Alone
from sheepshead.bots import bigsearch
from sheepshead.bots.arena import bot_policy, deal_seed
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import PRESETS, NobodyPicks, Rules

PRESET_NAMES = (
    "standard",
    "three-handed",
    "four-handed",
    "four-handed-called-ace",
    "six-handed",
    "jack-of-diamonds",
)


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def auction(rules: Rules, index: int, deal_set: str, level: str, version: str) -> Game:
    """Deal ``index`` with the auction played by ``level`` in every seat, up to the
    first card (the bury and the call included, for the rate of picks gone alone)."""
    policy = bot_policy(bots.make_bot(level, version))
    game = Game.deal(rules, index % rules.players, deal_seed(deal_set, index))
    while game.phase is not Phase.PLAYING and not game.is_done:
        game = game.apply(policy(game))
    return game


def rates(
    rules: Rules, deals: int, first: int, deal_set: str, level: str, version: str
) -> dict[str, Any]:
    n = rules.players
    leasters = alone = picks = 0
    by_position = [0] * n
    for index in range(first, first + deals):
        game = auction(rules, index, deal_set, level, version)
        if game.picker is None:
            leasters += game.is_leaster
            continue
        picks += 1
        alone += any(isinstance(m.action, Alone) for m in game.moves)
        position = (game.picker - (index % n) - 1) % n  # 0 speaks first, the dealer last
        by_position[position] += 1
    low, high = wilson(leasters, deals)
    return {
        "preset": next((k for k, v in PRESETS.items() if v == rules), None),
        "level": level,
        "version": version,
        "deal_set": deal_set,
        "deals": deals,
        "first": first,
        "leaster_rate": round(leasters / deals, 4),
        "leaster_ci95": [round(low, 4), round(high, 4)],
        "nobody_picks": rules.nobody_picks.value,
        "pick_rate_by_position": [round(c / deals, 4) for c in by_position],
        "alone_of_picks": round(alone / picks, 4) if picks else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--deal-seed", default="issue3-eval")
    parser.add_argument("--levels", nargs="+", default=["standard", "expert"], choices=bots.LEVELS)
    parser.add_argument("--presets", nargs="+", default=list(PRESET_NAMES), choices=sorted(PRESETS))
    parser.add_argument("--version", default=bots.VERSION, help="the bots' version (default: live)")
    parser.add_argument(
        "--pick-bonus",
        type=float,
        default=None,
        help="the live expert searches its pick with this bonus at these presets",
    )
    args = parser.parse_args()
    if args.pick_bonus is not None and args.version != bots.VERSION:
        parser.error("--pick-bonus changes the live expert only: leave --version out")
    for name in args.presets:
        rules = PRESETS[name]
        if args.pick_bonus is not None:
            bigsearch.PICK_BONUS[f"{rules.players}/{rules.partner.value}"] = args.pick_bonus
        if rules.nobody_picks is not NobodyPicks.LEASTER:
            print(
                f"# {name}: nobody_picks is {rules.nobody_picks.value}, not a leaster",
                file=sys.stderr,
            )
        for level in args.levels:
            row = rates(rules, args.deals, args.first, args.deal_seed, level, args.version)
            row["preset"] = name
            if args.pick_bonus is not None:
                row["pick_bonus"] = args.pick_bonus
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
