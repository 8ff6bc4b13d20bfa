"""Load on loopback: simulated players against a real server, bounded in time.

Each simulated player has its own identity (cookie) and plays through the JSON API as
the page does: it waits a human pace between actions (1 to 3 s by default), picks a
random legal action, and deals the next hand when one is over. Three scenarios:

- ``table``: players at their own tables (``--level``, standard by default);
- ``daily``: players of today's daily game (the server's daily level, expert); today's
  deals are played once per identity, so a player who finishes comes back as a new one;
- ``ramp``: actions sent at a fixed rate (no think time), the rate raised step by step,
  to find the most actions per second the server sustains before p99 passes a limit.

By default the script starts its own server: a temporary PostgreSQL database on
127.0.0.1:5432 (created, migrated once, and dropped at the end; the PostgreSQL server
itself is never touched otherwise), ``uvicorn --workers N``, rate limits raised through
the environment, and stops it at the end. ``--url`` points it at a server already
running on this machine instead (with ``--metrics-token``, or ``SHEEPSHEAD_METRICS_TOKEN``
in the script's environment, the token that server's ``/metrics`` wants: the script
reads the bots' think time there). It only ever connects to 127.0.0.1, and stops by
itself: ``--duration`` (ramp: ``--step`` per rate) plus at most ``--grace`` seconds for
requests in flight.

Each simulated player has its own identity and its own keep-alive connection. Besides
the latency per kind of request as the client sees it, the script reports the server's
own time (from the app's JSON log), the CPU of the server, of PostgreSQL's backends for
the run's database and of the script itself, a ``/healthz`` probe (answered on the
server's event loop: how long a request waits before the app sees it), how late the
script's own event loop wakes (its share of the figures), and the machine's load
average and CPU pressure. ``docs/performance.md`` (Load) has the figures.

    .venv/bin/python bench/load.py table --players 200 --workers 2 --duration 60
    .venv/bin/python bench/load.py daily --players 50 --workers 2 --duration 60
    .venv/bin/python bench/load.py ramp --workers 1 --rates 20,40,60,80 --step 20
    .venv/bin/python bench/load.py table --url http://127.0.0.1:8000 --players 20

Exit status: 0 if the run met its limit (``--p99-limit``) with no error, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import secrets
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

# Beside this script, in bench/.
from load_player import Tally, human_paced, line, ramp
from servers import ServerProcess, get, migrate_database, postgres_admin, postgres_database

ROOT = Path(__file__).resolve().parent.parent
#: Passed to the server for a load run (``server/settings.py``): every simulated player
#: comes from 127.0.0.1, so the limits per network address (new identities, requests)
#: are off; the limit per player stays, as in production (no player here comes near it).
RAISED_LIMITS = {
    "SHEEPSHEAD_RATE_IDENTITIES": "off",
    "SHEEPSHEAD_RATE_ACTIONS_PER_ADDRESS": "off",
    "SHEEPSHEAD_RATE_ACTIONS": "",  # empty: the setting's default
}
LOOPBACK = {"127.0.0.1", "localhost"}


# The server under test ------------------------------------------------------------------


@contextlib.contextmanager
def spawned_server(
    args: argparse.Namespace, scratch: Path, figures: dict[str, Any]
) -> Iterator[tuple[str, int]]:
    """``uvicorn --workers N`` on a free port, on a database of its own; stopped at the
    end, when its log's figures go into ``figures``."""
    with contextlib.ExitStack() as stack:
        if args.database == "postgres":
            _, args.database_name, url = stack.enter_context(postgres_database("sheepshead_load"))
        else:
            url = f"sqlite:///{scratch / 'load.db'}"
        # Migrate once, here: N workers migrating one fresh database at once would race.
        migrate_database(url)
        metrics_dir = scratch / "metrics"
        metrics_dir.mkdir()
        env = {
            "SHEEPSHEAD_MIGRATE": "0",
            "SHEEPSHEAD_DAILY_SECRET": secrets.token_hex(32),
            "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
            # The script reads the bots' think time from /metrics, which wants the token.
            "SHEEPSHEAD_METRICS_TOKEN": args.metrics_token,
            **RAISED_LIMITS,
        }
        for item in args.server_env:
            key, _, value = item.partition("=")
            env[key] = value
        server = ServerProcess(url, scratch, workers=args.workers, app=args.app, env=env)
        try:
            server.start()
            assert server.process is not None
            yield server.url, server.process.pid
        finally:
            server.stop()
            summarize_log(server.log_path, figures)


def summarize_log(path: Path, figures: dict[str, Any]) -> None:
    """The server's own figures, from its JSON request log: statuses, requests per
    worker, and the app's time per request (first middleware in, last byte out)."""
    lines = path.read_text().splitlines()
    statuses: dict[str, int] = defaultdict(int)
    inside: dict[str, list[float]] = defaultdict(list)
    per_worker: dict[int, int] = defaultdict(int)
    for text in lines:
        with contextlib.suppress(ValueError, KeyError):
            entry = json.loads(text)
            statuses[str(entry.get("status"))] += 1
            per_worker[entry["pid"]] += 1
            inside[entry["route"].rsplit("/", 1)[-1]].append(entry["ms"] / 1000)
    print(f"server log: {len(lines)} lines; statuses {dict(statuses)}")
    times = Tally(times=inside)
    figures["server_statuses"] = dict(statuses)
    # Keep-alive connections stay with the worker that accepted them.
    figures["requests_per_worker"] = sorted(per_worker.values(), reverse=True)
    figures["server_time"] = {}
    for kind in ("actions", "next-hand", "next-deal"):
        if kind in inside:
            figures["server_time"][kind] = times.summary(kind)
            print(line(f"server {kind}", times.summary(kind)))
    for text in lines:
        if not text.startswith("{"):
            print("  server:", text[:300])


def wait_ready(base: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        time.sleep(0.2)
    raise SystemExit(f"{base} was not ready within 60 s")


def metric_sum(base: str, name: str, token: str) -> dict[str, float]:
    """Sums of a histogram's ``_sum`` and ``_count`` lines (over every label), from
    /metrics, scraped with the server's metrics token."""
    response = get(f"{base}/metrics", headers={"authorization": f"Bearer {token}"})
    if response.status_code != 200:
        raise SystemExit(
            f"/metrics answered {response.status_code}: give the server's token "
            "(--metrics-token or SHEEPSHEAD_METRICS_TOKEN)"
        )
    text = response.text
    out = {"sum": 0.0, "count": 0.0}
    for row in text.splitlines():
        for part in ("sum", "count"):
            if row.startswith(f"{name}_{part}"):
                out[part] += float(row.rsplit(" ", 1)[1])
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children (the workers), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def postgres_cpu_seconds(database: str) -> float | None:
    """CPU used so far by the PostgreSQL backends serving this run's database (its
    connections open during the run), from /proc: the database's share of the work."""
    admin, _ = postgres_admin()
    try:
        pids = [
            row[0]
            for row in admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", (database,)
            ).fetchall()
        ]
    finally:
        admin.close()
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return round(total, 1) if pids else None


# Main ---------------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", choices=("table", "daily", "ramp"))
    parser.add_argument("--players", type=int, default=None, help="200 (table), 50 (daily)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds (default 60)")
    parser.add_argument("--grace", type=float, default=30.0, help="for requests in flight")
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 3.0), metavar=("MIN", "MAX"))
    parser.add_argument("--level", default="standard", help="the table scenario's bots")
    parser.add_argument("--rates", default="20,40,60,80,100,120", help="ramp: actions/s")
    parser.add_argument("--step", type=float, default=20.0, help="ramp: seconds per rate")
    parser.add_argument(
        "--every-rate", action="store_true", help="ramp: go on past a rate that missed"
    )
    parser.add_argument("--p99-limit", type=float, default=None, help="ms: 250, daily 500")
    parser.add_argument("--timeout", type=float, default=30.0, help="per request, seconds")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--url", help="a server already running on 127.0.0.1 instead")
    parser.add_argument("--app", default="sheepshead.server:create_app", help="the app factory")
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument(
        "--metrics-token",
        default=os.environ.get("SHEEPSHEAD_METRICS_TOKEN") or secrets.token_hex(16),
        help="the bearer token of /metrics (a --url server's SHEEPSHEAD_METRICS_TOKEN; "
        "by default that variable, else one made up for the script's own server)",
    )
    parser.add_argument("--seed", default="load", help="seeds the players' choices")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if args.players is None:
        args.players = 50 if args.scenario == "daily" else 200
    if args.p99_limit is None:
        args.p99_limit = 500.0 if args.scenario == "daily" else 250.0
    args.rates = [float(r) for r in args.rates.split(",")]
    if args.url and urlsplit(args.url).hostname not in LOOPBACK:
        parser.error("--url must be on this machine (127.0.0.1): this is a load generator")
    return args


def cpu_pressure() -> float | None:
    """The share of the last 10 s in which some runnable task waited for a CPU (PSI)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        first = Path("/proc/pressure/cpu").read_text().splitlines()[0]
        return float(first.split()[1].split("=")[1])
    return None


def machine() -> dict[str, Any]:
    return {
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpu_pressure_some_avg10": cpu_pressure(),
    }


def run(args: argparse.Namespace, base: str, server_pid: int | None) -> dict[str, Any]:
    cpu0 = cpu_seconds(server_pid) if server_pid else None
    think0 = metric_sum(base, "sheepshead_bot_think_seconds", args.metrics_token)
    report: dict[str, Any] = {
        "scenario": args.scenario,
        "players": args.players,
        "workers": None if args.url else args.workers,
        "database": args.url or args.database,
        "before": machine(),
    }
    if args.scenario == "ramp":
        rows = asyncio.run(ramp(args, base))
        report["steps"] = rows
        best = [
            r
            for r in rows
            if r["p99_all_ms"] <= args.p99_limit
            and not r["errors"]
            and r["skipped"] <= 0.02 * r["rate"] * args.step
        ]
        report["max_sustained"] = max((r["achieved"] for r in best), default=None)
    else:
        tally = Tally()
        elapsed = asyncio.run(human_paced(args, base, tally))
        report["seconds"] = round(elapsed, 1)
        report["requests"] = {k: tally.summary(k) for k in sorted(tally.times)}
        report["errors"] = tally.errors
        report["statuses"] = dict(tally.statuses)
        report["busy"] = len(tally.busy)
        report["busy_without_retry_after"] = tally.busy_without_retry_after
        total = sum(
            len(v) for k, v in tally.times.items() if k not in ("client loop lag", "healthz")
        )
        report["requests_per_second"] = round(total / elapsed, 1)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        report["client_cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 1)
    think1 = metric_sum(base, "sheepshead_bot_think_seconds", args.metrics_token)
    if think1["count"] > think0["count"]:
        mean = (think1["sum"] - think0["sum"]) / (think1["count"] - think0["count"])
        report["bot_think_mean_ms"] = round(1000 * mean, 2)
    if server_pid and cpu0 is not None:
        report["server_cpu_seconds"] = round(cpu_seconds(server_pid) - cpu0, 1)
    if getattr(args, "database_name", None):
        report["postgres_cpu_seconds"] = postgres_cpu_seconds(args.database_name)
    report["after"] = machine()
    return report


def verdict(args: argparse.Namespace, report: dict[str, Any]) -> bool:
    if args.scenario == "ramp":
        print(
            f"max sustained with p99 <= {args.p99_limit:.0f} ms: "
            f"{report['max_sustained']} actions/s"
        )
        return report["max_sustained"] is not None
    for kind, figures in report["requests"].items():
        print(line(kind, figures))
    for error in report["errors"][:10]:
        print("error:", error)
    kind = "daily action" if args.scenario == "daily" else "action"
    p99 = report["requests"].get(kind, {}).get("p99", float("inf"))
    # A request refused at the door (503 busy) did not get through: it counts against
    # a run that is meant to be within capacity.
    ok = not report["errors"] and not report["busy"] and p99 <= args.p99_limit
    print(
        f"p99 per {kind}: {p99} ms (limit {args.p99_limit:.0f}), "
        f"errors {len(report['errors'])}, refused busy {report['busy']}: "
        f"{'OK' if ok else 'MISSED'}"
    )
    return ok


def main() -> int:
    args = parse_args()
    figures: dict[str, Any] = {}
    with (
        tempfile.TemporaryDirectory(prefix="sheepshead-load-") as scratch,
        contextlib.ExitStack() as stack,
    ):
        if args.url:
            base, server_pid = args.url.rstrip("/"), None
            wait_ready(base)
        else:
            base, server_pid = stack.enter_context(spawned_server(args, Path(scratch), figures))
        report = run(args, base, server_pid)
    report.update(figures)
    summary = {k: v for k, v in report.items() if k not in ("requests", "steps", "errors")}
    print(json.dumps(summary))
    ok = verdict(args, report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
