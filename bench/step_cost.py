"""What one step at a table costs PostgreSQL: the CPU of the database's backend, the
round trips and the rows written, for the write every action makes.

Plays ``--steps`` human actions of standard games through ``Tables`` (in process, on
a database created for the run on 127.0.0.1:5432 and dropped after it), each saved
with its version check and two rate buckets as the server does, on one pooled
connection whose PostgreSQL backend is found by ``pg_backend_pid()``. Prints per step:
the app process's CPU (the game, the bots and the database client; no HTTP), the
backend's CPU (from /proc, so the server must run on this machine), the wall time, the
statements and transactions sent (SQLAlchemy's event hooks) and the rows written.

    .venv/bin/python bench/step_cost.py --steps 400
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

from sqlalchemy import event, text

from faults import migrate_database, postgres_database  # bench/faults.py, beside this script
from sheepshead.rules import Rules
from sheepshead.server.tables import Tables
from sheepshead.store import Store, open_engine
from sheepshead.store.identity import IdentityStore
from sheepshead.store.rates import MICROS, Charge


def backend_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with postgres_database("sheepshead_step") as (_user, _name, url):
        migrate_database(url)
        # Used one request at a time, the pool opens one connection: one backend.
        store = Store(open_engine(url))
        tables = Tables(store)
        sent: list[str] = []

        def statement(_c: object, _cur: object, sql: str, *_rest: object) -> None:
            sent.append(sql.split()[0])

        event.listen(store.engine, "before_cursor_execute", statement)
        with store.engine.connect() as conn:
            backend = int(conn.execute(text("SELECT pg_backend_pid()")).scalar_one())
        player = IdentityStore(store.engine).new_player()
        charges = [
            Charge(f"actions:{player}", 1_000_000, MICROS, 1_000_000),
            Charge("address:127.0.0.1", 1_000_000, MICROS, 1_000_000),
        ]
        rng = random.Random(args.seed)
        game_id, turn = tables.create(player, Rules(), "standard")
        table = turn.table
        steps = 0
        sent.clear()
        cpu0, db0, wall0 = time.process_time(), backend_cpu(backend), time.perf_counter()
        while steps < args.steps:
            now = round(time.time() * MICROS)
            if table.hand_over:
                table = tables.next_hand(game_id, player, table.version, charges, now).table
                continue
            action = rng.choice(table.state()["view"]["legal"])
            table = tables.act(game_id, player, action, table.version, charges, now).table
            steps += 1
        cpu, db = time.process_time() - cpu0, backend_cpu(backend) - db0
        wall = time.perf_counter() - wall0
        store.engine.dispose()
    hands = table.hand_number
    print(
        f"{steps} actions over {hands} hands, load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(f"app process CPU per action:   {1000 * cpu / steps:.2f} ms (game, bots, client)")
    print(f"PostgreSQL backend CPU:       {1000 * db / steps:.2f} ms per action")
    print(f"wall time per action:         {1000 * wall / steps:.2f} ms")
    print(
        f"statements sent per step:     {len(sent) / (steps + hands - 1):.2f} "
        f"({', '.join(sorted(set(sent)))}); plus BEGIN and COMMIT"
    )
    print("rows written per action:      4 (the game's version, its hand, two rate buckets)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
