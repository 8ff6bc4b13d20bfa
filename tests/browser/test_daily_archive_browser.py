"""A past day's page (/daily/<date>) in Chromium: nothing is dealt until its Start
button, and a finished replay is set beside the day's board. Its own server, whose
daily clock the test moves: the day begins at noon, then the clock goes to the next.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import expect

from browser.helpers import Visitor
from browser.table import wait_idle
from sheepshead import daily_game
from sheepshead.server import Settings, create_app

pytestmark = pytest.mark.browser

NOON = datetime(2025, 6, 1, 17, 0, tzinfo=UTC)
DAY = NOON.date().isoformat()


class Clock:
    now = NOON

    def __call__(self) -> datetime:
        return self.now


CLOCK = Clock()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("archive-data"),
        dev=True,
        daily_level="standard",
        rate_identities=None,
        rate_actions=None,
        rate_actions_per_address=None,
    )
    app = create_app(settings)
    app.state.daily_clock = CLOCK
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    uv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not uv.started:
        assert time.monotonic() < deadline, "the app did not start"
        assert thread.is_alive(), "the app did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    uv.should_exit = True
    thread.join(timeout=10)
    sock.close()
    app.state.daily.close()
    app.state.engine.dispose()


def play_on(visitor: Visitor, state: dict[str, Any]) -> dict[str, Any]:
    """The first legal action at every turn, up to the fifth deal's end."""
    api = visitor.context.request
    while not state["daily"]["finished"]:
        base = f"/api/v1/daily/attempts/{state['id']}"
        if state["hand_over"]:
            reply = api.post(f"{base}/next-deal", data={"version": state["version"]})
        else:
            body = {"action": state["view"]["legal"][0], "version": state["version"]}
            reply = api.post(f"{base}/actions", data=body)
        assert reply.ok, reply.text()
        state = reply.json()["state"]
    return state


def test_a_past_day_is_replayed_and_compared_with_its_board(
    desktop: Visitor, artifacts: Path
) -> None:
    api = desktop.context.request
    CLOCK.now = NOON
    assert api.get("/api/v1/daily/today").ok  # the day begins (its commitment is made)
    CLOCK.now = daily_game.day_end(NOON.date()) + timedelta(hours=1)
    seed = api.get(f"/api/v1/daily/days/{DAY}").json()["seed"]
    page = desktop.new_page()
    page.goto(f"/daily/{DAY}")
    expect(page.locator("#daily-seed")).to_have_text(seed)
    expect(page.locator("#table")).to_be_hidden()
    page.get_by_role("button", name="Replay the day").click()
    wait_idle(page)
    expect(page.locator("#daily-deal")).to_contain_text("Deal 1 of 5 (a replay, unranked)")
    # The replay played on (through the API, for speed) to its end: back on the page,
    # it is set beside the day's board (nobody finished that day ranked, here).
    replay = api.get(f"/api/v1/daily/days/{DAY}").json()["replay"]
    play_on(desktop, api.get(f"/api/v1/daily/attempts/{replay['id']}").json())
    page.reload()
    expect(page.locator("#daily-compare")).to_contain_text("Nobody finished that day ranked")
    expect(page.locator("#daily-compare")).to_contain_text("deal by deal")
    expect(page.get_by_role("button", name="Replay the day")).to_be_visible()
    page.screenshot(path=str(artifacts / "daily-archive.png"))
    assert desktop.errors == []
