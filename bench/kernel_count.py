"""Valgrind instruction counts per hand: this checkout against commit 5b08ee7.

    .venv/bin/python bench/kernel_count.py [--hands 200]

Runs ``bench/kernel_speed.py``'s engine loop (the same deals and random choices, after
its 300-hand warm-up) under ``valgrind --tool=callgrind`` for ``--hands`` hands and
for none, for both versions (5b08ee7's ``src`` put in a temporary directory by ``git
archive``), and prints the difference divided by the hands: instructions per hand,
which do not depend on the machine's load. ``PYTHONHASHSEED=0``: the hash seed moves
the counts by about 1%.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from kernel_speed import BASE, LOOP, ROOT


def count(src: Path, hands: int, out: Path) -> int:
    """The instructions callgrind collects for the loop over ``hands`` hands."""
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable]
    done = subprocess.run(
        [*command, "-c", LOOP, str(hands), "0"],
        env={**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit("callgrind printed no count")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", BASE, "src"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        per_hand = {}
        for name, src in ((BASE, Path(tmp) / "src"), ("now", ROOT / "src")):
            out = Path(tmp) / "callgrind.out"
            per_hand[name] = (count(src, args.hands, out) - count(src, 0, out)) // args.hands
            print(f"{name}: {per_hand[name]:,} instructions per hand")
    print(f"ratio: {per_hand[BASE] / per_hand['now']:.2f} ({args.hands} hands)")


if __name__ == "__main__":
    main()
