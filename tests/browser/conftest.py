"""Browser tests: the real app under uvicorn on a free port (a thread, a temporary
SQLite database), driven through Debian's Chromium with Playwright.

Each test gets a fresh browser context: a new visitor, with no cookie and nothing in
localStorage. Pages are served with a Content-Security-Policy that forbids inline
script and style, as production will be. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Route, sync_playwright

from sheepshead.server import Settings, create_app, guide

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
# The guide's pages, in its own order.
GUIDE_PAGES = [page.url for page in guide.PAGES]
#: The app behind each address the ``server`` fixture serves, for a test that looks in
#: its database.
SERVED: dict[str, FastAPI] = {}


@pytest.fixture(scope="session")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The app's address. A module that needs other settings gets a server of its own
    (and its own database) with ``pytest.mark.parametrize("server", [{...}],
    indirect=True)``: the dict's items are passed on to ``Settings``."""
    overrides: dict[str, Any] = getattr(request, "param", {})
    data_dir = tmp_path_factory.mktemp("browser-data")
    # Every test is a new visitor from 127.0.0.1: no limit on new identities here.
    settings = Settings(data_dir=data_dir, dev=True, rate_identities=None)
    app = create_app(replace(settings, **overrides))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    uv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not uv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the app did not start")
        time.sleep(0.05)
    address = f"http://127.0.0.1:{port}"
    SERVED[address] = app
    yield address
    del SERVED[address]
    uv.should_exit = True
    thread.join(timeout=10)
    sock.close()
    app.state.engine.dispose()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: `make browser` installs Debian's chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


def _with_csp(route: Route) -> None:
    response = route.fetch()
    headers = {**response.headers, "content-security-policy": CSP}
    route.fulfill(response=response, headers=headers)


class Visitor:
    """A new visitor's browser context; ``errors`` collects script errors and CSP reports."""

    def __init__(self, context: BrowserContext, base: str) -> None:
        self.context = context
        self.base = base
        self.errors: list[str] = []
        context.route(lambda url: "/api/" not in url and "/static/" not in url, _with_csp)

    def new_page(self) -> Page:
        page = self.context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))

        def console(message: object) -> None:
            kind = getattr(message, "type", "")
            text = getattr(message, "text", "")
            if kind == "error":
                self.errors.append(f"console: {text}")

        page.on("console", console)
        return page


def visitor_for(
    browser: Browser, server: str, viewport: dict[str, int], reduced_motion: str = "reduce"
) -> Iterator[Visitor]:
    context = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        reduced_motion=reduced_motion,  # type: ignore[arg-type]
        base_url=server,
        accept_downloads=True,
        # The service worker has a test of its own (test_clubs_browser.py); here its
        # caching of the guide after each first page would only load the server.
        service_workers="block",
    )
    context.set_default_timeout(15_000)
    yield Visitor(context, server)
    context.close()


@pytest.fixture
def desktop(browser: Browser, server: str) -> Iterator[Visitor]:
    yield from visitor_for(browser, server, DESKTOP)


@pytest.fixture
def phone(browser: Browser, server: str) -> Iterator[Visitor]:
    yield from visitor_for(browser, server, PHONE)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
