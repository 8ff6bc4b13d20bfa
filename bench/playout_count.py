"""Valgrind instruction counts of the playouts' two big users: this checkout against a
commit (by default c290c40, before the playout was made cheaper).

    .venv/bin/python bench/playout_count.py [--base c290c40] [--workloads coach,expert]

Workloads (the same positions for both versions, built by the standard level):

- ``coach``: ``coach.review(record, seat)`` of 5 hands of 5-handed ``standard``
  (the hands ``bench/coach.py`` times, seat = hand number mod 5);
- ``expert``: the expert's choice at 60 card decisions of 5-handed ``standard`` (the
  first 60 with more than one legal card in those hands and the next), each asked as
  ``bots.decide`` asks it.

Each runs under ``valgrind --tool=callgrind`` once with the work and once without
(the imports and the positions only), for both versions (the base's ``src`` put in
a temporary directory by ``git archive``); the difference is the work's instruction
count, which does not depend on the machine's load. ``PYTHONHASHSEED=0``, as
``bench/kernel_count.py`` (the hash seed moves counts by about 1%).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = "c290c40"

# Both versions run this: argv[1] the workload, argv[2] 1 to do the work, 0 to skip it.
LOOP = """
import sys
from sheepshead import bots, coach
from sheepshead.game import Phase
from sheepshead.bots import make_bot
from sheepshead.bots.arena import bot_policy, deal_seed, play_hand
from sheepshead.bots.expert import ExpertBot
from sheepshead.record import to_record
from sheepshead.rules import preset

rules = preset("standard")
std = bot_policy(make_bot("standard"))
views = []


def watch(game):
    view = game.view(game.turn)
    if view.phase is Phase.PLAYING and len(view.legal) > 1:
        views.append(view)
    return std(game)


games = [
    play_hand(rules, i % 5, deal_seed("coach-bench", i), [watch] * 5, [None] * 5)
    for i in range(10)
]
work, run = sys.argv[1], sys.argv[2] == "1"
if work == "coach":
    records = [to_record(game) for game in games[:5]]
    if run:
        for i, record in enumerate(records):
            coach.review(record, i % 5)
else:
    views = views[::3][:60]
    assert len(views) == 60
    if run:
        bot = ExpertBot()
        for view in views:
            bot.choose(view, bots.seed_rng("expert", view))
"""


def count(src: Path, work: str, run: bool, out: Path) -> int:
    """The instructions callgrind collects for one run of ``LOOP``."""
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable]
    done = subprocess.run(
        [*command, "-c", LOOP, work, "1" if run else "0"],
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
    parser.add_argument("--base", default=BASE)
    parser.add_argument("--workloads", default="coach,expert")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.base, "src"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        out = Path(tmp) / "callgrind.out"
        for work in args.workloads.split(","):
            counts = {}
            for name, src in ((args.base, Path(tmp) / "src"), ("now", ROOT / "src")):
                counts[name] = count(src, work, True, out) - count(src, work, False, out)
                print(f"{work} {name}: {counts[name]:,} instructions", flush=True)
            print(f"{work} ratio: {counts[args.base] / counts['now']:.3f}", flush=True)


if __name__ == "__main__":
    main()
