"""Server CPU per human action: this checkout against commit 5b08ee7, side by side.

Puts 5b08ee7's ``src`` in a temporary directory with ``git archive`` (and, beside it,
the one library it needed that this checkout no longer does), starts one
``uvicorn`` server (one worker) for each version on a PostgreSQL database of its own
on 127.0.0.1:5432 (created for the run, dropped at the end), both pinned to the same
core, and plays through each in turn, interleaved (old, new, new, old, ...), so that
the machine's load falls on both alike. A round plays ``--hands`` complete hands at
one level through the JSON API as the page does (a new game every 10 hands, the
human's action chosen at random among the legal ones, the same choices for both);
its figure is the server process's CPU time (user and system, from /proc) over the
round divided by the round's human actions. Deals, next hands and new games are in
the CPU but not in the count, alike for both.

    .venv/bin/python bench/action_cpu.py                      # standard and expert
    .venv/bin/python bench/action_cpu.py --rounds 6 --hands 30 --expert-hands 8

Beside the CPU, each human action's round trip over loopback (the server's time
and the socket's, nearly all the server's) is kept, and each level's p95 of both
versions printed with their ratio: issue 16's "p95 server time at an expert table at
most 0.7 times turn 1's, side by side".

Rate limits are on at a rate no round reaches (their cost is in the figures). Prints
each round, then per level the CPU per action of each version and the ratio (now /
5b08ee7: below 1 is less work). Targets (issue 20): at most 0.5 at the standard
level, 0.7 at the expert level. Exit status 0 if both are met.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from servers import ServerProcess, postgres_database  # bench/servers.py, beside this script

BASE = "5b08ee7"
ROOT = Path(__file__).resolve().parent.parent
#: What 5b08ee7 imported that this checkout's environment no longer has.
OLD_DEPENDENCIES = ["confusable-homoglyphs==3.3.1"]
TARGETS = {"standard": 0.5, "expert": 0.7}
#: Every limit on, far above what one player playing flat out sends.
LIMITS = {
    "SHEEPSHEAD_RATE_IDENTITIES": "off",
    "SHEEPSHEAD_RATE_ACTIONS": "1000000/second",
    "SHEEPSHEAD_RATE_ACTIONS_PER_ADDRESS": "1000000/second",
}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def old_tree(scratch: Path) -> Path:
    """5b08ee7's ``src``, with its missing library installed beside it; the path."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", BASE, "src"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(scratch)], input=archive, check=True)
    deps = scratch / "deps"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--target", str(deps), *OLD_DEPENDENCIES],
        check=True,
    )
    return scratch / "src"


def p95_of(seconds: list[float]) -> float:
    ordered = sorted(seconds)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


class Player:
    """One player of one server: the page's requests, the human's choices from ``rng``."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.client = httpx.Client(base_url=server.url, timeout=120)
        self.state: dict[str, Any] | None = None
        #: Each human action's round trip, seconds (loopback: the server's time, nearly).
        self.times: list[float] = []

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.client.post(path, json=body, headers={"origin": self.server.url})
        assert response.status_code in (200, 201), response.text
        state: dict[str, Any] = response.json()["state"]
        return state

    def play(self, level: str, hands: int, rng: random.Random) -> int:
        """Play ``hands`` hands (a new game every 10); the human actions taken."""
        actions = 0
        for number in range(hands):
            if self.state is None or self.state.get("level") != level or number % 10 == 0:
                state = self.post("/api/v1/games", {"level": level})
            else:
                path = f"/api/v1/games/{self.state['id']}/next-hand"
                state = self.post(path, {"version": self.state["version"]})
            while not state["hand_over"]:
                action = rng.choice(state["view"]["legal"])
                path = f"/api/v1/games/{state['id']}/actions"
                start = time.perf_counter()
                state = self.post(path, {"action": action, "version": state["version"]})
                self.times.append(time.perf_counter() - start)
                actions += 1
            self.state = state
        return actions


@contextlib.contextmanager
def server(name: str, src: Path, extra: list[Path], core: int, scratch: Path) -> Iterator[Player]:
    with postgres_database(f"sheepshead_cpu_{name}") as (_user, _db, url):
        data = scratch / name
        data.mkdir()
        path = os.pathsep.join(str(p) for p in [src, *extra])
        process = ServerProcess(url, data, workers=1, env={"PYTHONPATH": path, **LIMITS})
        process.start()
        assert process.process is not None
        os.sched_setaffinity(process.process.pid, {core})
        try:
            yield Player(process)
        finally:
            process.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4, help="rounds per version and level")
    parser.add_argument("--hands", type=int, default=30, help="hands per standard round")
    parser.add_argument("--expert-hands", type=int, default=6, help="hands per expert round")
    parser.add_argument("--levels", default="standard,expert")
    parser.add_argument("--core", type=int, default=1, help="the core both servers run on")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    levels = args.levels.split(",")
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        scratch = Path(tmp)
        old_src = old_tree(scratch)
        players = {
            "5b08ee7": stack.enter_context(
                server("old", old_src, [scratch / "deps"], args.core, scratch)
            ),
            "now": stack.enter_context(server("new", ROOT / "src", [], args.core, scratch)),
        }
        cpu: dict[tuple[str, str], list[tuple[float, int]]] = {}
        times: dict[tuple[str, str], list[float]] = {}
        for level in levels:
            hands = args.hands if level == "standard" else args.expert_hands
            for player in players.values():  # warm up: imports, caches, first deal
                player.play(level, 1, random.Random(0))
                player.times.clear()
            for number in range(args.rounds):
                order = list(players) if number % 2 == 0 else list(reversed(players))
                for name in order:
                    player = players[name]
                    pid = player.server.process.pid  # type: ignore[union-attr]
                    before = cpu_seconds(pid)
                    actions = player.play(level, hands, random.Random(args.seed + number))
                    used = cpu_seconds(pid) - before
                    cpu.setdefault((level, name), []).append((used, actions))
                    times.setdefault((level, name), []).extend(player.times)
                    player.times.clear()
                    print(
                        f"{level:8} round {number + 1} {name:8} {actions:4} actions "
                        f"{used:6.2f} s CPU  {1000 * used / actions:6.2f} ms per action",
                        flush=True,
                    )
    met = True
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for level in levels:
        per = {}
        for name in ("5b08ee7", "now"):
            rounds = cpu[(level, name)]
            per[name] = sum(u for u, _ in rounds) / sum(a for _, a in rounds)
        pairs = [
            (n_used / n_act) / (o_used / o_act)
            for (o_used, o_act), (n_used, n_act) in zip(
                cpu[(level, "5b08ee7")], cpu[(level, "now")], strict=True
            )
        ]
        ratio = per["now"] / per["5b08ee7"]
        target = TARGETS.get(level)
        ok = target is None or ratio <= target
        met = met and ok
        print(
            f"{level}: 5b08ee7 {1000 * per['5b08ee7']:.2f} ms, now {1000 * per['now']:.2f} ms "
            f"CPU per human action: ratio {ratio:.2f} (rounds: "
            f"{', '.join(f'{p:.2f}' for p in pairs)}; median {statistics.median(pairs):.2f})"
            + (f", target <= {target}: {'met' if ok else 'NOT met'}" if target else "")
        )
        p95 = {name: 1000 * p95_of(times[(level, name)]) for name in ("5b08ee7", "now")}
        print(
            f"{level}: p95 round trip per human action (loopback): 5b08ee7 "
            f"{p95['5b08ee7']:.1f} ms, now {p95['now']:.1f} ms: ratio "
            f"{p95['now'] / p95['5b08ee7']:.2f} ({len(times[(level, 'now')])} actions each)"
        )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
