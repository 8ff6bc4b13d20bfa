"""Friends' tables under load: tables of three scripted people and two computer players,
``uvicorn --workers 2`` on a PostgreSQL database of its own (created, migrated and
dropped here), every person holding a socket.

Each person waits 0.5 to 3 s (``--think``) once it is their turn, then posts the first
legal action... a random one. The figure is the time from an action's request leaving
the client to each *other* seat's socket receiving a state at a later version (the
LISTEN/NOTIFY path when the other seat's socket sits on the other worker); also the
action's own reply time, errors, and each worker's memory (RSS) at the end. No action
is sent after ``--duration``; the sockets stay open ``GRACE`` seconds more for the last
updates, and an update of an applied action that never arrived is counted (a miss).
``--windows N`` also gives the updates per N seconds of play (where the slow ones are).

    .venv/bin/python bench/friends_load.py --tables 100 --duration 60

Exit status: 0 if p99 of the socket update is at most ``--p99-limit`` (0.25 s) with no
error and no miss. ``docs/performance.md`` (Friends' tables) has the figures.
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

# httpcore asks for sniffio on every request; absent, each ask searches sys.path for
# it again (a tenth of this client's CPU): say at once that it is not there.
sys.modules.setdefault("sniffio", None)  # type: ignore[arg-type]

import httpx  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from servers import TLS, ServerProcess, migrate_database, postgres_database  # noqa: E402  (bench/servers.py)

API = "/api/v1/tables"
#: Seconds the sockets stay open after the play's end, no action sent any more: the
#: updates of the last actions still arrive (and count), and no socket closes (its
#: seat away, the computer standing in) under an action still in flight.
GRACE = 2.0
COOKIE = "sheepshead_player"


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@dataclass
class Figures:
    update: list[float] = field(default_factory=list)
    #: Per update: when its action was sent (perf_counter) and its time.
    timeline: list[tuple[float, float]] = field(default_factory=list)
    reply: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    hands: int = 0
    #: Updates of applied actions that a seat's socket never received (by the end).
    missed: int = 0
    #: When each refused action was sent (perf_counter).
    refused: list[float] = field(default_factory=list)
    #: When every table had started (perf_counter).
    setup: float = 0.0


@dataclass
class Table:
    code: str
    #: Per seat: (send time, version sent at) of actions whose update it has not seen.
    waiting: dict[int, list[tuple[float, int]]] = field(default_factory=dict)


class Poster:
    """The actions' POSTs over one kept-alive HTTP/1.1 connection, written and read by
    hand: the scripted people share the machine's two cores with the server, and
    httpx's own work per request (most of this client's CPU) would be counted in the
    server's latency. The request is what httpx sends (cookie, JSON, gzip accepted);
    the reply's body is read, not decoded. A connection idle for 4 s is opened again
    first (uvicorn closes idle ones at 5 s)."""

    def __init__(self, base: str) -> None:
        host, _, port = base.removeprefix("http://").partition(":")
        self.host, self.port = host, int(port)
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.used = 0.0
        #: One request at a time on the connection (a person may post twice at once).
        self.lock = asyncio.Lock()

    async def post(self, path: str, body: dict[str, Any], cookie: str) -> tuple[int, bytes]:
        async with self.lock:
            return await self._post(path, body, cookie)

    async def _post(self, path: str, body: dict[str, Any], cookie: str) -> tuple[int, bytes]:
        data = json.dumps(body).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nhost: {self.host}:{self.port}\r\n"
            "accept: */*\r\naccept-encoding: gzip, deflate\r\n"
            f"content-type: application/json\r\ncookie: {cookie}\r\n"
            f"content-length: {len(data)}\r\n\r\n"
        ).encode()
        if self.streams is None or time.monotonic() - self.used > 4.0:
            await self.close()
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        try:
            writer.write(head + data)
            status_line = await reader.readline()
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            reply = await reader.readexactly(length)
            status = int(status_line.split()[1])
        except (OSError, asyncio.IncompleteReadError, IndexError, ValueError):
            await self.close()
            raise
        self.used = time.monotonic()
        return status, reply

    async def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


class Person:
    def __init__(self, base: str, name: str, figures: Figures, think: tuple[float, float]) -> None:
        self.base = base
        self.name = name
        # Closed by us after 4 s idle, before uvicorn closes it at 5 s (as load.py does).
        limits = httpx.Limits(keepalive_expiry=4.0)
        # One TLS context for all (servers.TLS): each client would build its own.
        self.http = httpx.AsyncClient(base_url=base, timeout=30, limits=limits, verify=TLS)
        self.poster = Poster(base)
        self.figures = figures
        self.think = think
        self.seat = -1
        self.acted_at = -1
        self.socket: ClientConnection | None = None
        #: The play's end: no action is sent after it.
        self.stop = float("inf")
        self.tasks: set[asyncio.Future[None]] = set()

    async def identify(self) -> None:
        await send(self.http, "PUT", "/api/v1/daily/me/name", json={"name": self.name})

    async def live(self, table: Table, stop: float, rng: random.Random) -> None:
        self.stop = stop
        url = self.base.replace("http", "ws") + f"{API}/{table.code}/live"
        cookie = f"{COOKIE}={self.http.cookies[COOKIE]}"
        async with connect(url, additional_headers={"cookie": cookie}) as socket:
            self.socket = socket
            end = stop + GRACE
            while time.monotonic() < end:
                try:
                    raw = await asyncio.wait_for(
                        socket.recv(), timeout=max(0.1, end - time.monotonic())
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
                    self.figures.timeline.append((sent, got - sent))
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
        if time.monotonic() >= self.stop:
            return
        sent = time.perf_counter()
        for seat in range(3):
            if seat != self.seat:
                table.waiting.setdefault(seat, []).append((sent, version))
        body = {"action": action, "version": version}
        cookie = f"{COOKIE}={self.http.cookies[COOKIE]}"
        try:
            status, reply = await self.poster.post(f"{API}/{table.code}/actions", body, cookie)
        except (OSError, asyncio.IncompleteReadError, IndexError, ValueError) as exc:
            self.figures.errors.append(type(exc).__name__)
            self.acted_at = -1  # the next state seen tries again
            self.unwait(table, sent, version)
            return
        self.figures.reply.append(time.perf_counter() - sent)
        if status != 200:
            self.figures.errors.append(f"{status} {reply[:80]!r}")
            self.figures.refused.append(sent)
            self.unwait(table, sent, version)

    def unwait(self, table: Table, sent: float, version: int) -> None:
        """An action that was not applied: the other seats wait for no update of it."""
        for pending in table.waiting.values():
            with contextlib.suppress(ValueError):
                pending.remove((sent, version))

    async def deal(self, table: Table, version: int) -> None:
        await asyncio.sleep(1.0)
        if time.monotonic() >= self.stop:
            return
        self.figures.hands += 1
        reply = await self.http.post(f"{API}/{table.code}/next-hand", json={"version": version})
        if reply.status_code != 200:
            self.figures.errors.append(f"next-hand {reply.status_code}")


#: Tries of a setup request before the run gives up.
SETUP_TRIES = 10


async def send(client: httpx.AsyncClient, method: str, url: str, **kw: Any) -> httpx.Response:
    """A setup request, tried again when the connection was closed under it (a kept-alive
    connection the server closed at the same moment), or after the wait a busy worker
    asks for: the 300 people of 100 tables arrive at once, past what a worker starts
    within its allowance (``server/capacity.py``), and the page too waits and retries."""
    for attempt in range(SETUP_TRIES):
        last = attempt == SETUP_TRIES - 1
        try:
            reply = await client.request(method, url, **kw)
        except httpx.TransportError:
            if last:
                raise
            await asyncio.sleep(0.5)
            continue
        if reply.status_code == 503 and "retry-after" in reply.headers and not last:
            await asyncio.sleep(float(reply.headers["retry-after"]))
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
            await person.poster.close()


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
    figures.missed = sum(len(p) for t in tables for p in t.table.waiting.values())
    return figures


def windows(figures: Figures, width: float) -> str:
    """The socket updates by when their action was sent: count, p50, p99, slowest, per
    window of ``width`` seconds from the start of play (where the slow ones are)."""
    groups: dict[int, list[float]] = {}
    for sent, spent in figures.timeline:
        groups.setdefault(int((sent - figures.setup) // width), []).append(spent)
    lines = []
    for index in sorted(groups):
        spent = groups[index]
        ms = [percentile(spent, p) * 1000 for p in (50, 99, 100)]
        lines.append(
            f"  {index * width:5.0f} s: {len(spent):5d} updates, "
            f"p50 {ms[0]:.0f}, p99 {ms[1]:.0f}, slowest {ms[2]:.0f} ms\n"
        )
    if figures.refused:
        at = ", ".join(f"{sent - figures.setup:.1f}" for sent in figures.refused)
        lines.append(f"  refused actions sent at (s): {at}\n")
    return "".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--level", default="standard")
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=3.0)
    parser.add_argument("--p99-limit", type=float, default=0.25)
    parser.add_argument(
        "--windows", type=float, default=0.0, help="also the updates per window of N seconds"
    )
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
    out.write(f"updates never received (by {GRACE:.0f} s after the end): {figures.missed}\n")
    out.write(f"hands dealt: {figures.hands}; errors: {len(figures.errors)} {figures.errors[:5]}\n")
    out.write(f"worker memory (RSS, MiB): {memory}\n")
    if args.windows:
        out.write(windows(figures, args.windows))
    return 0 if p99 <= args.p99_limit and not figures.errors and not figures.missed else 1


if __name__ == "__main__":
    sys.exit(main())
