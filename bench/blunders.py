"""The four blunder figures and the leaster rate at every table (issue 16).

    nice -n 19 .venv/bin/python bench/blunders.py --level standard --deals 300
    nice -n 19 .venv/bin/python bench/blunders.py --level expert --deals 40 --presets standard
    nice -n 19 .venv/bin/python bench/blunders.py --level expert --baseline standard --deals 100

A table of one level at each preset and with cracking on (the level in every seat:
the arena's candidate and baseline are the same bot); the figures are those of
``arena.tally_summary`` over all the hands: defender trump leads while holding fail
(of such leads; bar under 5%), points given to a known opponent (of plays; under
0.5%), missed schmears (of chances; under 5%), wasted point cards (of plays; under
1%), and the leaster rate (3% to 15% wanted). With ``--baseline``, the level sits
in each seat in turn among baseline players (the arena's duplicate match) and the row
has its edge with a 95% bootstrap interval, and its own figures over its hands.
"""

from __future__ import annotations

import argparse
import json

from sheepshead.bots import make_bot
from sheepshead.bots.arena import Tally, bot_policy, run, summarize, tally_summary
from sheepshead.rules import PRESETS, Rules

#: Every preset, and the 5-handed table with cracking on.
TABLES: dict[str, Rules] = {**PRESETS, "cracking": PRESETS["standard"].replace(cracking=True)}

BARS = {
    "defender_trump_lead_rate": 0.05,
    "free_point_rate": 0.005,
    "missed_schmear_rate": 0.05,
    "wasted_point_rate": 0.01,
}


def table(
    level: str, preset: str, deals: int, deal_set: str, baseline: str | None = None
) -> dict[str, object]:
    policy = bot_policy(make_bot(level))
    if baseline is not None:
        # The level in each seat in turn among baseline players: its edge, and its own
        # figures (the candidate's hands only).
        rules = TABLES[preset]
        outcomes = run(rules, policy, bot_policy(make_bot(baseline)), deals, deal_set)
        report = summarize(outcomes, rules, level, baseline, deal_set)
        stats = report["candidate_stats"]
        stats.pop("roles")
        edge = report["edge"]
        return {
            "level": level,
            "baseline": baseline,
            "preset": preset,
            "deals": deals,
            "edge": edge["mean"],
            "ci95": edge["ci95"],
            **stats,
        }
    outcomes = run(TABLES[preset], policy, policy, deals, deal_set)
    tally = Tally()
    for o in outcomes:
        tally.merge(o.candidate_tally)
        tally.merge(o.baseline_tally)
    summary = tally_summary(tally)
    summary.pop("roles")
    return {"level": level, "preset": preset, "deals": deals, **summary}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="standard")
    parser.add_argument("--baseline", help="seat the level among these players instead")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--deal-set", default="issue3-eval")
    parser.add_argument("--presets", nargs="*", default=sorted(TABLES))
    args = parser.parse_args()
    for preset in args.presets:
        row = table(args.level, preset, args.deals, args.deal_set, args.baseline)
        fails = [k for k, bar in BARS.items() if (row[k] or 0.0) >= bar]  # type: ignore[operator]
        row["over_bar"] = fails
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
