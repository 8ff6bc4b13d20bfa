"""Past its capacity a worker refuses at once: 503 with Retry-After, the page in the
reader's language, the API with its code; the requests it holds go on unharmed."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from sheepshead.server import Settings, create_app


async def call(
    app: FastAPI, method: str, path: str, receive: Any = None
) -> tuple[int, dict[str, str], bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"localhost"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
        "server": ("localhost", 80),
        "root_path": "",
    }
    sent: list[MutableMapping[str, Any]] = []

    async def no_body() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive or no_body, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    headers = {k.decode(): v.decode() for k, v in start["headers"]}
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], headers, body


def test_a_request_past_the_limit_gets_503_with_retry_after_at_once(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, dev=True, rate_identities=None, max_in_flight=1)
    app = create_app(settings)

    async def scenario() -> None:
        release = asyncio.Event()

        async def slow_body() -> dict[str, Any]:
            # A request whose body is still on its way: the worker holds it meanwhile.
            await release.wait()
            return {"type": "http.request", "body": b'{"level": "standard"}', "more_body": False}

        held = asyncio.create_task(call(app, "POST", "/api/v1/games", slow_body))
        await asyncio.sleep(0.05)
        status, headers, body = await asyncio.wait_for(
            call(app, "POST", "/api/v1/games"), timeout=1
        )
        assert status == 503
        assert headers["retry-after"] == "1"
        refusal = json.loads(body)
        assert refusal["code"] == "busy"
        assert refusal["params"] == {"seconds": 1}
        status, headers, page = await call(app, "GET", "/")
        assert status == 503
        assert headers["retry-after"] == "1"
        assert b"busy" in page
        assert headers["content-type"].startswith("text/html")
        # The probes still answer: a busy worker is alive.
        status, _, _ = await call(app, "GET", "/healthz")
        assert status == 200
        # A page's static files are served all the same: its stylesheet is never refused.
        prefix = str(app.state.templates.env.globals["static_prefix"])
        asked = asyncio.Event()

        async def then_connected() -> dict[str, Any]:
            # A file's reply listens for the client leaving: it stays, until the reply ends.
            if asked.is_set():
                await asyncio.Event().wait()
            asked.set()
            return {"type": "http.request", "body": b"", "more_body": False}

        status, headers, _ = await asyncio.wait_for(
            call(app, "GET", f"{prefix}/css/site.css", then_connected), timeout=5
        )
        assert status == 200
        assert headers["content-type"].startswith("text/css")
        release.set()
        status, _, _ = await held
        assert status == 201
        # With the worker free again, the next request is served.
        status, _, _ = await call(app, "GET", "/api/v1/games/current")
        assert status in (200, 404)

    try:
        # A thread of its own: a browser test's Playwright may hold this thread's loop.
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, scenario()).result()
    finally:
        app.state.engine.dispose()
