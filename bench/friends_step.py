"""What one action at a friends' table costs the server, in process, without HTTP: the
request's work (``Friends.act`` and its reply), the acting process's fan-out to its own
sockets (from memory) and the other process's (its read of the table and each seat's
message), each as CPU time and SQL statements; ``--profile`` adds cProfile's costliest
calls of the whole.

Two apps on one PostgreSQL database created for the run (dropped after it), as two
worker processes would be; a table of five with three people (the bench's shape), two
sockets of its people on the acting app and one on the other, stand-ins for the real
sockets (their messages are built, not sent).

    .venv/bin/python bench/friends_step.py --actions 300
    .venv/bin/python bench/friends_step.py --actions 300 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import sys
import tempfile
import time
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event

from servers import postgres_database  # bench/servers.py, beside this script
from sheepshead.server import Settings, create_app
from sheepshead.server.live import Conn, Wake, _project
from sheepshead.store.identity import IdentityStore


class Meter:
    """CPU time and SQL statements per named part."""

    def __init__(self, profile: cProfile.Profile | None = None, only: str = "") -> None:
        #: When given, profiles only the part named ``only`` (all parts if "").
        self.profile = profile
        self.only = only
        self.cpu: defaultdict[str, float] = defaultdict(float)
        self.sql: Counter[str] = Counter()
        self.part = ""

    def statement(self, *_args: object) -> None:
        self.sql[self.part] += 1

    def run(self, part: str, work: Callable[[], Any]) -> Any:
        self.part = part
        profiled = self.profile is not None and self.only in ("", part)
        start = time.thread_time()
        try:
            if profiled:
                assert self.profile is not None
                return self.profile.runcall(work)
            return work()
        finally:
            self.cpu[part] += time.thread_time() - start
            self.part = ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--level", default="standard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="cProfile's costliest calls")
    parser.add_argument("--only", default="", help="profile only this part ('act: write', ...)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, postgres_database("sheepshead_fstep") as db:
        settings = Settings(data_dir=Path(scratch), database_url=db[2], dev=True)
        one = create_app(settings)
        two = create_app(Settings(data_dir=Path(scratch), database_url=db[2], migrate=False))
        try:
            return measure(one, two, args)
        finally:
            for app in (one, two):
                app.state.engine.dispose()


def measure(one: Any, two: Any, args: argparse.Namespace) -> int:
    friends, others = one.state.friends, two.state.friends
    names = IdentityStore(friends.store.engine)
    people = [names.new_player() for _ in range(3)]
    for n, player in enumerate(people):
        friends.ensure_name(player, f"Step{n}")
    stored = friends.create(people[0], {}, args.level, None, False, None)
    code = stored.code
    for player in people[1:]:
        friends.sit(code, player, None)
    step = friends.start(code, people[0])
    profile = cProfile.Profile(time.thread_time) if args.profile else None
    meter = Meter(profile, args.only)
    for app in (one, two):
        event.listen(app.state.engine, "before_cursor_execute", meter.statement)
    # Seat 0's and 1's sockets on the acting app, seat 2's on the other.
    mine = [Conn(None, stored.id, code, p, step.table.version) for p in people[:2]]  # type: ignore[arg-type]
    theirs = [Conn(None, stored.id, code, people[2], step.table.version)]  # type: ignore[arg-type]
    rng = random.Random(args.seed)
    actions = hands = 0
    sizes: list[int] = []
    started = time.perf_counter()
    while actions < args.actions:
        table = step.table
        if table.hand_over:
            step, _ = meter.run(
                "next hand",
                lambda: friends.next_hand(code, people[0], table.version),  # noqa: B023
            )
            hands += 1
        else:
            seat = table.game.turn
            player = next(p for p in people if step.stored.seat_of(p) == seat)
            state = friends.state(step.stored, seat, table)
            action = rng.choice(state["view"]["legal"])
            step, turn = meter.run(
                "act: write",
                lambda: friends.act(code, player, action, table.version),  # noqa: B023
            )
            meter.run("act: reply", lambda: friends.step_json(step, turn, seat))  # noqa: B023
            actions += 1
        sent = meter.run(
            "fan-out: own sockets",
            lambda: list(_project(friends, step.stored, step.table, mine)),  # noqa: B023
        )
        sent += meter.run("fan-out: other process", lambda: other(others, stored.id, theirs))
        meter.run("sockets: json + deflate", lambda: send(sent, sizes))  # noqa: B023
    wall = time.perf_counter() - started
    out = sys.stdout
    out.write(
        f"{actions} actions ({hands} next hands) in {wall:.2f} s wall: "
        f"{wall / actions * 1000:.2f} ms an action\n"
    )
    total = sum(meter.cpu.values())
    out.write(
        f"  socket messages: {len(sizes)}, mean {sum(sizes) / len(sizes):.0f} bytes of JSON\n"
    )
    for part in (
        "act: write",
        "act: reply",
        "fan-out: own sockets",
        "fan-out: other process",
        "sockets: json + deflate",
    ):
        out.write(
            f"  {part:24} {meter.cpu[part] / actions * 1000:6.2f} ms CPU, "
            f"{meter.sql[part] / actions:5.2f} statements an action\n"
        )
    out.write(
        f"  {'all (next hands too)':24} {total / actions * 1000:6.2f} ms CPU, "
        f"{sum(meter.sql.values()) / actions:5.2f} statements an action\n"
    )
    if profile is not None:
        text = io.StringIO()
        pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(45)
        out.write(text.getvalue())
        text = io.StringIO()
        pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(30)
        out.write(text.getvalue())
    return 0


_DEFLATE = zlib.compressobj(wbits=-15)


def send(messages: list[Any], sizes: list[int]) -> None:
    """What each socket's send costs: the JSON, then permessage-deflate's compression."""
    for _conn, message in messages:
        data = json.dumps(message, separators=(",", ":")).encode()
        sizes.append(len(data))
        _DEFLATE.compress(data)
        _DEFLATE.flush(zlib.Z_SYNC_FLUSH)


def other(friends: Any, table_id: str, conns: list[Conn]) -> list[Any]:
    """What the other process does on the NOTIFY: ``Hub._messages`` without the hub."""
    wake = Wake(None)
    del wake
    stored = friends.store.load_id(table_id)
    table = friends.restore(stored)
    return list(_project(friends, stored, table, conns))


if __name__ == "__main__":
    sys.exit(main())
