"""Helpers of the browser tests (their fixtures are in ``conftest.py``): Chromium and
its arguments, the viewports, the Content-Security-Policy pages are served with, and
``Visitor``, a new visitor's browser context."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

from fastapi import FastAPI
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route, ViewportSize

from sheepshead.server import guide

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
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 360, "height": 740}
# The guide's pages, in its own order.
GUIDE_PAGES = [page.url for page in guide.PAGES]
#: The app behind each address the ``server`` fixture serves, for a test that looks in
#: its database.
SERVED: dict[str, FastAPI] = {}


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
    browser: Browser, server: str, viewport: ViewportSize, reduced_motion: str = "reduce"
) -> Iterator[Visitor]:
    context = browser.new_context(
        viewport=viewport,
        reduced_motion=reduced_motion,  # type: ignore[arg-type]
        # The service worker has a test of its own (test_clubs_browser.py); here its
        # caching of the guide after each first page would only load the server.
        service_workers="block",
        base_url=server,
        accept_downloads=True,
    )
    context.set_default_timeout(15_000)
    yield Visitor(context, server)
    context.close()


def run_out_the_retries(page: Page, reported: Locator, attempts: list[str]) -> None:
    """Move the page's clock (installed with ``page.clock.install()`` before it loaded)
    through api.js's waits between attempts, until ``reported`` shows; the page still
    makes every attempt, in order, without the test sitting through 7.4 s of waits.
    ``attempts`` are the requests the test's route dropped: the first and four retries."""
    deadline = time.monotonic() + 15
    while not reported.is_visible():
        assert time.monotonic() < deadline, f"not reported after {len(attempts)} attempts"
        page.clock.fast_forward(500)
    assert len(attempts) == RETRIES + 1, attempts


#: How many times api.js tries a request again before it says the connection is lost.
RETRIES = 4
