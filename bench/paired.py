"""Pair two variants of ``expert_ablate.py --per-deal`` deal by deal (issue 16).

    .venv/bin/python bench/paired.py --base "" --against risky_fail=0 runs/*.json

Reads the JSON lines that ``expert_ablate.py --per-deal`` prints (any number of files,
chunks of deals in any order), keys each deal's edge by its variant, deal set and
number, and prints, for the deals both variants played, the mean of the differences
(``--against`` minus ``--base``) with its bootstrap 95% interval, the number of deals
played differently, and each variant's own edge over the same deals. ``--base ""`` is
the live code (printed as ``live``).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from sheepshead.bots.arena import bootstrap_ci


def load(paths: list[Path]) -> dict[str, dict[tuple[str, int], float]]:
    """Each variant's edges by (deal set, deal number)."""
    edges: dict[str, dict[tuple[str, int], float]] = defaultdict(dict)
    for path in paths:
        for line in path.read_text().splitlines():
            if not line.startswith("{"):
                continue
            row = json.loads(line)
            if "per_deal" not in row:
                continue
            for i, edge in enumerate(row["per_deal"]):
                edges[row["variant"]][(row["deal_set"], row["first"] + i)] = edge
    return edges


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="", help="the variant to pair against (live)")
    parser.add_argument("--against", required=True, help="the variant paired")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    edges = load(args.files)
    base, other = edges[args.base or "live"], edges[args.against or "live"]
    for deal_set in sorted({key[0] for key in base}):
        keys = sorted(k for k in base if k[0] == deal_set and k in other)
        if not keys:
            continue
        diffs = [other[k] - base[k] for k in keys]
        lo, hi = bootstrap_ci(diffs)
        moved = sum(1 for d in diffs if abs(d) > 1e-9)
        mean = sum(diffs) / len(diffs)
        own = sum(other[k] for k in keys) / len(keys)
        theirs = sum(base[k] for k in keys) / len(keys)
        print(
            f"{deal_set} {keys[0][1]}-{keys[-1][1]} ({len(keys)} deals): "
            f"{args.against or 'live'} - {args.base or 'live'} {mean:+.3f} [{lo:+.3f}, {hi:+.3f}], "
            f"{moved} played differently; edges {own:+.3f} and {theirs:+.3f}"
        )


if __name__ == "__main__":
    main()
