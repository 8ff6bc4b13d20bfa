"""Friends' tables under load: tables of three scripted people and two computer players,
``uvicorn --workers 2`` on a PostgreSQL database of its own (created, migrated and
dropped here), every person holding a socket.

Each person waits 0.5 to 3 s (``--think``) once it is their turn, then posts the first
legal action... a random one. The figure is the time from an action's request leaving
the client to each *other* seat's socket receiving a state at a later version (the
LISTEN/NOTIFY path when the other seat's socket sits on the other worker); also the
action's own reply time, errors, and each worker's memory (RSS) at the end.

    .venv/bin/python bench/friends_load.py --tables 100 --duration 60

Exit status: 0 if p99 of the socket update is at most ``--p99-limit`` (0.25 s) with no
error. ``docs/performance.md`` (Friends' tables) has the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from servers import ServerProcess, migrate_database, postgres_database  # bench/servers.py

API = "/api/v1/tables"
COOKIE = "sheepshead_player"


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@dataclass
class Figures:
    update: list[float] = field(default_factory=list)
    reply: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    hands: int = 0
    #: When every table had started (perf_counter).
    setup: float = 0.0


@dataclass
class Table:
    code: str
    #: Per seat: (send time, version sent at) of actions whose update it has not seen.
    waiting: dict[int, list[tuple[float, int]]] = field(default_factory=dict)


class Person:
    def __init__(self, base: str, name: str, figures: Figures, think: tuple[float, float]) -> None:
        self.base = base
        self.name = name
        # Closed by us after 4 s idle, before uvicorn closes it at 5 s (as load.py does).
        limits = httpx.Limits(keepalive_expiry=4.0)
        self.http = httpx.AsyncClient(base_url=base, timeout=30, limits=limits)
        self.figures = figures
        self.think = think
        self.seat = -1
        self.acted_at = -1
        self.socket: ClientConnection | None = None
        self.tasks: set[asyncio.Future[None]] = set()

    async def identify(self) -> None:
        await send(self.http, "PUT", "/api/v1/daily/me/name", json={"name": self.name})

    async def live(self, table: Table, stop: float, rng: random.Random) -> None:
        url = self.base.replace("http", "ws") + f"{API}/{table.code}/live"
        cookie = f"{COOKIE}={self.http.cookies[COOKIE]}"
        async with connect(url, additional_headers={"cookie": cookie}) as socket:
            self.socket = socket
            while time.monotonic() < stop:
                try:
                    raw = await asyncio.wait_for(
                        socket.recv(), timeout=max(0.1, stop - time.monotonic())
                    )
                except TimeoutError:
                    break
                got = time.perf_counter()
                message = json.loads(raw)
                if message.get("type") != "state":
                    continue
                state = message["state"]
                version = state.get("version", 0)
                pending = table.waiting.get(self.seat, [])
                for sent, at in [p for p in pending if version > p[1]]:
                    self.figures.update.append(got - sent)
                    pending.remove((sent, at))
                await self.decide(table, state, rng)

    async def decide(self, table: Table, state: dict[str, Any], rng: random.Random) -> None:
        if not state.get("started"):
            return
        version = state["version"]
        if state["hand_over"]:
            if self.seat == 0 and self.acted_at != version:
                self.acted_at = version
                self.later(self.deal(table, version))
            return
        if not state["view"]["legal"] or self.acted_at == version:
            return
        self.acted_at = version
        self.later(self.act(table, rng.choice(state["view"]["legal"]), version, rng))

    def later(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def act(self, table: Table, action: str, version: int, rng: random.Random) -> None:
        await asyncio.sleep(rng.uniform(*self.think))
        sent = time.perf_counter()
        for seat in range(3):
            if seat != self.seat:
                table.waiting.setdefault(seat, []).append((sent, version))
        body = {"action": action, "version": version}
        try:
            reply = await self.http.post(f"{API}/{table.code}/actions", json=body)
        except httpx.HTTPError as exc:
            self.figures.errors.append(type(exc).__name__)
            self.acted_at = -1  # the next state seen tries again
            return
        self.figures.reply.append(time.perf_counter() - sent)
        if reply.status_code != 200:
            self.figures.errors.append(f"{reply.status_code} {reply.text[:80]}")

    async def deal(self, table: Table, version: int) -> None:
        await asyncio.sleep(1.0)
        self.figures.hands += 1
        reply = await self.http.post(f"{API}/{table.code}/next-hand", json={"version": version})
        if reply.status_code != 200:
            self.figures.errors.append(f"next-hand {reply.status_code}")


async def send(client: httpx.AsyncClient, method: str, url: str, **kw: Any) -> httpx.Response:
    """A setup request, tried again when the connection was closed under it (a kept-alive
    connection the server closed at the same moment)."""
    for attempt in range(3):
        try:
            reply = await client.request(method, url, **kw)
        except httpx.TransportError:
            if attempt == 2:
                raise
            await asyncio.sleep(0.5)
            continue
        reply.raise_for_status()
        return reply
    raise AssertionError("unreachable")


async def one_table(base: str, n: int, figures: Figures, args: argparse.Namespace) -> Seated:
    """A table opened, joined and started: its people, not yet listening."""
    think = (args.think_min, args.think_max)
    people = [Person(base, f"Load{n}x{k}", figures, think) for k in range(3)]
    for person in people:
        await person.identify()
    created = await send(people[0].http, "POST", API, json={"level": args.level})
    table = Table(created.json()["code"])
    people[0].seat = 0
    for person in people[1:]:
        joined = await send(person.http, "POST", f"{API}/{table.code}/seats")
        person.seat = joined.json()["seat"]
    await send(people[0].http, "POST", f"{API}/{table.code}/start")
    return Seated(table, people, random.Random(n))


@dataclass
class Seated:
    table: Table
    people: list[Person]
    rng: random.Random


async def play(seated: Seated, stop: float) -> None:
    try:
        await asyncio.gather(*(p.live(seated.table, stop, seated.rng) for p in seated.people))
    finally:
        for person in seated.people:
            for task in list(person.tasks):
                task.cancel()
            await person.http.aclose()


def worker_memory(pid: int) -> list[int]:
    """Each worker's RSS in MiB (the uvicorn master's children)."""
    sizes = []
    with contextlib.suppress(OSError):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        for child in children:
            for line in Path(f"/proc/{child}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    sizes.append(int(line.split()[1]) // 1024)
    return sizes


async def drive(base: str, args: argparse.Namespace) -> Figures:
    """Open every table (a few at a time), then play for ``--duration`` seconds."""
    figures = Figures()
    gate = asyncio.Semaphore(10)

    async def opened(n: int) -> Seated:
        async with gate:
            return await one_table(base, n, figures, args)

    tables = await asyncio.gather(*(opened(n) for n in range(args.tables)))
    figures.setup = time.perf_counter()
    stop = time.monotonic() + args.duration
    await asyncio.gather(*(play(t, stop) for t in tables))
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--level", default="standard")
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=3.0)
    parser.add_argument("--p99-limit", type=float, default=0.25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, postgres_database("sheepshead_friends") as db:
        url = db[2]
        migrate_database(url)
        server = ServerProcess(
            url, Path(scratch), workers=args.workers, env={"SHEEPSHEAD_RATE_JOINS": "off"}
        )
        server.start()
        try:
            started = time.perf_counter()
            figures = asyncio.run(drive(server.url, args))
            elapsed = time.perf_counter() - figures.setup
            opening = figures.setup - started
            assert server.process is not None
            memory = worker_memory(server.process.pid)
        finally:
            server.stop()
    p50, p99 = percentile(figures.update, 50), percentile(figures.update, 99)
    out = sys.stdout
    tables = f"{args.tables} tables x 3 people, {args.workers} workers"
    out.write(f"{tables}: opened in {opening:.0f} s, then played {elapsed:.0f} s\n")
    update = f"p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms"
    out.write(f"socket updates to other seats: {len(figures.update)}, {update}\n")
    r50, r99 = percentile(figures.reply, 50), percentile(figures.reply, 99)
    reply = f"p50 {r50 * 1000:.0f} ms, p99 {r99 * 1000:.0f} ms"
    out.write(f"action replies: {len(figures.reply)}, {reply}\n")
    out.write(f"hands dealt: {figures.hands}; errors: {len(figures.errors)} {figures.errors[:5]}\n")
    out.write(f"worker memory (RSS, MiB): {memory}\n")
    return 0 if p99 <= args.p99_limit and not figures.errors else 1


if __name__ == "__main__":
    sys.exit(main())
