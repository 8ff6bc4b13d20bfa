"""The friends' tables' leak scan, long: hundreds of hands at tables of 3 to 6 seats with
2 to 5 people, every message every seat is sent searched for a card it may not see
(``tests/server/friends_scan.py`` says how; the suite plays 60 hands of it).

    .venv/bin/python bench/friends_leaks.py --hands 300

Exit status: 0 when no leak was found.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from server.friends_scan import play
from sheepshead.server import Settings, create_app

TABLES = [(3, 2), (4, 2), (4, 3), (5, 2), (5, 3), (5, 4), (5, 5), (6, 2), (6, 4), (6, 5)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=300, help="hands in all (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    per_table = max(1, args.hands // len(TABLES))
    hands = messages = 0
    leaks: list[str] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as data:
        app = create_app(Settings(data_dir=Path(data), rate_joins=None))
        try:
            for players, humans in TABLES:
                scan = play(app, players, humans, per_table, rng)
                hands, messages = hands + scan.hands, messages + scan.messages
                leaks += scan.leaks
                sys.stdout.write(f"{players} seats, {humans} people: {scan.hands} hands\n")
        finally:
            app.state.engine.dispose()
    seconds = time.perf_counter() - started
    sys.stdout.write(f"{hands} hands, {messages} messages, {len(leaks)} leaks, {seconds:.0f} s\n")
    for leak in leaks[:20]:
        sys.stdout.write(f"  {leak}\n")
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())
