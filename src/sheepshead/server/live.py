"""The friends' tables' sockets: ``/api/v1/tables/{code}/live``, and what wakes them.

A socket's handshake is checked as a POST is (Origin, ``security.cross_site``) and
authenticated by the identity cookie. After every change of the table, each socket
gets ``{type: "state", state, events}``: its seat's state and the events it has not
seen, as that seat may see them (``Friends.state`` and ``Friends.events_since``,
the same code that answers GET and the POST replies).

What wakes a socket is a table id and its stamp, never a state: after a commit the
store calls ``Hub.wake_threadsafe`` (SQLite, one process) or sends ``NOTIFY
table_events, '<id>:<stamp>'`` (PostgreSQL), which every process's listener thread
hears on its own connection. The hub then reads the table once and sends each of its
local sockets at that table its own projection, made once per seat. The process that
made an action or dealt a hand has the table after it in memory (the reply's): its
own sockets are sent that at once, without a read (the fast path), and the NOTIFY it
then hears too names a stamp they were sent already, so it reads nothing; every other
process reads the table as before, so the database stays the one truth. Per table
the hub sends only a stamp newer than it has sent (a late wake-up changes nothing).
A listener that lost its connection re-reads every table it holds sockets for once
it is back, and a client that reconnects says the version it has, so a lost wake-up
costs a moment, never a change.

Each process also runs a ticker from its start (``Hub.start``, called by the app's
lifespan, so an idle process fires clocks with no request arriving): every second it
asks the store for tables with something due (a clock run out, the seat to act away,
an idle hour) and handles each under ``FOR UPDATE SKIP LOCKED``, so one process does
it once, whatever the number of processes, and the others go on when one is killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, FastAPI, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers

from sheepshead.events import Event, hand_events
from sheepshead.server.friends_play import LIVE_SECONDS, Friends, Refusal, Step
from sheepshead.server.identity import COOKIE
from sheepshead.server.security import cross_site
from sheepshead.store.friends import CHANNEL, StoredTable, now
from sheepshead.table import Table

if TYPE_CHECKING:
    from sheepshead.server.settings import Settings

log = logging.getLogger(__name__)
router = APIRouter()

#: The largest message a client may send, in bytes.
MAX_MESSAGE = 1024
#: Messages a client may send: this many a second, with this burst.
RATE, BURST = 5.0, 20
#: A socket's queue of unsent messages; past it the queue is dropped for one resync.
QUEUE = 16
#: How often the open sockets renew their seats' presence (one statement a process).
RENEW_SECONDS = 10.0


@dataclass(eq=False)
class Conn:
    """One open socket: who, at which table, and the version it has seen."""

    socket: WebSocket
    table_id: str
    code: str
    player: str
    version: int
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    #: The loop the socket is served on, the only one that can wake its sender.
    loop: asyncio.AbstractEventLoop = field(default_factory=asyncio.get_running_loop)


@dataclass(frozen=True, slots=True)
class Wake:
    """What a table's sockets are to be sent: the table at ``stamp`` from memory
    (``step``), or read from the database (``step`` None; ``stamp`` None: read and
    send whatever was sent already, as a client's hello asks)."""

    stamp: int | None = None
    step: Step | None = None


#: Read the table and send it, whatever was sent before.
READ = Wake()


def _merge(old: Wake | None, new: Wake) -> Wake:
    """One wake-up that does what both would: a forced read covers everything, a
    table from memory covers every stamp up to its own, else the newest read."""
    if old is None:
        return new
    if old.stamp is None or new.stamp is None:
        return READ
    newest = new if new.stamp >= old.stamp else old
    return newest if newest.step is not None else Wake(newest.stamp)


class Hub:
    """This process's sockets by table, the listener, the ticker."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.loop: asyncio.AbstractEventLoop | None = None
        self.conns: dict[str, set[Conn]] = {}
        #: Per table: the next wake-up to run once the running one is done.
        self.pending: dict[str, Wake] = {}
        self.running: set[str] = set()
        #: Per table with sockets here: the newest stamp its sockets were sent.
        self.sent: dict[str, int] = {}
        #: Per table: the stamp of a write of this process about to commit, whose table
        #: its sockets will be sent from memory (its NOTIFY is then no cause to read).
        self.expected: dict[str, int] = {}
        self.tasks: set[asyncio.Future[None]] = set()
        #: The ticker of each loop serving the app (uvicorn: one; tests may run more).
        self._tickers: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}
        self._listener: threading.Thread | None = None
        self.closed = threading.Event()

    @property
    def friends(self) -> Friends:
        friends: Friends = self.app.state.friends
        return friends

    @property
    def settings(self) -> Settings:
        settings: Settings = self.app.state.settings
        return settings

    # Starting ----------------------------------------------------------------------------

    def start(self) -> None:
        """On the app's loop, at start-up: the ticker (a task of the loop) and, on
        PostgreSQL, the listener (a thread with its own connection)."""
        loop = self.loop = asyncio.get_running_loop()
        self.closed.clear()
        ticker = self._tickers.get(loop)
        if ticker is None or ticker.done():
            self._tickers[loop] = loop.create_task(self._tick(), name="friends-ticker")
        if self.friends.store.postgres and (
            self._listener is None or not self._listener.is_alive()
        ):
            self._listener = threading.Thread(
                target=self._listen, name="friends-listener", daemon=True
            )
            self._listener.start()

    async def stop(self) -> None:
        """At shutdown: this loop's ticker ends; when no loop runs one any more (an app
        served once, the usual case), the listener ends within its poll (2 s)."""
        ticker = self._tickers.pop(asyncio.get_running_loop(), None)
        if ticker is not None:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
        if not self._tickers:
            self.close()

    def close(self) -> None:
        self.closed.set()

    # Waking ----------------------------------------------------------------------------

    def wake_threadsafe(
        self, table_id: str, stamp: int | None = None, local: object | None = None
    ) -> None:
        """From any thread: the table changed (at ``stamp``; ``local``, the ``Step``
        after it, when the change was made in this process)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        step = local if isinstance(local, Step) else None
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self.wake, table_id, Wake(stamp, step))

    def expect_threadsafe(self, table_id: str, stamp: int) -> None:
        """From the thread of a write about to commit: its table will come from memory."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._expect, table_id, stamp)

    def _expect(self, table_id: str, stamp: int) -> None:
        if table_id in self.conns:
            self.expected[table_id] = stamp

    def wake(self, table_id: str, wake: Wake = READ) -> None:
        """On the loop: refresh the table's sockets (one refresh at a time per table;
        a wake-up during one runs after it, merged with any other waiting)."""
        if table_id not in self.conns or self._seen(table_id, wake):
            return
        expected = self.expected.get(table_id)
        if expected is not None:
            if wake.step is None and wake.stamp == expected:
                return  # the NOTIFY of this process's own write: its table follows
            if wake.stamp is None or wake.stamp >= expected:
                del self.expected[table_id]
        if table_id in self.running:
            self.pending[table_id] = _merge(self.pending.get(table_id), wake)
            return
        self.running.add(table_id)
        task = asyncio.ensure_future(self._refresh(table_id, wake))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _seen(self, table_id: str, wake: Wake) -> bool:
        return wake.stamp is not None and wake.stamp <= self.sent.get(table_id, -1)

    def forget(self, table_id: str) -> None:
        """The table's last socket here closed."""
        self.conns.pop(table_id, None)
        self.sent.pop(table_id, None)
        self.expected.pop(table_id, None)

    async def _refresh(self, table_id: str, wake: Wake) -> None:
        try:
            while True:
                conns = list(self.conns.get(table_id, ()))
                if conns and not self._seen(table_id, wake):
                    messages = await run_in_threadpool(self._messages, table_id, wake, conns)
                    for conn, message in messages:
                        _enqueue(conn, message)
                following = self.pending.pop(table_id, None)
                if following is None:
                    return
                wake = following
        except Exception:
            log.exception("a table's sockets could not be refreshed")
        finally:
            self.running.discard(table_id)

    def _messages(
        self, table_id: str, wake: Wake, conns: list[Conn]
    ) -> list[tuple[Conn, dict[str, Any]]]:
        """Each socket's message, from the table in memory or one read of it; each
        seat's state and events made once, whatever the number of its sockets."""
        friends = self.friends
        if wake.step is not None:
            stored: StoredTable | None = wake.step.stored
            table = wake.step.table
        else:
            stored = friends.store.load_id(table_id)
            table = None if stored is None else friends.restore(stored)
        if stored is None:
            return []
        if stored.stamp > self.sent.get(table_id, -1):
            # Set from the thread: the loop reads it only after this call returns.
            self.sent[table_id] = stored.stamp
        return list(_project(friends, stored, table, conns))

    # PostgreSQL's wake-ups -------------------------------------------------------------

    def _listen(self) -> None:
        import psycopg

        url = self.friends.store.engine.url.set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        while not self.closed.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    # Wake-ups may have been missed while not listening: re-read all.
                    for table_id in list(self.conns):
                        self.wake_threadsafe(table_id)
                    while not self.closed.is_set():
                        for note in conn.notifies(timeout=2.0):
                            table_id, _, stamp = note.payload.partition(":")
                            self.wake_threadsafe(table_id, int(stamp) if stamp else None)
            except Exception as exc:
                log.warning("the friends' listener lost its connection (%s)", type(exc).__name__)
                time.sleep(1.0)

    # Clocks ----------------------------------------------------------------------------

    async def _tick(self) -> None:
        """Every ``friends_tick_seconds``: the due tables, each claimed and handled (in
        the thread pool: the store's calls block); every ``RENEW_SECONDS``, first the
        presence of every seat with a socket here, in one statement."""
        failing = False
        renewed = time.monotonic()
        while True:
            await asyncio.sleep(self.settings.friends_tick_seconds)
            try:
                if time.monotonic() - renewed >= RENEW_SECONDS:
                    renewed = time.monotonic()
                    await run_in_threadpool(self._renew, self._sockets())
                await run_in_threadpool(self._tick_once)
            except Exception as exc:
                if not failing:  # said once per run of failures, not every second
                    log.warning("the friends' ticker failed (%s)", type(exc).__name__)
                failing = True
            else:
                failing = False

    def _sockets(self) -> list[tuple[str, str]]:
        """On the loop: (table id, player) of every open socket here."""
        return sorted({(c.table_id, c.player) for conns in self.conns.values() for c in conns})

    def _renew(self, sockets: list[tuple[str, str]]) -> None:
        """The sockets' sign of life: their seats there for ``LIVE_SECONDS`` more (a
        killed process renews nothing, so its people count as away after that)."""
        self.friends.store.renew(sockets, now() + timedelta(seconds=LIVE_SECONDS))

    def _tick_once(self) -> None:
        friends = self.friends
        for code in friends.store.due(now()):
            friends.tick(code)


def _project(
    friends: Friends, stored: StoredTable, table: Table | None, conns: list[Conn]
) -> Iterator[tuple[Conn, dict[str, Any]]]:
    """Each socket's ``{type: "state", state, events}``: its seat's own (the hand's
    events made once; a seat's state once; its events once per version seen)."""
    names = friends.names_of(stored)
    # The hand's events (the last hand's, once it is over), as ``events_since`` makes them.
    every: list[Event] | None = None
    if table is not None and any(c.version < table.version for c in conns):
        every = hand_events(table.game)
    states: dict[int | None, dict[str, Any]] = {}
    events: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for conn in conns:
        seat = stored.seat_of(conn.player)
        if seat not in states:
            states[seat] = friends.state(stored, seat, table, names)
        seen: list[dict[str, Any]] = []
        if seat is not None:
            key = (seat, conn.version)
            if key not in events:
                events[key] = friends.events_since(stored, table, seat, conn.version, names, every)
            seen = events[key]
        if table is not None:
            conn.version = table.version
        yield conn, {"type": "state", "state": states[seat], "events": seen}


def _enqueue(conn: Conn, message: dict[str, Any]) -> None:
    # Under uvicorn a process serves every socket on one loop; Starlette's test client
    # gives each socket a loop of its own, and a queue's waiting sender is woken only
    # from its loop (put from another, the message waited for an unrelated wake-up).
    try:
        here = asyncio.get_running_loop()
    except RuntimeError:
        here = None
    if here is not conn.loop:
        with contextlib.suppress(RuntimeError):  # the socket's loop is closed: it is gone
            conn.loop.call_soon_threadsafe(_put, conn, message)
        return
    _put(conn, message)


def _put(conn: Conn, message: dict[str, Any]) -> None:
    try:
        conn.queue.put_nowait(message)
    except asyncio.QueueFull:
        # A slow client: what it missed is replaced by the state as it now is.
        while not conn.queue.empty():
            conn.queue.get_nowait()
        conn.queue.put_nowait({**message, "resync": True, "events": []})


# The socket ----------------------------------------------------------------------------


def _player(socket: WebSocket, has_player: Callable[[str], bool]) -> str | None:
    player = socket.cookies.get(COOKIE)
    if player is None or len(player) != 32 or not has_player(player):
        return None
    return player


class Bucket:
    """Messages a client may send: ``RATE`` a second, ``BURST`` at once."""

    def __init__(self) -> None:
        self.tokens = float(BURST)
        self.at = time.monotonic()

    def take(self) -> bool:
        at = time.monotonic()
        self.tokens = min(BURST, self.tokens + (at - self.at) * RATE)
        self.at = at
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@router.websocket("/api/v1/tables/{code}/live")
async def live(socket: WebSocket, code: str) -> None:
    """After every change, ``{type: "state", state, events}`` for the caller's seat."""
    app = socket.app
    hub: Hub = app.state.hub
    settings: Settings = app.state.settings
    headers = Headers(scope=socket.scope)
    if cross_site("POST", headers, settings.trusted_origins) is not None:
        await socket.close(code=1008, reason="sent from another site's page")
        return
    player = await run_in_threadpool(_player, socket, app.state.identities.has_player)
    if player is None:
        await socket.close(code=1008, reason="no identity: open the table's page first")
        return
    friends = hub.friends
    try:
        stored = await run_in_threadpool(friends.load, code)
    except Refusal:
        await socket.close(code=1008, reason="no such table")
        return
    await socket.accept()
    hub.loop = asyncio.get_running_loop()
    conn = Conn(socket, stored.id, code, player, 0)
    hub.conns.setdefault(stored.id, set()).add(conn)
    seated = stored.seat_of(player) is not None
    try:
        if seated:
            await run_in_threadpool(friends.presence, code, player, True)
        hub.wake(stored.id)
        await _serve(hub, conn)
    finally:
        conns = hub.conns.get(stored.id, set())
        conns.discard(conn)
        if not conns:
            hub.forget(stored.id)
        others = any(c.player == player for c in conns)
        if seated and not others:
            with contextlib.suppress(Exception):
                await run_in_threadpool(friends.presence, code, player, False)


async def _serve(hub: Hub, conn: Conn) -> None:
    sender = asyncio.ensure_future(_send(conn))
    try:
        await _receive(hub, conn)
    finally:
        sender.cancel()


async def _send(conn: Conn) -> None:
    while True:
        message = await conn.queue.get()
        await conn.socket.send_text(json.dumps(message, separators=(",", ":")))


async def _receive(hub: Hub, conn: Conn) -> None:
    """A client's messages: ``{"type": "hello", "version": N}`` (resend what N
    lacks), ``{"type": "back"}`` (take the seat back from the computer), ``ping``."""
    bucket = Bucket()
    while True:
        try:
            text = await conn.socket.receive_text()
        except (WebSocketDisconnect, RuntimeError, KeyError):
            return
        if len(text.encode()) > MAX_MESSAGE:
            await conn.socket.close(code=1009, reason=f"messages are at most {MAX_MESSAGE} bytes")
            return
        if not bucket.take():
            await conn.socket.close(code=1008, reason="too many messages")
            return
        await _handle(hub, conn, text)


async def _handle(hub: Hub, conn: Conn, text: str) -> None:
    try:
        message = json.loads(text)
        kind = message["type"] if isinstance(message, dict) else None
    except (ValueError, KeyError):
        kind = None
    if kind == "hello" and isinstance(message.get("version"), int):
        conn.version = max(0, message["version"])
        hub.wake(conn.table_id)
    elif kind == "back":
        await run_in_threadpool(hub.friends.presence, conn.code, conn.player, True)
    elif kind == "ping":
        _enqueue(conn, {"type": "pong"})
    else:
        _enqueue(
            conn,
            {
                "type": "error",
                "code": "bad-message",
                "detail": 'a message is JSON: {"type": "hello", "version": N}, '
                '{"type": "back"} or {"type": "ping"}',
            },
        )
