"""Sums up ``bench/coach.py order`` (its JSON lines): per player, the coach's mean loss
per unforced decision with 95% intervals, and the seat's game points against the
standard level's on the same deal and seat (the arena's measure).

    .venv/bin/python bench/coach_order.py coach-order*.jsonl
    .venv/bin/python bench/coach_order.py bench/results/coach-order-v4.csv.gz o0.jsonl o1.jsonl
    .venv/bin/python bench/coach_order.py o0.jsonl o1.jsonl --below 9000 --save kept.csv.gz

Each player counts the hands it finished (players' runs may be extended apart with
``--players``; the arena's measure pairs a player's hands with the standard level's on
the same deals); a decision written twice (a resumed run) counts once. Two intervals
per mean: the normal one over decisions, as if each were independent, and one over
hands (a ratio estimator with the hand as the unit: a hand's decisions share its cards).

The run is deterministic but long (hours of CPU), so what one machine has done is kept
as per-hand sums (``--save``: one CSV line per player and hand, gzipped, about 15 bytes
a hand), which a later run's JSON lines extend; both kinds of file may be given
together. ``--below H`` keeps hands under ``H`` only: a run stopped by a signal may
have written part of its last hand, so save below the first hand any shard left
unfinished.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PLAYERS = ("beginner", "standard 30% random", "standard 10% random", "standard", "expert")
Row = dict[str, Any]

#: The decisions each figure counts: every unforced one (the issue's), and the card
#: plays among them whose options differ in value (what the noisy players change).
KINDS: dict[str, Callable[[Row], bool]] = {
    "unforced decisions": lambda r: not r["forced"],
    "unforced card plays, options of different values": lambda r: (
        r["card"] and not r["forced"] and not r["tied"]
    ),
}
#: The columns of a saved file, per kind: decisions, sum of losses, sum of squares.
COLUMNS = ["player", "hand", "score"] + [
    f"{k}_{stat}" for k in ("all", "cards") for stat in ("n", "sum", "sumsq")
]


@dataclass
class Hand:
    """One player's hand: its game points, and per kind its losses' count, sum and
    sum of squares (all a summary needs)."""

    score: float
    sums: list[list[float]] = field(default_factory=lambda: [[0, 0.0, 0.0] for _ in KINDS])


def _from_rows(rows: dict[tuple[str, int, int | None], Row]) -> dict[tuple[str, int], Hand]:
    hands: dict[tuple[str, int], Hand] = {}
    for (player, hand, index), row in rows.items():
        h = hands.setdefault((player, hand), Hand(row["score"]))
        if index is None:
            continue
        for k, wanted in enumerate(KINDS.values()):
            if wanted(row):
                s = h.sums[k]
                s[0] += 1
                s[1] += row["loss"]
                s[2] += row["loss"] ** 2
    return hands


def load(paths: list[str], below: int | None = None) -> dict[tuple[str, int], Hand]:
    rows: dict[tuple[str, int, int | None], Row] = {}
    saved: dict[tuple[str, int], Hand] = {}
    for path in paths:
        if path.endswith(".csv.gz"):
            with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
                for rec in csv.DictReader(f):
                    sums = [
                        [int(rec[f"{k}_n"]), float(rec[f"{k}_sum"]), float(rec[f"{k}_sumsq"])]
                        for k in ("all", "cards")
                    ]
                    saved[(rec["player"], int(rec["hand"]))] = Hand(float(rec["score"]), sums)
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                rows[(row["player"], row["hand"], row["index"])] = row
    hands = {**saved, **_from_rows(rows)}
    if below is not None:
        hands = {key: h for key, h in hands.items() if key[1] < below}
    return hands


def save(hands: dict[tuple[str, int], Hand], path: str) -> None:
    with gzip.open(path, "wt", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(COLUMNS)
        for (player, hand), h in sorted(hands.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            cells: list[object] = [player, hand, round(h.score, 4)]
            for n, total, squares in h.sums:
                cells += [n, round(total, 4), round(squares, 6)]
            out.writerow(cells)


def _intervals(per_hand: list[list[float]]) -> dict[str, Any]:
    """``per_hand``: each hand's [count, sum, sum of squares], hands with a decision."""
    n = sum(c for c, _, _ in per_hand)
    total = sum(s for _, s, _ in per_hand)
    squares = sum(q for _, _, q in per_hand)
    mean = total / n
    half = 1.96 * math.sqrt(max(0.0, squares - n * mean * mean) / (n - 1)) / math.sqrt(n)
    # Hands as the unit: mean = sum of losses / count; its variance by the delta method.
    h = len(per_hand)
    avg_count = n / h
    resid = [(s - mean * c) / avg_count for c, s, _ in per_hand]
    half_h = 1.96 * math.sqrt(sum(e * e for e in resid) / (h * (h - 1)))
    return {
        "decisions": n,
        "mean_loss": round(mean, 4),
        "ci95": [round(mean - half, 4), round(mean + half, 4)],
        "ci95_hands": [round(mean - half_h, 4), round(mean + half_h, 4)],
    }


def summarize(hands: dict[tuple[str, int], Hand]) -> dict[str, Any]:
    by_player = {p: {hand for (q, hand) in hands if q == p} for p in PLAYERS}
    # A player with no hands yet (a run still going) is left out.
    present = [p for p in PLAYERS if by_player[p]]
    out: dict[str, Any] = {"hands": {p: len(by_player[p]) for p in present}}
    for k, kind in enumerate(KINDS):
        table = {}
        for player in present:
            per_hand = [hands[(player, i)].sums[k] for i in sorted(by_player[player])]
            table[player] = _intervals([s for s in per_hand if s[0]])
        out[kind] = table
    edges = {}
    for player in present:
        d = [
            hands[(player, i)].score - hands[("standard", i)].score
            for i in sorted(by_player[player] & by_player.get("standard", set()))
        ]
        if not d:  # no standard-level hands in these files: no edge to give
            continue
        mean = statistics.fmean(d)
        half = 1.96 * statistics.pstdev(d) / math.sqrt(len(d))
        edges[player] = {
            "edge": round(mean, 4),
            "ci95": [round(mean - half, 4), round(mean + half, 4)],
        }
    out["game points against the standard level, same deal and seat"] = edges
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="JSON lines of coach.py order, or saved .csv.gz")
    parser.add_argument("--below", type=int, help="keep hands under this index only")
    parser.add_argument("--save", help="write the kept hands' sums to this .csv.gz")
    args = parser.parse_args()
    hands = load(args.files, args.below)
    if args.save:
        save(hands, args.save)
    print(json.dumps(summarize(hands), indent=1))


if __name__ == "__main__":
    main()
