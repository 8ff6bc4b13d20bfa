"""The simulated players of ``load.py`` and their figures: a player with its own HTTP
client (cookies kept by hand, one TLS context for all) playing tables or daily attempts
and timing each request, and the two ways to run them (at a human pace, or at rates
raised step by step).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.cookiejar
import os
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import httpx

from servers import TLS  # bench/servers.py, beside this script

COOKIE = "sheepshead_player"


# Figures ----------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


@dataclass
class Tally:
    """Latencies (seconds) by kind of request, and every failure, in words."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    #: Requests a full server refused at the door (503, code "busy"): how long each took.
    busy: list[float] = field(default_factory=list)
    #: Of those, the ones without a Retry-After header (there should be none).
    busy_without_retry_after: int = 0

    def summary(self, kind: str) -> dict[str, float]:
        ms = [t * 1000 for t in self.times.get(kind, [])]
        if not ms:
            return {"n": 0}
        return {
            "n": len(ms),
            "p50": round(percentile(ms, 50), 1),
            "p95": round(percentile(ms, 95), 1),
            "p99": round(percentile(ms, 99), 1),
            "max": round(max(ms), 1),
        }


def line(kind: str, s: dict[str, float]) -> str:
    if not s.get("n"):
        return f"{kind:<17} n=0"
    return (
        f"{kind:<17} n={int(s['n']):6d}  p50 {s['p50']:7.1f}  p95 {s['p95']:7.1f}  "
        f"p99 {s['p99']:7.1f}  max {s['max']:7.1f}  (ms)"
    )


# A simulated player -------------------------------------------------------------------


class _NoCookies(http.cookiejar.DefaultCookiePolicy):
    """The client is shared by every player: each sends its own cookie by hand."""

    def set_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        return False


def own_client(base_url: str, timeout: float) -> httpx.AsyncClient:
    """A client with one connection, as a browser tab keeps one to the site. One shared
    pool for hundreds of players would cost the script more CPU than the server spends:
    httpcore scans every pooled connection for every request."""
    return httpx.AsyncClient(
        base_url=base_url,
        # Closed by us after 4 s idle, before uvicorn closes it at 5 s: else a request
        # sent as the server closes the connection fails (a browser would resend it).
        limits=httpx.Limits(max_connections=1, max_keepalive_connections=1, keepalive_expiry=4),
        timeout=httpx.Timeout(timeout),
        cookies=http.cookiejar.CookieJar(policy=_NoCookies()),
        verify=TLS,
    )


class Player:
    def __init__(self, client: httpx.AsyncClient, tally: Tally, rng: random.Random) -> None:
        self.client = client
        self.tally = tally
        self.rng = rng
        self.cookie: str | None = None
        self.state: dict[str, Any] | None = None

    async def call(self, kind: str, method: str, path: str, body: Any = None) -> Any:
        """One request, timed; returns the JSON reply, or None after recording an error."""
        headers = {} if self.cookie is None else {"cookie": f"{COOKIE}={self.cookie}"}
        started = time.perf_counter()
        try:
            response = await self.client.request(method, path, json=body, headers=headers)
        except httpx.HTTPError as exc:
            self.tally.errors.append(f"{kind}: {type(exc).__name__}: {exc}")
            return None
        elapsed = time.perf_counter() - started
        self.tally.statuses[response.status_code] += 1
        for header in response.headers.get_list("set-cookie"):
            name, _, rest = header.partition("=")
            if name == COOKIE:
                self.cookie = rest.split(";", 1)[0]
        if response.status_code == 503 and _busy(response):
            self.tally.busy.append(elapsed)
            if not response.headers.get("retry-after"):
                self.tally.busy_without_retry_after += 1
            return BUSY
        if response.status_code >= 300:
            self.tally.errors.append(f"{kind}: {response.status_code} {response.text[:200]}")
            return None
        self.tally.times[kind].append(elapsed)
        return response.json()

    def legal_action(self) -> str:
        assert self.state is not None
        return str(self.rng.choice(self.state["view"]["legal"]))

    # The table ----------------------------------------------------------------------

    async def table_step(self, level: str) -> bool:
        """The player's next request at their table; False if it failed."""
        if self.state is None:
            step = await self.call("new game", "POST", "/api/v1/games", {"level": level})
        elif self.state["hand_over"]:
            step = await self.call(
                "next hand",
                "POST",
                f"/api/v1/games/{self.state['id']}/next-hand",
                {"version": self.state["version"]},
            )
        else:
            step = await self.call(
                "action",
                "POST",
                f"/api/v1/games/{self.state['id']}/actions",
                {"action": self.legal_action(), "version": self.state["version"]},
            )
        if step is BUSY:
            return False  # refused at the door, nothing done: the same step next time
        if step is None:
            self.state = None  # start afresh rather than repeat a failing request
            return False
        self.state = step["state"]
        return True

    # The daily game -----------------------------------------------------------------

    async def daily_step(self) -> bool:
        base = "/api/v1/daily/attempts"
        state = self.state
        if state is None or state["daily"]["finished"]:
            if state is not None:
                # Today's deals are played once per identity: the next go is a new player.
                self.cookie = None
            step = await self.call("daily start", "POST", base)
        elif state["hand_over"]:
            step = await self.call(
                "daily deal",
                "POST",
                f"{base}/{state['id']}/next-deal",
                {"version": state["version"]},
            )
        else:
            step = await self.call(
                "daily action",
                "POST",
                f"{base}/{state['id']}/actions",
                {"action": self.legal_action(), "version": state["version"]},
            )
        if step is BUSY:
            return False
        if step is None:
            self.state = None
            return False
        self.state = step["state"]
        return True


#: What ``Player.call`` returns for a request refused because the server was full.
BUSY: Any = object()


def _busy(response: httpx.Response) -> bool:
    try:
        return bool(response.json().get("code") == "busy")
    except ValueError:
        return False


async def loop_lag(
    tally: Tally, deadline: float, client: httpx.AsyncClient, tick: float = 0.01
) -> None:
    """How late this script's own event loop wakes up (the part of the client's figures
    that is the client's, not the server's), and, every 10 ticks, how long the server
    takes to answer ``/healthz`` (answered on its event loop, no thread, no database:
    the time a request waits before the app even sees it)."""
    n = 0
    while time.perf_counter() < deadline:
        started = time.perf_counter()
        await asyncio.sleep(tick)
        tally.times["client loop lag"].append(time.perf_counter() - started - tick)
        n += 1
        if n % 10 == 0:
            started = time.perf_counter()
            with contextlib.suppress(httpx.HTTPError):
                await client.get("/healthz")
                tally.times["healthz"].append(time.perf_counter() - started)


async def human_paced(args: argparse.Namespace, base_url: str, tally: Tally) -> float:
    """Every player acts, waits ``--think`` seconds, acts again, until the duration ends.
    Returns the seconds the run took."""
    started = time.perf_counter()
    deadline = started + args.duration
    low, high = args.think
    clients = [own_client(base_url, args.timeout) for _ in range(args.players + 1)]

    async def play(index: int) -> None:
        rng = random.Random(f"{args.seed}/{index}")
        player = Player(clients[index], tally, rng)
        # Arrivals spread over the first think time, so the start is not one burst.
        await asyncio.sleep(rng.uniform(0, high))
        while time.perf_counter() < deadline:
            if args.scenario == "daily":
                await player.daily_step()
            else:
                await player.table_step(args.level)
            await asyncio.sleep(rng.uniform(low, high))

    try:
        tasks = [asyncio.create_task(play(i)) for i in range(args.players)]
        lag = asyncio.create_task(loop_lag(tally, deadline, clients[-1]))
        _, pending = await asyncio.wait(tasks, timeout=args.duration + args.grace)
        lag.cancel()
        for task in pending:
            task.cancel()
        if pending:
            tally.errors.append(f"{len(pending)} players still waiting after the grace time")
        return time.perf_counter() - started
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))


async def ramp(args: argparse.Namespace, base_url: str) -> list[dict[str, Any]]:
    """Open loop: actions at a set rate, by whichever player is free, step after step."""
    rows: list[dict[str, Any]] = []
    pool_size = max(args.players, 2 * int(max(args.rates)))
    clients = [own_client(base_url, args.timeout) for _ in range(pool_size)]
    async with contextlib.AsyncExitStack() as stack:
        for client in clients:
            await stack.enter_async_context(client)
        warm = Tally()
        idle: asyncio.Queue[Player] = asyncio.Queue()
        players = [
            Player(clients[i], warm, random.Random(f"{args.seed}/{i}")) for i in range(pool_size)
        ]

        # Every player has a game before the clock starts (a full server refuses some
        # of so many new games at once: those ask again).
        async def seated(player: Player) -> None:
            while player.state is None:
                if not await player.table_step(args.level):
                    await asyncio.sleep(0.2)

        await asyncio.wait_for(asyncio.gather(*(seated(p) for p in players)), args.grace + 60)
        for p in players:
            idle.put_nowait(p)
        for rate in args.rates:
            tally = Tally()
            inflight: set[asyncio.Task[None]] = set()
            started = time.perf_counter()
            sent = skipped = 0

            async def one(player: Player, tally: Tally = tally) -> None:
                player.tally = tally
                await player.table_step(args.level)
                idle.put_nowait(player)

            while (now := time.perf_counter()) < started + args.step:
                due = started + sent / rate
                if due > now:
                    await asyncio.sleep(due - now)
                sent += 1
                try:
                    player = idle.get_nowait()
                except asyncio.QueueEmpty:
                    skipped += 1  # every player is waiting on the server: it is behind
                    continue
                task = asyncio.create_task(one(player))
                inflight.add(task)
                task.add_done_callback(inflight.discard)
            if inflight:
                await asyncio.wait(inflight, timeout=args.grace)
            elapsed = time.perf_counter() - started
            done = sum(len(v) for v in tally.times.values())
            kinds = {**tally.summary("action")}
            every = [t for v in tally.times.values() for t in v]
            row = {
                "rate": rate,
                "achieved": round(done / elapsed, 1),
                "skipped": skipped,
                "errors": len(tally.errors),
                "action": kinds,
                "p99_all_ms": round(percentile([t * 1000 for t in every], 99), 1),
                "max_accepted_ms": round(1000 * max(every, default=0.0), 1),
                "busy": len(tally.busy),
                "busy_max_ms": round(1000 * max(tally.busy, default=0.0), 1),
                "busy_without_retry_after": tally.busy_without_retry_after,
                "load": round(os.getloadavg()[0], 2),
            }
            rows.append(row)
            print(
                f"rate {rate:5.0f}/s  achieved {row['achieved']:6.1f}/s  skipped {skipped:4d}  "
                f"errors {row['errors']:3d}  {line('action', kinds)}  load {row['load']}",
                flush=True,
            )
            print(
                f"  slowest accepted {row['max_accepted_ms']} ms; refused busy {row['busy']} "
                f"(slowest {row['busy_max_ms']} ms, {tally.busy_without_retry_after} without "
                "Retry-After)",
                flush=True,
            )
            if tally.errors:
                print("  first errors:", tally.errors[:3], flush=True)
            behind = row["p99_all_ms"] > args.p99_limit or skipped > 0.02 * sent
            if behind and not args.every_rate:
                break
            if behind:
                # Let the queue drain, so the next rate starts from an idle server.
                await asyncio.sleep(5)
    return rows
