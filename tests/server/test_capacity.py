"""Past its capacity a worker refuses at once: 503 with Retry-After, the page in the
reader's language, the API with its code; the requests it holds go on unharmed."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from starlette.types import ASGIApp

from sheepshead.server import Settings, create_app
from sheepshead.server.capacity import InFlightLimit


async def call(
    app: ASGIApp, method: str, path: str, receive: Any = None
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


# --- The turn: a few run at once, the others wait a short while in order -------------


class Toy:
    """An app whose requests each run until the test lets them finish."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.finish: dict[str, asyncio.Event] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        name = scope["path"].removeprefix("/api/v1")
        self.started.append(name)
        self.finish[name] = asyncio.Event()
        message = await receive()
        await self.finish[name].wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": message.get("body", b"")})


def limited(**limits: Any) -> tuple[InFlightLimit, Toy]:
    toy = Toy()
    settings = Settings(**limits)
    return InFlightLimit(toy, settings), toy


def run(scenario: Any) -> None:
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result()


def test_past_the_running_few_a_request_waits_its_turn_in_order_and_is_served() -> None:
    limit, toy = limited(max_running=1, max_wait_ms=60_000, max_in_flight=32)

    async def scenario() -> None:
        first = asyncio.create_task(call(limit, "GET", "/api/v1/a"))
        await asyncio.sleep(0.01)
        second = asyncio.create_task(call(limit, "GET", "/api/v1/b"))
        third = asyncio.create_task(call(limit, "GET", "/api/v1/c"))
        await asyncio.sleep(0.01)
        assert toy.started == ["/a"]
        assert (limit.running, len(limit.waiting)) == (1, 2)
        toy.finish["/a"].set()
        assert (await first)[0] == 200
        await asyncio.sleep(0.01)
        assert toy.started == ["/a", "/b"]
        toy.finish["/b"].set()
        await asyncio.sleep(0.01)
        toy.finish["/c"].set()
        assert [(await t)[0] for t in (second, third)] == [200, 200]
        assert (limit.running, len(limit.waiting), limit.refused) == (0, 0, 0)

    run(scenario)


def test_a_request_that_would_wait_too_long_is_refused_on_arrival() -> None:
    limit, toy = limited(max_running=2, max_wait_ms=100, max_in_flight=32)

    async def scenario() -> None:
        # Requests measured at 80 ms each, two at a time: the first to wait would wait
        # 40 ms, the second 80 ms, the third 120 ms: past the 100 ms allowed.
        limit.seconds_per_request = 0.08
        held = [asyncio.create_task(call(limit, "GET", f"/api/v1/{n}")) for n in range(4)]
        await asyncio.sleep(0.01)
        assert len(limit.waiting) == 2
        status, headers, body = await asyncio.wait_for(call(limit, "GET", "/api/v1/late"), 1)
        assert status == 503
        assert headers["retry-after"] == "1"
        assert json.loads(body)["code"] == "busy"
        assert "/late" not in toy.started
        for name in ("/0", "/1", "/2", "/3"):
            while name not in toy.finish:
                await asyncio.sleep(0.005)
            toy.finish[name].set()
        assert [(await t)[0] for t in held] == [200] * 4

    run(scenario)


def test_a_request_that_waited_its_whole_allowance_is_refused_then() -> None:
    limit, toy = limited(max_running=1, max_wait_ms=50, max_in_flight=32)

    async def scenario() -> None:
        limit.seconds_per_request = 0.001
        first = asyncio.create_task(call(limit, "GET", "/api/v1/a"))
        await asyncio.sleep(0.01)
        status, headers, _ = await asyncio.wait_for(call(limit, "GET", "/api/v1/b"), 5)
        assert (status, headers["retry-after"]) == (503, "1")
        assert toy.started == ["/a"]
        assert not limit.waiting
        toy.finish["/a"].set()
        assert (await first)[0] == 200
        # The place it left is not lost: the next request runs at once.
        nxt = asyncio.create_task(call(limit, "GET", "/api/v1/c"))
        await asyncio.sleep(0.01)
        assert toy.started == ["/a", "/c"]
        toy.finish["/c"].set()
        assert (await nxt)[0] == 200
        assert limit.running == 0

    run(scenario)


def test_a_client_slow_to_send_its_body_does_not_hold_the_turn() -> None:
    limit, toy = limited(max_running=1, max_wait_ms=60_000, max_in_flight=32)

    async def scenario() -> None:
        arrived = asyncio.Event()

        async def slow_body() -> dict[str, Any]:
            await arrived.wait()
            return {"type": "http.request", "body": b"hello", "more_body": False}

        slow = asyncio.create_task(call(limit, "POST", "/api/v1/slow", slow_body))
        await asyncio.sleep(0.01)
        quick = asyncio.create_task(call(limit, "GET", "/api/v1/quick"))
        await asyncio.sleep(0.01)
        assert toy.started == ["/quick"]
        toy.finish["/quick"].set()
        assert (await quick)[0] == 200
        arrived.set()
        while "/slow" not in toy.finish:
            await asyncio.sleep(0.005)
        toy.finish["/slow"].set()
        status, _, body = await slow
        # The app is given the body it was sent, whole.
        assert (status, body) == (200, b"hello")

    run(scenario)


def test_a_waiting_request_given_up_leaves_no_place_taken() -> None:
    limit, toy = limited(max_running=1, max_wait_ms=60_000, max_in_flight=32)

    async def scenario() -> None:
        first = asyncio.create_task(call(limit, "GET", "/api/v1/a"))
        await asyncio.sleep(0.01)
        given_up = asyncio.create_task(call(limit, "GET", "/api/v1/b"))
        await asyncio.sleep(0.01)
        assert len(limit.waiting) == 1
        given_up.cancel()
        await asyncio.gather(given_up, return_exceptions=True)
        assert not limit.waiting
        toy.finish["/a"].set()
        assert (await first)[0] == 200
        assert limit.running == 0
        # The place is free: the next request runs at once.
        nxt = asyncio.create_task(call(limit, "GET", "/api/v1/c"))
        await asyncio.sleep(0.01)
        assert toy.started == ["/a", "/c"]
        toy.finish["/c"].set()
        assert (await nxt)[0] == 200
        assert limit.running == 0

    run(scenario)
