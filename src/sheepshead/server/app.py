"""The application factory: the composition root of the server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import jinja2
from fastapi import FastAPI, Request
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool
from starlette.middleware.gzip import GZipMiddleware

from sheepshead.server import (
    api,
    catalog,
    clubs,
    coach,
    daily_web,
    errors,
    friends,
    guide,
    i18n,
    lesson,
    me,
    observability,
    pages,
    refused,
    security,
    webapp,
)
from sheepshead.server.capacity import InFlightLimit
from sheepshead.server.head import HeadAsGet
from sheepshead.server.identity import IdentityCookie
from sheepshead.server.settings import Settings
from sheepshead.server.static import VersionedStatic
from sheepshead.server.tables import Tables
from sheepshead.store import Store, migrate, open_engine
from sheepshead.store.identity import IdentityStore


def _templates(settings: Settings, static: VersionedStatic) -> Jinja2Templates:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(settings.templates_dir),
        autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
    )

    def static_url(path: str) -> str:
        return f"/static/{static.url_path(path)}"

    @jinja2.pass_context
    def url_for(context: dict[str, Any], name: str, /, **params: Any) -> str:
        if name == "static" and "path" in params:
            params = {**params, "path": static.url_path(str(params["path"]))}
        request: Request = context["request"]
        return str(request.url_for(name, **params).path)

    env.globals["static_prefix"] = f"/static/{static.build}"
    env.globals["static_url"] = static_url
    env.globals["url_for"] = url_for
    i18n.install(env)
    catalog.install(env)
    return Jinja2Templates(env=env)


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    # The friends' tables' clocks tick from start-up, requests or not (server/live.py).
    hub = app.state.hub
    hub.start()
    yield
    await hub.stop()
    # The daily game's background work ends before the process (and its database) does.
    daily = getattr(app.state, "daily", None)
    if daily is not None:
        await run_in_threadpool(daily.close, 30.0)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = Settings.from_env() if settings is None else settings
    engine = open_engine(settings.database)
    if settings.migrate:
        migrate(engine)
    store = Store(engine)

    app = FastAPI(
        lifespan=_lifespan,
        title="Sheepshead",
        version="1",
        summary="Wisconsin's card game against computer players: the table's API.",
        openapi_url="/api/v1/openapi.json",
        # Swagger UI loads its script from a CDN: a third party no player page may call
        # on (privacy page), so it is for development only; openapi.json is always there.
        docs_url="/api/v1/docs" if settings.dev else None,
        redoc_url=None,
    )
    static = VersionedStatic(settings.static_dir)
    app.state.settings = settings
    app.state.engine = engine
    app.state.store = store
    app.state.identities = IdentityStore(engine)
    app.state.tables = Tables(store)
    app.state.templates = _templates(settings, static)
    errors.install(app)
    # A refusal with its code and parameters beside the sentence (``refused.py``).
    app.add_exception_handler(refused.Refused, refused.handler)
    app.include_router(api.router)
    app.include_router(catalog.router)
    app.include_router(pages.router)
    app.include_router(daily_web.router)
    app.include_router(me.router)
    app.include_router(guide.router)
    app.include_router(clubs.router)
    app.include_router(webapp.router)
    app.include_router(lesson.router)
    app.include_router(lesson.pages)
    coach.install(app)
    friends.install(app)
    app.mount("/static", static, name="static")
    app.add_middleware(IdentityCookie, settings=settings)
    app.add_middleware(i18n.LocaleMiddleware)
    security.install(app, settings, engine)
    app.add_middleware(GZipMiddleware, minimum_size=500)
    # Outside the compression, so that HEAD gets the very headers GET would.
    app.add_middleware(HeadAsGet)
    # Past capacity, refused before any other work (but seen by the request log).
    app.add_middleware(InFlightLimit, settings=settings)
    # Last: its routes, its 503 for a lost database, and the outermost middleware.
    observability.install(app)
    return app
