"""Benchmark: the rule-based levels over random positions of every rule set, on one core.

    .venv/bin/python bench/bots.py [--positions N] [--levels beginner,standard] [--seed S]

Positions come from hands dealt from seeds ``bench-bots/<seed>/<i>`` under every preset
and option (leaster blinds, doubler, forced pick, cracking), played to the end by a mix
of the standard bot and random legal moves, so that odd positions turn up as well as
sensible ones. At each position every level is asked, through ``propose`` (the rules'
own choice, without the safety net of ``choose``); the benchmark fails on the first
illegal proposal. Timed: ``decide`` as a table calls it (seeding the generator from the
view's canonical text, then choosing), after the view is built; the view's own cost is
timed apart. Prints the counts and the per-decision milliseconds (median, p99, max).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from sheepshead.bots import decide, seed_rng
from sheepshead.bots.rulebot import RuleBot
from sheepshead.game import Game
from sheepshead.rules import PRESETS, Rules


def rule_sets() -> list[Rules]:
    sets = list(PRESETS.values())
    sets += [
        Rules(leaster_blind="named-trick"),  # type: ignore[arg-type]
        Rules(leaster_blind="aside", leaster_needs_trick=False),  # type: ignore[arg-type]
        Rules(nobody_picks="doubler"),  # type: ignore[arg-type]
        Rules(nobody_picks="forced-pick", forced_pick_bump=False),  # type: ignore[arg-type]
        Rules(cracking=True),
        Rules(call_unknown=False, call_ten=False, alone=False),
        Rules(players=6, second_partner=True),
        Rules(partner="jack-of-diamonds", jd_picker_holds="call-jack-of-hearts"),  # type: ignore[arg-type]
    ]
    return sets


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1_000_000)
    parser.add_argument("--levels", default="beginner,standard")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    levels = args.levels.split(",")
    bots = {level: RuleBot(level) for level in levels}
    sets = rule_sets()
    mixer = random.Random(args.seed)  # chooses the random moves; not part of any bot
    times: dict[str, list[float]] = {level: [] for level in levels}
    view_ms: list[float] = []
    positions = hands = 0
    started = time.perf_counter()
    while positions < args.positions:
        rules = sets[hands % len(sets)]
        game = Game.deal(rules, hands % rules.players, f"bench-bots/{args.seed}/{hands}".encode())
        hands += 1
        while not game.is_done and positions < args.positions:
            seat = game.turn
            assert seat is not None
            t0 = time.perf_counter()
            view = game.view(seat)
            view_ms.append((time.perf_counter() - t0) * 1000)
            positions += 1
            chosen = None
            for level in levels:
                proposal = bots[level].propose(view, seed_rng(level, view))
                if proposal not in view.legal:
                    print(f"ILLEGAL: {level} proposed {proposal} at {view.moves}", file=sys.stderr)
                    return 1
                t0 = time.perf_counter()
                action = decide(level, view)
                times[level].append((time.perf_counter() - t0) * 1000)
                if level == "standard":
                    chosen = action
            if chosen is None or mixer.random() < 0.3:
                chosen = mixer.choice(view.legal)
            game = game.apply(chosen)
        if hands % 2000 == 0:
            print(f"{positions} positions, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    report = {
        "positions": positions,
        "hands": hands,
        "rule_sets": len(sets),
        "illegal": 0,
        "seconds": round(time.perf_counter() - started, 1),
        "view_ms": {
            "median": round(percentile(view_ms, 0.5), 4),
            "p99": round(percentile(view_ms, 0.99), 4),
        },
        "decide_ms": {
            level: {
                "median": round(percentile(ts, 0.5), 4),
                "p99": round(percentile(ts, 0.99), 4),
                "max": round(max(ts), 3),
            }
            for level, ts in times.items()
        },
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
