"""Tune the standard level's pick thresholds for a table other than 5-handed standard.

Two commands:

``leasters PRESET --shift D [D ...]``
    How often every seat passes at a table of standard bots whose pick thresholds for
    the preset's table are all moved by ``D``. A seat picks on its dealt cards alone
    (``hand_strength`` against its position's threshold), so this needs no play: it
    deals the arena's deals and checks each seat in turn, as the picking goes.

    ``--by-crackers``: each seat's threshold moved by ``D`` times the share of the other
    seats after it up to the dealer (who could crack its pick; the dealer none), as the
    expert's pick moves at a table with cracking (``bigsearch.crack_pick_shift``).

``arena PRESET --shift D``
    The duplicate arena (``sheepshead.bots.arena``): the standard bot with the moved
    thresholds as the candidate, the current standard bot as the baseline, over the
    same deals; then a table with the candidate in every seat, for the new rates
    (leasters, picks, the picker's side's wins). Prints JSON.

Run it with ``nice -n 19 .venv/bin/python bench/tune_tables.py ...`` (docs/bots.md,
"Tuning log").
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import Any

from sheepshead.bots.arena import (
    Tally,
    bot_policy,
    deal_seed,
    play_hand,
    run,
    summarize,
    tally_summary,
)
from sheepshead.bots.rulebot import STYLES, RuleBot, hand_strength
from sheepshead.bots.style import Style
from sheepshead.game import Game
from sheepshead.rules import PRESETS, Rules


def table_key(rules: Rules) -> str:
    return f"{rules.players}/{rules.partner.value}"


def moved(thresholds: tuple[float, ...], shift: float, dealer: float) -> tuple[float, ...]:
    """Every threshold moved by ``shift``, the dealer's (the last) by ``dealer`` more."""
    out = [round(t + shift, 3) for t in thresholds]
    out[-1] = round(out[-1] + dealer, 3)
    return tuple(out)


def shifted(style: Style, key: str, shift: float, dealer: float = 0.0) -> Style:
    """The style with the thresholds of table ``key`` moved (``moved``)."""
    pick = tuple((k, moved(ts, shift, dealer) if k == key else ts) for k, ts in style.pick)
    return replace(style, pick=pick)


def leaster_rate(rules: Rules, thresholds: tuple[float, ...], deals: int, deal_set: str) -> float:
    n = rules.players
    passes = 0
    for i in range(deals):
        dealer = i % n
        game = Game.deal(rules, dealer, deal_seed(deal_set, i))
        everyone = True
        for position in range(n):
            seat = (dealer + 1 + position) % n
            cards = game.view(seat).cards
            if hand_strength(cards) >= thresholds[position]:
                everyone = False
                break
        passes += everyone
    return passes / deals


def cmd_leasters(args: argparse.Namespace) -> dict[str, Any]:
    rules = PRESETS[args.preset]
    key = table_key(rules)
    base = STYLES["standard"].pick_table(key)
    out = {}
    for shift in args.shift:
        thresholds = moved(base, shift, args.dealer)
        if args.by_crackers:  # as the expert's pick at a cracking table moves
            last = len(base) - 1
            thresholds = tuple(round(t + shift * (last - p) / last, 3) for p, t in enumerate(base))
        out[f"{shift:+.2f}"] = leaster_rate(rules, thresholds, args.deals, args.deal_set)
    return {
        "preset": args.preset,
        "table": key,
        "thresholds": base,
        "dealer": args.dealer,
        "leaster_rate": out,
    }


def cmd_arena(args: argparse.Namespace) -> dict[str, Any]:
    rules = PRESETS[args.preset]
    key = table_key(rules)
    current = RuleBot("standard")
    style = shifted(current.style, key, args.shift, args.dealer)
    candidate = RuleBot("standard", style)
    cand_policy = bot_policy(candidate, args.seed)
    base_policy = bot_policy(current, args.seed)
    outcomes = run(rules, cand_policy, base_policy, args.deals, args.deal_set, first=args.first)
    report = summarize(outcomes, rules, "candidate", "standard", args.deal_set)
    # The new table: candidates in every seat, same deals.
    new_table = Tally()
    n = rules.players
    for i in range(args.first, args.first + args.deals):
        play_hand(rules, i % n, deal_seed(args.deal_set, i), [cand_policy] * n, [new_table] * n)
    keep = ("pick_rate", "alone_rate", "picker_win_rate", "leaster_rate", "free_point_rate")
    return {
        "preset": args.preset,
        "table": key,
        "shift": args.shift,
        "dealer": args.dealer,
        "thresholds": style.pick_table(key),
        "deal_set": args.deal_set,
        "deals": args.deals,
        "edge": report["edge"]["mean"],
        "ci95": report["edge"]["ci95"],
        "by_role": {r: v["mean_edge"] for r, v in report["by_role"].items()},
        "current_table": {k: report["baseline_stats"][k] for k in keep},
        "new_table": {k: tally_summary(new_table)[k] for k in keep},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("leasters", "arena"):
        p = sub.add_parser(name)
        # The leaster rate of 5-handed standard too: what moving the expert's pick at a
        # cracking table (``bigsearch.crack_pick_shift``) does to it.
        presets = list(PRESETS) if name == "leasters" else [k for k in PRESETS if k != "standard"]
        p.add_argument("preset", choices=presets)
        p.add_argument("--deals", type=int, default=2000)
        p.add_argument("--deal-set", default="tune")
        p.add_argument("--dealer", type=float, default=0.0, help="the dealer's extra shift")
        if name == "leasters":
            p.add_argument("--shift", type=float, nargs="+", default=[0.0])
            p.add_argument(
                "--by-crackers",
                action="store_true",
                help="each seat's shift in proportion to the seats after it (cracking)",
            )
        else:
            p.add_argument("--shift", type=float, required=True)
            p.add_argument("--first", type=int, default=0)
            p.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    result = cmd_leasters(args) if args.command == "leasters" else cmd_arena(args)
    json.dump(result, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
