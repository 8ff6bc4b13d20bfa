"""The four blunder figures and the leaster rate at every table (issue 16).

    nice -n 19 .venv/bin/python bench/blunders.py --level standard --deals 300
    nice -n 19 .venv/bin/python bench/blunders.py --level expert --deals 40 --presets standard

A table of one level at each preset and with cracking on (the level in every seat:
the arena's candidate and baseline are the same bot); the figures are those of
``arena.tally_summary`` over all the hands: defender trump leads while holding fail
(of such leads; bar under 5%), points given to a known opponent (of plays; under
0.5%), missed schmears (of chances; under 5%), wasted point cards (of plays; under
1%), and the leaster rate (3% to 15% wanted).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

from sheepshead.bots import make_bot
from sheepshead.bots.arena import Tally, bot_policy, run, tally_summary
from sheepshead.rules import PRESETS, Rules

#: Every preset, and the 5-handed table with cracking on.
TABLES: dict[str, Rules] = {**PRESETS, "cracking": replace(PRESETS["standard"], cracking=True)}

BARS = {
    "defender_trump_lead_rate": 0.05,
    "free_point_rate": 0.005,
    "missed_schmear_rate": 0.05,
    "wasted_point_rate": 0.01,
}


def table(level: str, preset: str, deals: int, deal_set: str) -> dict[str, object]:
    policy = bot_policy(make_bot(level))
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
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--deal-set", default="issue3-eval")
    parser.add_argument("--presets", nargs="*", default=sorted(TABLES))
    args = parser.parse_args()
    for preset in args.presets:
        row = table(args.level, preset, args.deals, args.deal_set)
        fails = [k for k, bar in BARS.items() if (row[k] or 0.0) >= bar]  # type: ignore[operator]
        row["over_bar"] = fails
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
