"""Benchmark: random legal play of complete 5-handed standard hands through the public
engine API (Game.deal, legal_actions, apply, result), on one core.

    .venv/bin/python bench/engine.py [--hands N] [--runs R]

Prints hands per second for each run and the best. Issue 2 asks for at least 5,000.
Random choices come from ``random.Random`` (fine here: the benchmark is not the engine).
"""

from __future__ import annotations

import argparse
import os
import random
import time

from sheepshead.game import Game
from sheepshead.rules import Rules


def play_hands(count: int, rng: random.Random, rules: Rules) -> int:
    """Deal and play ``count`` hands to their score; returns the number of moves made."""
    moves = 0
    for number in range(count):
        game = Game.deal(rules, number % rules.players, number.to_bytes(4, "big"))
        while not game.is_done:
            legal = game.legal_actions()
            game = game.apply(legal[rng.randrange(len(legal))])
            moves += 1
        result = game.result()
        assert result is not None
        assert sum(result.scores) == 0
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    rules = Rules()
    play_hands(200, random.Random(0), rules)  # warm up
    best = 0.0
    for run in range(args.runs):
        start = time.perf_counter()
        moves = play_hands(args.hands, random.Random(run), rules)
        elapsed = time.perf_counter() - start
        rate = args.hands / elapsed
        best = max(best, rate)
        print(
            f"run {run + 1}: {args.hands} hands, {moves} moves in {elapsed:.3f} s: "
            f"{rate:,.0f} hands/s"
        )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"best: {best:,.0f} hands/s (5-handed standard, random legal play; load {load:.2f})")


if __name__ == "__main__":
    main()
