"""The pages, rendered on the server with Jinja2: home, the table, and verify.

The templates (``server/templates/``) get ``request``, ``static_prefix`` (the static
files' URL under the current build, see ``static.py``), ``static_url(path)``,
``url_for`` (static paths come out under the build too), ``page`` (the page's name)
and, on the verify page, ``seed``, ``players``, ``result`` (the deal, as
``/api/v1/verify`` gives it), ``error``, ``names`` (the seats' names at the table, the
player's left out: the template says "You") and ``matches`` (whether the seed's SHA-256
is the ``sha256`` the link passed, the fingerprint shown at the deal; None without one).

No page makes an identity: the table's script deals the first game (and so makes
the player) when the player asks for it (``identity.py``).
"""

from __future__ import annotations

import hmac
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from sheepshead.server.api import deal_json
from sheepshead.table import names_for

router = APIRouter(include_in_schema=False)


def _render(request: Request, name: str, **context: Any) -> HTMLResponse:
    templates: Jinja2Templates = request.app.state.templates
    response = templates.TemplateResponse(request, name, {"page": name[:-5], **context})
    response.headers["cache-control"] = "no-cache"
    return response


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return _render(request, "home.html")


@router.get("/play", response_class=HTMLResponse)
def play(request: Request) -> HTMLResponse:
    return _render(request, "play.html")


@router.get("/friends", response_class=HTMLResponse)
def friends_new(request: Request) -> HTMLResponse:
    """Open a table for friends: its form (the script posts it)."""
    return _render(request, "friends.html", code=None, hints=False)


@router.get("/friends/{code}", response_class=HTMLResponse)
def friends_table(request: Request, code: Annotated[str, Path(max_length=32)]) -> HTMLResponse:
    """A friends' table: its lobby, then the table (the script fetches both); the
    coach's controls where its host allows hints."""
    stored = request.app.state.friends.store.load(code)
    hints = stored is not None and stored.status != "closed" and stored.hints
    return _render(request, "friends.html", code=code, hints=hints)


def fingerprint_matches(result: dict[str, Any], sha256: str) -> bool:
    """Whether a re-derived deal's seed is the one whose fingerprint a link passed (the
    fingerprint shown at the deal)."""
    return hmac.compare_digest(result["seed_sha256"], sha256.strip().lower())


@router.get("/verify", response_class=HTMLResponse)
def verify_page(
    request: Request,
    seed: Annotated[str | None, Query(max_length=256)] = None,
    players: Annotated[int, Query(ge=3, le=6)] = 5,
    sha256: Annotated[str | None, Query(max_length=64)] = None,
) -> HTMLResponse:
    result: dict[str, Any] | None = None
    error: str | None = None
    matches: bool | None = None
    if seed:
        try:
            result = deal_json(seed, players)
        except HTTPException as exc:
            error = str(exc.detail)
    if result is not None and sha256:
        matches = fingerprint_matches(result, sha256)
    return _render(
        request,
        "verify.html",
        seed=seed,
        players=players,
        result=result,
        error=error,
        names=names_for(players),
        sha256=sha256,
        matches=matches,
    )
