"""Graceful when full: past so many requests at once, a worker refuses at the door.

A worker process serves its requests on one core (the interpreter's lock), so work
beyond what it can finish soon only queues: every request would wait, and the players
see seconds of delay, then time-outs. Instead each worker counts the requests it has
in hand (from arrival to the last byte of the reply) and refuses a request that would
make more than ``settings.max_in_flight``: at once, before any other work, with 503
and ``Retry-After``. The page says it is busy and sends the action once more after
that wait (``static/js/api.js``); the accepted requests keep their pace.

The probes (``/healthz``, ``/readyz``) and the metrics scrape are never refused: an
orchestrator must see a busy worker as alive. Nor are the static files (and the app's
manifest and service worker): they cost the
worker next to nothing, a page loads a dozen of them at once (a small bound would refuse
its stylesheet), and a browser that has them keeps them for a year.

A smaller bound than the default (``Settings.max_in_flight``) serves a worker past its
capacity better: each request in hand beyond the one running waits for the interpreter's
lock, and so does the event loop that reads new requests and sends the refusals. At
twice the capacity, 32 let an accepted request wait 1.2 s and 4 kept it under 0.6 s
(``docs/performance.md``); the default stays 32 until runs within capacity and the
friends' tables' load are measured at 4.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

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


class InFlightLimit:
    """Counts the requests in hand and refuses those past the limit (0: no limit).

    The count is kept on the event loop's thread only (ASGI calls arrive there), so a
    plain integer needs no lock."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.limit = settings.max_in_flight
        self.in_flight = 0
        self.refused = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or self.limit <= 0
            or scope["path"] in _NEVER_REFUSED
            or scope["path"].startswith(_STATIC)
        ):
            await self.app(scope, receive, send)
            return
        if self.in_flight >= self.limit:
            self.refused += 1
            await busy(scope)(scope, receive, send)
            return
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1


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
