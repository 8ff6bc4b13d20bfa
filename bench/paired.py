"""Pair two variants of ``expert_ablate.py --per-deal`` deal by deal (issue 16).

    .venv/bin/python bench/paired.py --base "" --against risky_fail=0 runs/*.json

Reads the JSON lines that ``expert_ablate.py --per-deal`` prints (any number of files,
chunks of deals in any order), keys each deal's edge by its variant, deal set and
number, and prints, for the deals both variants played, the mean of the differences
(``--against`` minus ``--base``) with its bootstrap 95% interval, the number of deals
played differently, and each variant's own edge over the same deals with its interval;
with more than one deal set, the sets pooled too. ``--base ""`` is
the live code (printed as ``live``).

``--by-cracks`` (a table with cracking on) splits each line by what the deal's auction
came to among version 1's experts, which is the auction in every seat of the match
since the expert's auction is version 1's: no pick (a leaster), a pick nobody
cracked, a cracked pick:

    .venv/bin/python bench/paired.py --by-cracks --base "" --against budget=24000 runs/*.json
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from sheepshead import bots
from sheepshead.bots.arena import bootstrap_ci, deal_seed
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import PRESETS, Rules

Deal = tuple[str, int]


def load(paths: list[Path]) -> tuple[dict[str, dict[Deal, float]], dict[Deal, Rules]]:
    """Each variant's edges by (deal set, deal number), and each deal's table."""
    edges: dict[str, dict[Deal, float]] = defaultdict(dict)
    tables: dict[Deal, Rules] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            if not line.startswith("{"):
                continue
            row = json.loads(line)
            if "per_deal" not in row:
                continue
            rules = PRESETS[row["preset"]].replace(**row.get("rules", {}))
            for i, edge in enumerate(row["per_deal"]):
                edges[row["variant"]][(row["deal_set"], row["first"] + i)] = edge
                tables[(row["deal_set"], row["first"] + i)] = rules
    return edges, tables


def auction_of(key: Deal, rules: Rules) -> str:
    """What deal ``key``'s auction came to among version 1's experts at ``rules``."""
    deal_set, index = key
    game = Game.deal(rules, index % rules.players, deal_seed(deal_set, index))
    while not game.is_done and game.phase is not Phase.PLAYING:
        assert game.turn is not None
        game = game.apply(bots.decide("expert", game.view(game.turn), 0, "1"))
    if game.picker is None:
        return "no pick"
    return "cracked" if game.cracks else "not cracked"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="", help="the variant to pair against (live)")
    parser.add_argument("--against", required=True, help="the variant paired")
    parser.add_argument(
        "--by-cracks", action="store_true", help="each line split by the deal's auction too"
    )
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    edges, tables = load(args.files)
    base, other = edges[args.base or "live"], edges[args.against or "live"]
    sets = sorted({key[0] for key in base})
    groups = [(s, sorted(k for k in base if k[0] == s and k in other)) for s in sets]
    groups = [(s, keys) for s, keys in groups if keys]
    if len(groups) > 1:  # the deal sets together, as a version is adopted on them
        groups.append(("pooled", sorted(k for _, keys in groups for k in keys)))
    if args.by_cracks:
        came = {k: auction_of(k, tables[k]) for _, keys in groups for k in keys}
        groups = [
            (f"{name}, {kind}", [k for k in keys if came[k] == kind])
            for name, keys in groups
            for kind in ("no pick", "not cracked", "cracked")
        ]
    for deal_set, keys in groups:
        diffs = [other[k] - base[k] for k in keys]
        moved = sum(1 for d in diffs if abs(d) > 1e-9)
        own = [other[k] for k in keys]
        theirs = [base[k] for k in keys]
        span = f"{keys[0][1]}-{keys[-1][1]} " if not deal_set.startswith("pooled") else ""
        print(
            f"{deal_set} {span}({len(keys)} deals): "
            f"{args.against or 'live'} - {args.base or 'live'} {_edge(diffs)}, "
            f"{moved} played differently; edges {_edge(own)} and {_edge(theirs)}"
        )


def _edge(edges: list[float]) -> str:
    """The mean of per-deal edges (or differences), with its bootstrap 95% interval."""
    lo, hi = bootstrap_ci(edges)
    return f"{sum(edges) / len(edges):+.3f} [{lo:+.3f}, {hi:+.3f}]"


if __name__ == "__main__":
    main()
