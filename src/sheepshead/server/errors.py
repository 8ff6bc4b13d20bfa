"""Refusals as their reader meets them: a person opening a page gets an HTML page in
their language saying what happened and when to try again (``templates/error.html``);
a program calling the API keeps its JSON ``{"detail": ...}``.

A request is for a page unless its path is the API's (``/api/``), a static file's, or
one of the operator's endpoints (``/healthz``, ``/readyz``, ``/metrics``), which keep
their plain answers. The language is decided from the request itself (``?lang=``, the
``lang`` cookie, ``Accept-Language``, as ``i18n.negotiate`` does), so that a refusal
made outside ``LocaleMiddleware`` (the guard's, a 500) speaks it too.

``install(app)`` puts these handlers in place of FastAPI's for HTTP errors, malformed
requests and unexpected errors; the guard (``security.py``) and the lost database
(``observability.py``) answer through ``refusal`` as well.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.types import Scope

from sheepshead.server import i18n

#: Paths whose refusals stay as they are (JSON, plain text): the API, the static files
#: and the operator's endpoints, all read by programs.
NOT_PAGES = ("/api/", "/static/")
OPERATIONS = frozenset({"/healthz", "/readyz", "/metrics"})
#: From this wait on, the page says minutes rather than seconds.
MINUTES_FROM = 120
#: Headers of a refusal that a page carries over (the rest describe the JSON body).
_KEPT = ("retry-after", "allow", "www-authenticate")

_log = logging.getLogger("sheepshead.errors")


def is_page(path: str) -> bool:
    """Whether a request to ``path`` is answered, when refused, with an HTML page."""
    return not path.startswith(NOT_PAGES) and path not in OPERATIONS


def language_of(scope: Scope) -> str:
    """The reader's language, from the request alone (as ``LocaleMiddleware`` decides)."""
    query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"))).get("lang")
    cookie = accept = None
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, _, text = part.strip().partition("=")
                if key == i18n.COOKIE:
                    cookie = text
        elif name == b"accept-language":
            accept = value.decode("latin-1")
    return i18n.negotiate(query, cookie, accept)


def _seconds(headers: Mapping[str, str]) -> int | None:
    value = next((v for k, v in headers.items() if k.lower() == "retry-after"), None)
    if value is None or not value.strip().isdigit():
        return None
    return int(value.strip())


def error_page(
    request: Request, status: int, headers: Mapping[str, str] | None = None, busy: bool = False
) -> Response:
    """The HTML page for a refusal with ``status``; ``headers`` as the refusal's own
    (``Retry-After``, ``Allow``, ``WWW-Authenticate`` are kept); ``busy``: a 503 because
    the server is full (``capacity.py``)."""
    headers = dict(headers or {})
    wait = _seconds(headers)
    lang = language_of(request.scope)
    templates: Jinja2Templates | None = getattr(request.app.state, "templates", None)
    kept = {k: v for k, v in headers.items() if k.lower() in _KEPT}
    kept.update({"cache-control": "no-store", "content-language": lang})
    if templates is None:  # the app is not built yet: nothing to render with
        return PlainTextResponse(str(status), status_code=status, headers=kept)
    context: dict[str, Any] = {
        "page": "error",
        "status": status,
        "wait": wait,
        "minutes": math.ceil(wait / 60) if wait is not None and wait >= MINUTES_FROM else None,
        "busy": busy,
    }
    with i18n.speaking(lang):
        # Rendered here, in the reader's language (TemplateResponse renders at once).
        return templates.TemplateResponse(
            request, "error.html", context, status_code=status, headers=kept
        )


def refusal(
    request: Request, status: int, detail: Any, headers: Mapping[str, str] | None = None
) -> Response:
    """A refusal: the HTML page for a page, else the API's ``{"detail": ...}``."""
    if is_page(request.url.path):
        return error_page(request, status, headers)
    return JSONResponse({"detail": detail}, status_code=status, headers=dict(headers or {}))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    if is_page(request.url.path):
        return error_page(request, exc.status_code, exc.headers)
    return await http_exception_handler(request, exc)


def readable(exc: RequestValidationError) -> str:
    """Pydantic's errors as one sentence: ``version: Field required``."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
        message = str(error.get("msg", "invalid"))
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts) or "malformed request"


async def _invalid(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return refusal(request, 422, readable(exc))


async def _unexpected(request: Request, exc: Exception) -> Response:
    # Starlette re-raises the error after this answer, so the server still logs it.
    if is_page(request.url.path):
        try:
            return error_page(request, 500)
        except Exception:
            _log.exception("the error page itself failed")
    return PlainTextResponse("Internal Server Error", status_code=500)


def install(app: FastAPI) -> None:
    """HTTP errors, malformed requests and unexpected errors: pages get the HTML page,
    the API its JSON (and a 500 its plain text, as before)."""
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(Exception, _unexpected)


__all__ = ["error_page", "install", "is_page", "language_of", "readable", "refusal"]
