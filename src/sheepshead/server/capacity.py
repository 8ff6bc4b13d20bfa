"""Graceful when full: a worker runs a few requests at once, queues a short while, and
refuses at the door what it could not start soon.

A worker process serves its requests on one core (the interpreter's lock), so running
more of them at once does not finish them sooner: each waits for the lock, and so does
the event loop that reads new requests and sends the refusals. At twice the capacity,
32 requests running at once let an accepted one wait 1.2 s (``docs/performance.md``).
So each worker keeps three counts:

- **running**: at most ``settings.max_running`` requests are inside the app at once
  (a few, so that one waiting on the database leaves the core to another);
- **waiting**: the others wait their turn in order, at no cost (an awaited future on
  the event loop), but not longer than ``settings.max_wait_ms``. A request whose
  expected wait (the requests ahead of it times the measured time per request, over
  the requests that run at once) is already past that is refused on arrival; one that
  waited the whole time is refused then. So an accepted request waits at most that
  long before it starts, and a burst within capacity only waits a few milliseconds;
- **in hand**: past ``settings.max_in_flight`` requests in all, refused at once.

A refusal is cheap and early: 503 and ``Retry-After``, before any other work. The page
says it is busy and sends the action once more after that wait (``static/js/api.js``).
A request's body is read before it takes a place among the running ones, so a client
slow to send does not hold the core's turn.

The probes (``/healthz``, ``/readyz``) and the metrics scrape are never refused nor
queued: an orchestrator must see a busy worker as alive. Nor are the static files (and
the app's manifest and service worker): they cost the worker next to nothing, a page
loads a dozen of them at once, and a browser that has them keeps them for a year.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, MutableMapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sheepshead.server import refused
from sheepshead.server.errors import error_page, is_page
from sheepshead.server.settings import Settings

#: Seconds a refused request is told to wait: the queue it met drains well within.
RETRY_AFTER_SECONDS = 1
BUSY = "The server is busy just now: please try again in a moment."
_NEVER_REFUSED = frozenset(
    {"/healthz", "/readyz", "/metrics", "/manifest.webmanifest", "/sw.js", "/favicon.ico"}
)
_STATIC = "/static/"
#: The weight of the newest request in the moving average of the time per request.
_SMOOTHING = 0.1
#: The time per request assumed before any was measured (seconds).
_FIRST_GUESS = 0.01


class InFlightLimit:
    """Runs at most ``max_running`` requests at once, queues the others for at most
    ``max_wait_ms``, and refuses what would wait longer or exceed ``max_in_flight``
    (0 for either count: no limit of that kind).

    The counts are kept on the event loop's thread only (ASGI calls arrive there), so
    plain integers need no lock."""

    def __init__(
        self,
        app: ASGIApp,
        settings: Settings,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.limit = settings.max_in_flight
        self.running_limit = settings.max_running
        self.max_wait = settings.max_wait_ms / 1000
        self.max_body = settings.max_body_bytes
        self.clock = clock
        self.in_flight = 0
        self.running = 0
        self.waiting: deque[asyncio.Future[None]] = deque()
        #: Seconds a request spends inside the app, a moving average.
        self.seconds_per_request = _FIRST_GUESS
        self.refused = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["path"] in _NEVER_REFUSED
            or scope["path"].startswith(_STATIC)
        ):
            await self.app(scope, receive, send)
            return
        if 0 < self.limit <= self.in_flight:
            await self.refuse(scope, receive, send)
            return
        self.in_flight += 1
        try:
            await self.admit(scope, receive, send)
        finally:
            self.in_flight -= 1

    async def admit(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.running_limit <= 0:
            await self.app(scope, receive, send)
            return
        receive = await self.read_body(receive)
        if self.running >= self.running_limit or self.waiting:
            if self.expected_wait() > self.max_wait or not await self.wait_turn():
                await self.refuse(scope, receive, send)
                return
        else:
            self.running += 1
        started = self.clock()
        try:
            await self.app(scope, receive, send)
        finally:
            spent = self.clock() - started
            self.seconds_per_request += _SMOOTHING * (spent - self.seconds_per_request)
            self.hand_on()

    def expected_wait(self) -> float:
        """Seconds a request arriving now would wait: those ahead of it, finished
        ``running_limit`` at a time."""
        ahead = len(self.waiting) + 1
        return ahead * self.seconds_per_request / self.running_limit

    async def wait_turn(self) -> bool:
        """Waits for a running place (handed on by a finishing request); False after
        ``max_wait`` without one."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append(turn)
        try:
            await asyncio.wait_for(asyncio.shield(turn), self.max_wait)
        except TimeoutError:
            if turn.done():
                return True  # handed on in the very moment the wait ran out
            self.waiting.remove(turn)
            turn.cancel()
            return False
        except asyncio.CancelledError:
            # The request's task is cancelled while it waits (the server stops, or a
            # caller gave up on it): a place handed to it meanwhile goes on to the next
            # one, else its turn leaves the line; either way no place is lost.
            if turn.done():
                self.hand_on()
            else:
                self.waiting.remove(turn)
                turn.cancel()
            raise
        return True

    def hand_on(self) -> None:
        """A request is done: its running place goes to the first one still waiting."""
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self.running -= 1

    async def read_body(self, receive: Receive) -> Receive:
        """Reads the body before the request takes a running place; the app is given it
        again (up to the size the server accepts: past it, the rest streams through to
        the size check)."""
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            size += len(message.get("body", b""))
            if message["type"] != "http.request" or not message.get("more_body"):
                break
            if size > self.max_body:
                break
        buffered = deque(messages)

        async def replay() -> MutableMapping[str, Any]:
            return buffered.popleft() if buffered else await receive()

        return replay

    async def refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.refused += 1
        await busy(scope)(scope, receive, send)


def busy(scope: Scope) -> Response:
    """The 503: the page in the reader's language, or the API's refusal with its code."""
    request = Request(scope)
    headers = {"retry-after": str(RETRY_AFTER_SECONDS)}
    if is_page(request.url.path):
        return error_page(request, 503, headers, busy=True)
    return JSONResponse(
        refused.body(BUSY, "busy", {"seconds": RETRY_AFTER_SECONDS}),
        status_code=503,
        headers={**headers, "cache-control": "no-store"},
    )
