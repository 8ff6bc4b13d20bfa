"""Benchmark: this checkout against commit 5b08ee7 (before the rules kernel), side by side.

    .venv/bin/python bench/kernel_speed.py [--hands 5000] [--pairs 5] [--checks 20] [--core 1]

Puts 5b08ee7's ``src`` in a temporary directory with ``git archive`` and times both
on one core (``taskset -c CORE``), interleaved (old, new, old, new, ...), so that the
machine's load falls on both alike:

- engine: random legal 5-handed ``standard`` hands through the public API
  (``Game.deal``, ``legal_actions``, ``apply``, ``is_done``, ``result``), timed inside
  a fresh process after a warm-up; the figure is the median of the pairs' ratios
  (old time / new time: above 1 means faster now);
- check: one ``sheepshead check`` process on a golden record, from start to exit; the
  figure is the median new time over the median old time (below 1 is faster).

Times are CPU time (the process's user and system time), not wall time: on a machine
shared with other work, wall time counts the waits for the core too. Both use the same
loop and the same random choices (``random.Random(seed)``).
Prints each run, then both ratios and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BASE = "5b08ee7"
ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "golden" / "called-ace.json"

# The loop both versions run: the same deals, the same random choices.
LOOP = """
import random, sys, time
from sheepshead.game import Game
from sheepshead.rules import Rules

def play(count, seed):
    pick = random.Random(seed).random
    rules = Rules()
    for number in range(count):
        game = Game.deal(rules, number % rules.players, number.to_bytes(4, "big"))
        while not game.is_done:
            legal = game.legal_actions()
            game = game.apply(legal[int(pick() * len(legal))])
        assert sum(game.result().scores) == 0

play(300, -1)
start = time.process_time()
play(int(sys.argv[1]), int(sys.argv[2]))
print(time.process_time() - start)
"""


def run_engine(src: Path, core: int, hands: int, seed: int) -> float:
    out = subprocess.run(
        ["taskset", "-c", str(core), sys.executable, "-c", LOOP, str(hands), str(seed)],
        env={**os.environ, "PYTHONPATH": str(src)},
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip())


def run_check(src: Path, core: int) -> float:
    """The CPU time (user and system) of one ``sheepshead check`` process."""
    command = ["taskset", "-c", str(core), sys.executable, "-m", "sheepshead.cli", "check"]
    process = subprocess.Popen(
        [*command, str(RECORD)],
        env={**os.environ, "PYTHONPATH": str(src)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"sheepshead check failed under {src}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per engine run")
    parser.add_argument("--pairs", type=int, default=5, help="interleaved engine pairs")
    parser.add_argument("--checks", type=int, default=20, help="check processes of each")
    parser.add_argument("--core", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", BASE, "src"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        old, new = Path(tmp) / "src", ROOT / "src"
        ratios = []
        for pair in range(args.pairs):
            t_old = run_engine(old, args.core, args.hands, pair)
            t_new = run_engine(new, args.core, args.hands, pair)
            ratios.append(t_old / t_new)
            print(
                f"engine pair {pair + 1}: {BASE} {t_old:.3f} s, now {t_new:.3f} s "
                f"({args.hands} hands): {t_old / t_new:.2f}x"
            )
        checks_old, checks_new = [], []
        for _ in range(args.checks):
            checks_old.append(run_check(old, args.core))
            checks_new.append(run_check(new, args.core))
    load = os.getloadavg()
    if ratios:
        print(
            f"engine: {statistics.median(ratios):.2f} times as fast as {BASE} (median of "
            f"{args.pairs} pairs of {args.hands}-hand runs)"
        )
    if checks_old:
        m_old, m_new = statistics.median(checks_old), statistics.median(checks_new)
        print(
            f"check: median {BASE} {m_old * 1000:.1f} ms, now {m_new * 1000:.1f} ms: "
            f"{m_new / m_old:.2f} times {BASE}'s time (median of {args.checks} each)"
        )
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
