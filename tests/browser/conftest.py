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
from playwright.sync_api import (
    Browser,
    Playwright,
    sync_playwright,
)

from browser.helpers import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    SERVED,
    Visitor,
    visitor_for,
)
from sheepshead.server import Settings, create_app


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
