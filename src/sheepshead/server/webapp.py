"""The site as an app to install: its manifest (``/manifest.webmanifest``), its
service worker (``/sw.js``) and the page the worker shows offline (``/offline/<lang>``).

The worker keeps the static files of the current build and the rules guide, for
reading offline, and the offline page in each language; it never keeps ``/api/`` nor a
page that carries a player's data. Its cache is named after the static files' build
(``static.py``), so a new build's worker replaces the old cache. ``docs/deploy.md``
says what an operator needs to know.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

from sheepshead.server import i18n
from sheepshead.server.guide import PAGES

router = APIRouter(include_in_schema=False)
#: Where an installed app opens: the table.
START_URL = "/play"
THEME = "#1d5a3a"
#: The manifest and the worker must be checked again often: a new build changes them.
_REVALIDATE = "no-cache"


def _static(request: Request) -> tuple[str, Path]:
    templates: Jinja2Templates = request.app.state.templates
    prefix = str(templates.env.globals["static_prefix"])
    return prefix, Path(request.app.state.settings.static_dir)


@router.get("/manifest.webmanifest")
def manifest(request: Request) -> Response:
    prefix, _ = _static(request)
    body: dict[str, Any] = {
        "id": START_URL,
        "name": "Sheepshead",
        "short_name": "Sheepshead",
        "description": i18n.gettext(
            "Play Sheepshead, Wisconsin's classic trick-taking card game, free in your "
            "browser against computer players."
        ),
        "lang": i18n.current(),
        "start_url": START_URL,
        "scope": "/",
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [
            {"src": f"{prefix}/img/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": f"{prefix}/img/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {
                "src": f"{prefix}/img/icon-maskable-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": f"{prefix}/img/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JSONResponse(
        body,
        media_type="application/manifest+json",
        headers={"cache-control": _REVALIDATE, "vary": "Accept-Language, Cookie"},
    )


def _offline_urls() -> dict[str, str]:
    return {lang: f"/offline/{lang}" for lang in i18n.LANGUAGES}


@router.get("/sw.js")
def service_worker(request: Request) -> Response:
    prefix, directory = _static(request)
    files = sorted(
        f"{prefix}/{p.relative_to(directory).as_posix()}"
        for p in directory.rglob("*")
        if p.is_file()
    )
    templates: Jinja2Templates = request.app.state.templates
    build = prefix.rsplit("/", 1)[-1]
    script = templates.env.get_template("sw.js").render(
        cache=f"sheepshead-{build}",
        files=files,
        guide=[page.url for page in PAGES],
        offline=_offline_urls(),
    )
    return Response(
        script,
        media_type="text/javascript",
        headers={"cache-control": _REVALIDATE, "service-worker-allowed": "/"},
    )


@router.get("/offline/{lang}", response_class=HTMLResponse)
def offline(request: Request, lang: str) -> HTMLResponse:
    if lang not in i18n.LANGUAGES:
        raise HTTPException(404, f"no language {lang!r}")
    templates: Jinja2Templates = request.app.state.templates
    with i18n.speaking(lang):
        response = templates.TemplateResponse(request, "offline.html", {"page": "offline"})
    response.headers["cache-control"] = _REVALIDATE
    return response
