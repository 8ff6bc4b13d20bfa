"""The anonymous player: a random id in a cookie, issued by the first change.

Only a request that changes something (POST, PUT, PATCH, DELETE: starting a game or
a daily attempt, choosing a name) makes a new player when its cookie names none.
A read (GET, HEAD) never does: looking at the site leaves nothing behind, and a
school or an office behind one address cannot use up the limit on new identities
by opening pages. The route's dependency records a new id in the request state and
``IdentityCookie`` adds the Set-Cookie header to whatever response goes out (errors
included, so a first game that ends in a 422 still keeps its identity).
"""

from __future__ import annotations

import re
import secrets
from typing import Annotated, Protocol

from fastapi import Depends, Request
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sheepshead.server.settings import Settings
from sheepshead.store.identity import IdentityStore


class IdentityLimit(Protocol):
    """The limit on new identities per network address (``security.RateLimiter``,
    which imports this module's cookie name: named here by what it does, no cycle)."""

    def new_identity(self, request: Request) -> None: ...


COOKIE = "sheepshead_player"
#: About 13 months: the longest a browser keeps a cookie (Chrome caps at 400 days).
MAX_AGE = 400 * 24 * 3600
#: The form of a player id (and so of the cookie's value).
ID_FORM = _ID = re.compile(r"[0-9a-f]{32}")
_LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1"}
_STATE_KEY = "sheepshead_new_player"
#: Methods that may change something; the others are only ever reads.
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def identities_of(request: Request) -> IdentityStore:
    identities: IdentityStore = request.app.state.identities
    return identities


IdentitiesDep = Annotated[IdentityStore, Depends(identities_of)]


def current_player(request: Request, identities: IdentitiesDep) -> str:
    """The player's id. When the cookie names none: a new anonymous player for a
    request that changes something; for a read, a stranger's id, made up for this
    request and never stored nor sent, so that the route answers as it does for a
    player who has nothing yet (no game: 404; no attempt today)."""
    player_id = request.cookies.get(COOKIE)
    if player_id is not None and _ID.fullmatch(player_id) and identities.has_player(player_id):
        return player_id
    if request.method not in UNSAFE:
        return secrets.token_hex(16)
    # New identities are rate-limited per network address (security.py).
    limiter: IdentityLimit | None = getattr(request.app.state, "limiter", None)
    if limiter is not None:
        limiter.new_identity(request)
    player_id = identities.new_player()
    request.scope.setdefault("state", {})[_STATE_KEY] = player_id
    return player_id


PlayerDep = Annotated[str, Depends(current_player)]


def known_player(request: Request, identities: IdentitiesDep) -> str | None:
    """The player named by the cookie, or None: for what a visitor may read without an
    identity (the leaderboard), so that reading makes none and meets no limit."""
    player_id = request.cookies.get(COOKIE)
    if player_id is not None and _ID.fullmatch(player_id) and identities.has_player(player_id):
        return player_id
    return None


KnownPlayerDep = Annotated[str | None, Depends(known_player)]


def cookie_header(player_id: str, secure: bool) -> str:
    parts = [f"{COOKIE}={player_id}", f"Max-Age={MAX_AGE}", "Path=/", "HttpOnly", "SameSite=Lax"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


def _is_local_http(scope: Scope) -> bool:
    if scope.get("scheme") != "http":
        return False
    for name, value in scope.get("headers", ()):
        if name == b"host":
            host = value.decode("latin-1").lower()
            host = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            return host in _LOCAL_HOSTS
    return False


class IdentityCookie:
    """Sets the identity cookie on the response of a request that issued an identity."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                player_id = state.get(_STATE_KEY)
                if player_id is not None:
                    secure = not (self.settings.dev and _is_local_http(scope))
                    headers = MutableHeaders(scope=message)
                    headers.append("set-cookie", cookie_header(player_id, secure))
            await send(message)

        await self.app(scope, receive, send_with_cookie)
