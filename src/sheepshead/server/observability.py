"""What an operator sees: one JSON log line per request, Prometheus metrics at
``/metrics`` (for a scrape bearing ``SHEEPSHEAD_METRICS_TOKEN``; off without one),
``/healthz`` (the process answers) and ``/readyz`` (it can serve: the
database answers, its schema is at the migrations' head, and this server derives the
daily game's seeds from the same secret as the day's published commitment).

A log line holds the method, the route's template (``/api/v1/games/{game_id}``), its
ids (a game's id is not secret: without the player's cookie it opens nothing), the
status, the time taken and a hash of the player's id (the id itself is the player's
credential). Never a query string, a body, a card or a seed.

Metrics live in this process; with several workers on one machine, set
``PROMETHEUS_MULTIPROC_DIR`` to an empty directory shared by the workers (before
they start) and ``/metrics`` adds up every worker's figures (``docs/deploy.md``).
Games in progress are counted in the database at scrape time, so every worker and
machine reports the same figure.

Losing the database is answered here too: a request that cannot reach it gets 503
with a sentence saying so, and the next request tries again (no restart needed).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import os
import re
import sys
import threading
import time
import traceback
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from sqlalchemy import Engine
from sqlalchemy import exc as sa_exc
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sheepshead import daily_game
from sheepshead.server.errors import refusal
from sheepshead.server.identity import COOKIE
from sheepshead.server.secret import server_secret
from sheepshead.store.daily_store import DailyStore, attempts_in_progress
from sheepshead.store.games import games_in_progress
from sheepshead.store.migrate import alembic_config

__all__ = [
    "ACCESS_LOG",
    "DATABASE_DOWN",
    "REGISTRY",
    "RequestObserver",
    "bots_thinking",
    "install",
    "player_hash",
]

#: The request log: one JSON line per request, on stderr.
ACCESS_LOG = logging.getLogger("sheepshead.access")
#: What a request that cannot reach the database is told (with 503 and Retry-After).
DATABASE_DOWN = "the game's database cannot be reached just now; try again in a few seconds"
RETRY_AFTER_SECONDS = 5
#: A game counts as in progress while its current hand is not over and it was played
#: in this window; older unfinished hands are games their players left.
ACTIVE_WINDOW = timedelta(minutes=15)
#: The database is counted at most this often per process, however often it is scraped.
COUNT_SECONDS = 5.0

_MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_ID = re.compile(r"[0-9a-f]{32}")

# Metrics ----------------------------------------------------------------------------

#: This process's metrics; ``/metrics`` reads them (or, with several workers, every
#: worker's files) at each scrape.
REGISTRY = CollectorRegistry(auto_describe=True)

REQUESTS = Counter(
    "sheepshead_http_requests",
    "Requests answered, by method, route template and status.",
    ["method", "route", "status"],
    registry=REGISTRY,
)
LATENCY = Histogram(
    "sheepshead_http_request_duration_seconds",
    "Time from a request's arrival to the last byte of its reply, by route template.",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
BOT_THINK = Histogram(
    "sheepshead_bot_think_seconds",
    "Time the computer players took to answer one request's action (all their moves "
    "up to the player's next decision), by level.",
    ["level"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)


@contextmanager
def bots_thinking(level: str) -> Iterator[None]:
    """Times the block (a table's ``act`` or ``next_hand``: the bots' replies) into
    the bot think time histogram; a block that raises (an illegal action) is not counted."""
    started = time.perf_counter()
    yield
    BOT_THINK.labels(level=level).observe(time.perf_counter() - started)


class DatabaseGauges(Collector):
    """Counts, in the database, what every worker shares: games and daily attempts in
    progress, and whether the database answered at all."""

    def __init__(self, engine: Engine, max_age: float = COUNT_SECONDS) -> None:
        self.engine = engine
        #: Seconds a count is reused for: scrapes from many places cost one query.
        self.max_age = max_age
        self._lock = threading.Lock()
        self._at = float("-inf")
        self._counts: tuple[int, int] | None = None

    def _count(self) -> tuple[int, int] | None:
        since = datetime.now(UTC) - ACTIVE_WINDOW
        try:
            with self.engine.connect() as conn:
                return games_in_progress(conn, since), attempts_in_progress(conn, since)
        except sa_exc.SQLAlchemyError:
            return None

    def collect(self) -> Iterable[Metric]:
        with self._lock:
            now = time.monotonic()
            if now - self._at >= self.max_age:
                self._counts, self._at = self._count(), now
            counts = self._counts
        up = GaugeMetricFamily(
            "sheepshead_database_up", "1 if the last count in the database succeeded."
        )
        up.add_metric([], 0.0 if counts is None else 1.0)
        yield up
        if counts is None:
            return
        window = f"{int(ACTIVE_WINDOW.total_seconds() // 60)} minutes"
        games = GaugeMetricFamily(
            "sheepshead_games_in_progress",
            f"Games whose current hand is not over, played in the last {window}.",
        )
        games.add_metric([], float(counts[0]))
        yield games
        attempts = GaugeMetricFamily(
            "sheepshead_daily_attempts_in_progress",
            f"Daily attempts not finished, played in the last {window}.",
        )
        attempts.add_metric([], float(counts[1]))
        yield attempts


def exposition(gauges: DatabaseGauges) -> bytes:
    """The metrics in Prometheus' text format: this process's (or every worker's)
    and the database's."""
    if _MULTIPROCESS:
        workers = CollectorRegistry()
        MultiProcessCollector(workers)  # type: ignore[no-untyped-call]
        text = generate_latest(workers)
    else:
        text = generate_latest(REGISTRY)
    shared = CollectorRegistry(auto_describe=False)
    shared.register(gauges)
    return text + generate_latest(shared)


# The request log ----------------------------------------------------------------------


def player_hash(player_id: str) -> str:
    """Stands for the player in logs: the same player gets the same hash, and the
    hash cannot be turned back into the id (128 random bits) that opens their games."""
    return hashlib.sha256(f"sheepshead-player:{player_id}".encode()).hexdigest()[:16]


class JsonLines(logging.Formatter):
    """A record as one JSON object on one line: time, level, logger, message, fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info and record.exc_info[1] is not None:
            # Where it failed, and what kind of error, never the error's message: it
            # may quote a card or a seed.
            error = traceback.TracebackException.from_exception(record.exc_info[1])
            line["exception"] = error.exc_type.__name__ if error.exc_type else "unknown"
            line["traceback"] = "".join(error.stack.format())
        return json.dumps(line, separators=(",", ":"))


class _Stderr(logging.Handler):
    """Writes to whatever ``sys.stderr`` is at the time (a test runner swaps it)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:
            self.handleError(record)


def configure_access_log() -> None:
    """JSON lines on stderr for the request log, once per process; ``propagate`` off so
    a root handler does not print each line a second time in another format."""
    if any(isinstance(h, _Stderr) for h in ACCESS_LOG.handlers):
        return
    handler = _Stderr()
    handler.setFormatter(JsonLines())
    ACCESS_LOG.addHandler(handler)
    ACCESS_LOG.setLevel(logging.INFO)
    ACCESS_LOG.propagate = False


def _route(scope: Scope) -> str:
    """The route's template, never the raw path: unknown paths share one label, so a
    scan of random URLs cannot swell the metrics."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if not isinstance(path, str):
        # A mounted app (the static files) sets no route, only the mount's root_path.
        root = scope.get("root_path")
        if isinstance(root, str) and root and scope.get("endpoint") is not None:
            return root.rstrip("/") + "/{path}"
        return "unmatched"
    if route.__class__.__name__ == "Mount":
        return path.rstrip("/") + "/{path}"
    return path


def _cookie_player(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> str | None:
    prefix = COOKIE.encode() + b"="
    for key, value in headers:
        if key != name:
            continue
        for part in value.split(b";"):
            part = part.strip()
            if part.startswith(prefix):
                player = part[len(prefix) :].decode("latin-1")
                return player if _ID.fullmatch(player) else None
    return None


class RequestObserver:
    """Outermost middleware: times each request, counts it, and logs it in one line."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        started_response = False
        issued: str | None = None

        async def observed_send(message: Message) -> None:
            nonlocal status, issued, started_response
            if message["type"] == "http.response.start":
                started_response = True
                status = int(message["status"])
                issued = _cookie_player(message.get("headers", ()), b"set-cookie")
            await send(message)

        error: str | None = None
        try:
            await self.app(scope, receive, observed_send)
        except Exception as exc:
            status, error = 500, type(exc).__name__
            raise
        except asyncio.CancelledError:
            # The client went away (a page navigated off, a tab closed): not the
            # server's fault, so not a 500. 499 is nginx's "client closed request";
            # a response already begun keeps its status.
            if not started_response:
                status = 499
            error = "cancelled"
            raise
        finally:
            elapsed = time.perf_counter() - started
            route = _route(scope)
            method = str(scope.get("method", ""))
            REQUESTS.labels(method=method, route=route, status=str(status)).inc()
            LATENCY.labels(method=method, route=route).observe(elapsed)
            self._log(scope, method, route, status, elapsed, issued, error)

    @staticmethod
    def _log(
        scope: Scope,
        method: str,
        route: str,
        status: int,
        elapsed: float,
        issued: str | None,
        error: str | None,
    ) -> None:
        if not ACCESS_LOG.isEnabledFor(logging.INFO):
            return
        headers = scope.get("headers", ())
        player = issued or _cookie_player(headers, b"cookie")
        fields: dict[str, Any] = {
            "method": method,
            "route": route,
            "status": status,
            "ms": round(elapsed * 1000, 2),
            "player": None if player is None else player_hash(player),
            "pid": os.getpid(),
        }
        params = scope.get("path_params") or {}
        # Ids and numbers only: a static file's path or a guide page's name says nothing.
        # Never a club's invitation: whoever holds it may join (``clubs.py``).
        ids = {k: str(v)[:64] for k, v in params.items() if k not in ("path", "invitation")}
        if ids:
            fields["params"] = ids
        for key, value in headers:
            if key == b"x-request-id":
                text = value.decode("latin-1")
                if _REQUEST_ID.fullmatch(text):
                    fields["request_id"] = text
        if error is not None:
            fields["error"] = error
        ACCESS_LOG.info("request", extra={"fields": fields})


# Health, readiness, metrics -------------------------------------------------------------

router = APIRouter(tags=["operations"], include_in_schema=False)


@cache
def _migration_heads() -> frozenset[str]:
    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is alive and answering; says nothing about the database. On the
    event loop itself, not the thread pool: it answers as soon as the loop is free."""
    return {"status": "ok"}


@router.get("/readyz")
def readyz(request: Request) -> JSONResponse:
    """Ready to serve: the database answers, its schema is at the migrations' head,
    and today's daily commitment, if made, is the one this server's secret gives."""
    engine: Engine = request.app.state.engine
    try:
        with engine.connect() as conn:
            current = frozenset(MigrationContext.configure(conn).get_current_heads())
    except sa_exc.SQLAlchemyError as exc:
        return _not_ready({"database": f"unreachable ({type(exc).__name__})"})
    checks = {"database": "ok"}
    heads = _migration_heads()
    if current != heads:
        checks["migrations"] = f"at {sorted(current) or 'nothing'}, head is {sorted(heads)}"
        return _not_ready(checks)
    checks["migrations"] = "at head"
    checks["daily_secret"] = _daily_secret_check(request)
    if checks["daily_secret"] != "ok":
        return _not_ready(checks)
    return JSONResponse({"status": "ready", "checks": checks})


def _daily_secret_check(request: Request) -> str:
    today = daily_game.day_of(datetime.now(UTC))
    try:
        row = DailyStore(request.app.state.engine).day(today)
    except sa_exc.SQLAlchemyError as exc:
        return f"cannot read today's day ({type(exc).__name__})"
    seed = daily_game.day_seed(server_secret(request.app.state.settings), today)
    if row is not None and row.commitment != daily_game.commitment(seed):
        # Another machine made today's commitment with another secret: this one would
        # deal other cards than the ones the day is committed to.
        return "this server's SHEEPSHEAD_DAILY_SECRET is not the one today was committed with"
    return "ok"


def _not_ready(checks: dict[str, str]) -> JSONResponse:
    return JSONResponse({"status": "unavailable", "checks": checks}, status_code=503)


def _check_scrape(request: Request) -> None:
    """Lets through a request bearing the metrics token; 404 while none is set (the
    endpoint is off), 401 for a missing or wrong one."""
    token: str = request.app.state.settings.metrics_token
    if not token:
        raise HTTPException(404, "Not Found")
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    # In constant time: how long a wrong guess took tells nothing of the token.
    if scheme.lower() != "bearer" or not hmac.compare_digest(
        given.strip().encode(), token.encode()
    ):
        raise HTTPException(
            401,
            "metrics: send the token of SHEEPSHEAD_METRICS_TOKEN as Authorization: Bearer",
            headers={"www-authenticate": 'Bearer realm="metrics"'},
        )


@router.get("/metrics")
def metrics(request: Request) -> PlainTextResponse:
    """Prometheus' text exposition format, for a scrape that bears the metrics token."""
    _check_scrape(request)
    gauges: DatabaseGauges = request.app.state.database_gauges
    return PlainTextResponse(
        exposition(gauges), media_type="text/plain; version=0.0.4; charset=utf-8"
    )


async def _database_down(request: Request, exc: Exception) -> Response:
    # A page says so in the reader's language (errors.py); the API in its JSON.
    return refusal(request, 503, DATABASE_DOWN, {"retry-after": str(RETRY_AFTER_SECONDS)})


def install(app: FastAPI) -> None:
    """Registers the routes, the 503 for a lost database, and the request observer
    (outermost, so its times include every other middleware)."""
    configure_access_log()
    app.state.database_gauges = DatabaseGauges(app.state.engine)
    app.include_router(router)
    # Connection lost or refused, pool exhausted: the database, not the request, is at
    # fault. Other database errors (a broken constraint) stay 500s: they are bugs.
    for error in (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError):
        app.add_exception_handler(error, _database_down)
    app.add_middleware(RequestObserver)
