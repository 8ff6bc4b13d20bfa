"""Hostile requests: forged cross-site changes, oversized bodies, floods; and the
response headers that keep pages from being framed, sniffed or fed foreign script.

``install(app, settings)`` adds all of it to the app (``docs/api.md``, Security):

- ``Guard``, in front of every route: a request that changes something (POST, PUT,
  PATCH, DELETE) is refused with 403 when a browser says it comes from another site
  (``cross_site``), with 413 when its body is over ``settings.max_body_bytes``, and
  with 429 when its player or network address is over its rate
  (``settings.rate_actions``, ``settings.rate_actions_per_address``);
- ``RateLimiter.new_identity``, called by ``identity.current_player`` before it
  creates a player (only ever for a request that changes something): 429 past
  ``settings.rate_identities`` per network address;
- ``SecurityHeaders`` on every response;
- the OpenAPI document lists the errors all this may answer.

The rate limits live in the database (``store/rates.py``), so every worker and
machine counts against the same budget.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import re
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request
from sqlalchemy import Engine
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sheepshead.phrases import refusal_english
from sheepshead.server import refused
from sheepshead.server.errors import refusal
from sheepshead.server.identity import COOKIE, UNSAFE
from sheepshead.server.refused import Refused
from sheepshead.server.secret import server_secret
from sheepshead.server.settings import Rate, Settings
from sheepshead.store.rates import MICROS, Charge, RateStore

#: For the pages: scripts and styles from this site only, never inline.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
#: For JSON: nothing at all runs or loads should one be opened as a document.
JSON_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"
#: The OpenAPI browser loads its script from a CDN and runs inline code: no CSP there.
_NO_CSP = {"/api/v1/docs", "/api/v1/docs/oauth2-redirect"}
#: The browser features no page of the site uses.
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), payment=(), usb=(), interest-cohort=()"
)
HSTS = "max-age=31536000"
_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
    (b"cross-origin-opener-policy", b"same-origin"),
    # No other site may embed the site's responses (images, JSON) in its pages.
    (b"cross-origin-resource-policy", b"same-origin"),
]
_ID = re.compile(r"[0-9a-f]{32}")
#: The database away or overloaded: not the limiter's to report (the route will, 503).
DATABASE_DOWN = (OperationalError, InterfaceError, PoolTimeout)
#: How often a process deletes the rate buckets that are full again.
SWEEP_SECONDS = 60.0


# Headers ------------------------------------------------------------------------------


class SecurityHeaders:
    """The usual security headers on every response; a CSP on pages and JSON;
    ``Strict-Transport-Security`` outside development; API replies never cached."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.headers = list(_HEADERS)
        if not settings.dev:
            self.headers.append((b"strict-transport-security", HSTS.encode()))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ()), *self.headers]
                kind = next((v for k, v in headers if k == b"content-type"), b"")
                if path not in _NO_CSP and kind.startswith(b"text/html"):
                    headers.append((b"content-security-policy", CSP.encode()))
                elif kind.startswith(b"application/json"):
                    headers.append((b"content-security-policy", JSON_CSP.encode()))
                if path.startswith("/api/") and not any(k == b"cache-control" for k, _ in headers):
                    # A player's game is no business of any cache between here and them.
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


# Cross-site requests ------------------------------------------------------------------


def cross_site(method: str, headers: Headers, trusted: Iterable[str] = ()) -> str | None:
    """Why a request must be refused as a cross-site forgery, or None.

    Browsers say where a request comes from: ``Sec-Fetch-Site`` (every current
    browser) and, on every POST, PUT, PATCH and DELETE, ``Origin``. A request
    carrying neither did not come from a browser that a page could have tricked.
    """
    if method.upper() not in UNSAFE:
        return None
    site = headers.get("sec-fetch-site")
    if site in ("same-origin", "none"):
        return None
    origin = headers.get("origin")
    if origin is not None and origin.rstrip("/") in trusted:
        return None
    if site is not None:
        return (
            f"refused: this request came from another site (Sec-Fetch-Site: {site}); "
            "changes are accepted from Sheepshead's own pages only"
        )
    if origin is None:
        return None
    host = headers.get("host", "")
    if origin == "null" or urlsplit(origin).netloc.lower() != host.lower():
        return (
            f"refused: this request came from another site (Origin: {origin[:100]}); "
            "changes are accepted from Sheepshead's own pages only"
        )
    return None


# Rate limits --------------------------------------------------------------------------


class RateLimited(Exception):
    def __init__(self, retry_after: int, what: str) -> None:
        super().__init__(what)
        self.retry_after = retry_after
        self.what = what

    @property
    def detail(self) -> str:
        return wait_detail("too-many-requests", self.retry_after)


def wait_detail(code: str, wait: int) -> str:
    """A rate limit's sentence (``phrases.REFUSALS``): seconds under two minutes, else
    whole minutes, as ``Retry-After`` rounds up."""
    if wait < 120:
        return refusal_english(code, {"n": wait}, "seconds")
    return refusal_english(code, {"n": math.ceil(wait / 60)}, "minutes")


def client_network(scope: Scope) -> str:
    """The client's address; for IPv6 its /64, which one subscriber usually holds whole."""
    client = scope.get("client")
    host = str(client[0]) if client else "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _cookie_player(headers: Headers) -> str | None:
    for part in headers.get("cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE and _ID.fullmatch(value):
            return value
    return None


class RateLimiter:
    """The app's rate limits; each bucket's key is a keyed hash, never an address
    or a player id in the clear. ``clock`` (seconds) is replaceable by tests."""

    def __init__(self, engine: Engine, settings: Settings, secret: bytes) -> None:
        self.store = RateStore(engine)
        self.settings = settings
        self.secret = secret
        self.clock: Callable[[], float] = time.time
        self._swept = 0.0
        self._lock = threading.Lock()

    def key(self, what: str, who: str) -> str:
        digest = hmac.new(self.secret, f"rate:{what}:{who}".encode(), hashlib.sha256)
        return f"{what}:{digest.hexdigest()[:40]}"

    def charge(self, charges: list[tuple[str, str, Rate]], what: str) -> None:
        """Take one request from each ``(bucket, who, rate)``; raises RateLimited."""
        buckets = [
            Charge(self.key(name, who), rate.count, round(rate.seconds * MICROS), rate.burst)
            for name, who, rate in charges
        ]
        if not buckets:
            return
        now = round(self.clock() * MICROS)
        wait = self.store.take(buckets, now)
        self._sweep(now)
        if wait is not None:
            raise RateLimited(math.ceil(wait / MICROS), what)

    def _sweep(self, now: int) -> None:
        with self._lock:
            if now / MICROS - self._swept < SWEEP_SECONDS:
                return
            self._swept = now / MICROS
        self.store.sweep(now)

    def _action_charges(self, scope: Scope, headers: Headers) -> list[tuple[str, str, Rate]]:
        charges: list[tuple[str, str, Rate]] = []
        player = _cookie_player(headers)
        if player is not None and self.settings.rate_actions is not None:
            charges.append(("actions", player, self.settings.rate_actions))
        if self.settings.rate_actions_per_address is not None:
            network = client_network(scope)
            charges.append(("address", network, self.settings.rate_actions_per_address))
        return charges

    def actions(self, scope: Scope, headers: Headers) -> None:
        """Charge a request that changes something to its player and its address."""
        self.charge(self._action_charges(scope, headers), "requests")

    def step_charges(self, scope: Scope) -> tuple[list[Charge], int]:
        """The buckets a table's step takes from, and now (microseconds): the step's
        own transaction charges them (``Store.save``), not a transaction of their own."""
        now = round(self.clock() * MICROS)
        self._sweep(now)
        return [
            Charge(self.key(name, who), rate.count, round(rate.seconds * MICROS), rate.burst)
            for name, who, rate in self._action_charges(scope, Headers(scope=scope))
        ], now

    @staticmethod
    def refusal(wait: int) -> Refused:
        """The 429 for a request a bucket refused, ``wait`` microseconds before it may."""
        exc = RateLimited(math.ceil(wait / MICROS), "requests")
        return Refused(
            429,
            exc.detail,
            "too-many-requests",
            {"seconds": exc.retry_after},
            headers={"retry-after": str(exc.retry_after)},
        )

    def new_identity(self, request: Request) -> None:
        """Before a new player is created: raises HTTPException 429 past the rate."""
        rate = self.settings.rate_identities
        if rate is None:
            return
        try:
            self.charge([("identity", client_network(request.scope), rate)], "new players")
        except RateLimited as exc:
            raise Refused(
                429,
                wait_detail("too-many-new-players", exc.retry_after),
                "too-many-new-players",
                {"seconds": exc.retry_after},
                headers={"retry-after": str(exc.retry_after)},
            ) from None
        except DATABASE_DOWN:
            # The limiter is not the place to report the database away: creating
            # the player will, in a moment, with the app's own answer.
            return


#: A table's steps: the route charges the rate limits in the step's own transaction.
_STEP = re.compile(r"/api/v1/games/[0-9a-f]{32}/(actions|next-hand)")


def charged_by_route(path: str) -> bool:
    return _STEP.fullmatch(path) is not None


def limiter_of(app: Any) -> RateLimiter | None:
    found: RateLimiter | None = getattr(app.state, "limiter", None)
    return found


# The guard ----------------------------------------------------------------------------


class BodyTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(
            413, f"the request body is larger than the {limit} bytes this server accepts"
        )


class Guard:
    """Refuses forged, oversized and too frequent requests before any route sees them."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        method: str = scope["method"]
        limit = self.settings.max_body_bytes

        reason = cross_site(method, headers, self.settings.trusted_origins)
        if reason is not None:
            await refusal(Request(scope), 403, reason)(scope, receive, send)
            return
        length = headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            detail = BodyTooLarge(limit).detail
            await refusal(Request(scope), 413, detail)(scope, receive, send)
            return
        limiter = limiter_of(scope["app"]) if "app" in scope else None
        if (
            method in UNSAFE
            and limiter is not None
            and scope["path"].startswith("/api/")
            and not charged_by_route(scope["path"])
        ):
            try:
                await run_in_threadpool(limiter.actions, scope, headers)
            except RateLimited as exc:
                response = JSONResponse(
                    refused.body(exc.detail, "too-many-requests", {"seconds": exc.retry_after}),
                    status_code=429,
                    headers={"retry-after": str(exc.retry_after)},
                )
                await response(scope, receive, send)
                return
            except DATABASE_DOWN:
                pass  # as in new_identity: the route answers for the database

        received = 0

        async def receive_at_most() -> Message:
            # A body sent in chunks, without Content-Length, is counted as it comes.
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        await self.app(scope, receive_at_most, send)


# The OpenAPI document -----------------------------------------------------------------


#: The API's routes that never touch the database (re-deriving a hand from its seed).
_NO_DATABASE = {"/api/v1/verify"}


def _error(description: str, retry_after: bool = False) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
    if retry_after:
        response["headers"] = {
            "Retry-After": {
                "description": "Seconds to wait before trying again",
                "schema": {"type": "integer"},
            }
        }
    return response


def document_errors(app: FastAPI) -> None:
    """The OpenAPI document lists the errors the guard, the identity's rate limit (on
    changes only: a read makes no identity) and the validation handler answer, with
    the ``{"detail"}`` body they really have."""
    original = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = original()
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components.setdefault(
            "Error",
            {
                "type": "object",
                "properties": {"detail": {"type": "string", "title": "Detail"}},
                "required": ["detail"],
                "title": "Error",
            },
        )
        for path, operations in schema.get("paths", {}).items():
            for method, operation in operations.items():
                responses = operation.setdefault("responses", {})
                if path not in _NO_DATABASE:
                    # observability.py answers any route that cannot reach the database.
                    lost = "The database cannot be reached just now: try again"
                    if "503" in responses:
                        # Told apart by Retry-After: only the passing outage sends it.
                        lost = (
                            f"{responses['503'].get('description')} (no Retry-After: do not "
                            f"retry); or: {lost} (with Retry-After)"
                        )
                    responses["503"] = _error(lost, retry_after=True)
                if "422" in responses:
                    responses["422"] = _error(
                        responses["422"].get("description") or "Malformed, with the reason"
                    )
                if "requestBody" in operation:
                    responses.setdefault("400", _error("The body is not JSON text"))
                    responses.setdefault("413", _error("The body is too large"))
                if method.upper() in UNSAFE:
                    responses.setdefault("403", _error("Sent from another site's page"))
                    responses.setdefault("429", _error("Too many requests", retry_after=True))
        for unused in ("HTTPValidationError", "ValidationError"):
            components.pop(unused, None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


# Installing ---------------------------------------------------------------------------


def install(app: FastAPI, settings: Settings, engine: Engine) -> None:
    """The rate limiter (``app.state.limiter``), the guard and the security headers
    (outside the guard, so its refusals carry them), and the OpenAPI errors."""
    app.state.limiter = RateLimiter(engine, settings, server_secret(settings))
    app.add_middleware(Guard, settings=settings)
    app.add_middleware(SecurityHeaders, settings=settings)
    document_errors(app)
