"""Sums up ``bench/coach.py order`` (its JSON lines): per player, the coach's mean loss
per unforced decision with 95% intervals, and the seat's game points against the
standard level's on the same deal and seat (the arena's measure).

    .venv/bin/python bench/coach_order.py coach-order*.jsonl

Each player counts the hands it finished (players' runs may be extended apart with
``--players``; the arena's measure pairs a player's hands with the standard level's on
the same deals); a decision written twice (a resumed run) counts once. Two intervals
per mean: the normal one over decisions, as if each were independent, and one over
hands (a ratio estimator with the hand as the unit: a hand's decisions share its cards).
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections.abc import Callable
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


def _load(paths: list[str]) -> tuple[list[Row], dict[str, set[int]]]:
    seen: dict[tuple[str, int, int | None], Row] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                seen[(row["player"], row["hand"], row["index"])] = row
    rows = list(seen.values())
    return rows, {p: {r["hand"] for r in rows if r["player"] == p} for p in PLAYERS}


def _intervals(by_hand: dict[int, list[float]]) -> dict[str, Any]:
    losses = [x for xs in by_hand.values() for x in xs]
    n = len(losses)
    mean = statistics.fmean(losses)
    half = 1.96 * statistics.stdev(losses) / math.sqrt(n)
    # Hands as the unit: mean = sum of losses / count; its variance by the delta method.
    sums = [(sum(xs), len(xs)) for xs in by_hand.values()]
    h = len(sums)
    avg_count = n / h
    resid = [(s - mean * c) / avg_count for s, c in sums]
    half_h = 1.96 * math.sqrt(sum(e * e for e in resid) / (h * (h - 1)))
    return {
        "decisions": n,
        "mean_loss": round(mean, 4),
        "ci95": [round(mean - half, 4), round(mean + half, 4)],
        "ci95_hands": [round(mean - half_h, 4), round(mean + half_h, 4)],
    }


def summarize(paths: list[str]) -> dict[str, Any]:
    rows, hands = _load(paths)
    # A player with no hands yet (a run still going) is left out.
    present = [p for p in PLAYERS if hands[p]]
    out: dict[str, Any] = {"hands": {p: len(hands[p]) for p in present}}
    for kind, wanted in KINDS.items():
        table = {}
        for player in present:
            by_hand: dict[int, list[float]] = {}
            mine = [r for r in rows if r["player"] == player]
            for r in mine:
                if r["index"] is not None and wanted(r):
                    by_hand.setdefault(r["hand"], []).append(r["loss"])
            table[player] = _intervals(by_hand)
        out[kind] = table
    score = {(r["player"], r["hand"]): r["score"] for r in rows}
    edges = {}
    for player in present:
        d = [
            score[(player, h)] - score[("standard", h)]
            for h in sorted(hands[player] & hands.get("standard", set()))
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
    print(json.dumps(summarize(sys.argv[1:]), indent=1))


if __name__ == "__main__":
    main()
