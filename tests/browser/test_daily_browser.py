"""A new visitor plays the daily game to the end in Chromium and finds themself on
the leaderboard. Its own server (the daily game needs a secret and, for speed here,
the standard computer players); the browser and the visitor as in ``conftest.py``."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, expect

from browser.conftest import DESKTOP, Visitor, visitor_for
from browser.table import Covered, play_hand_by_clicking, summary_open, wait_idle
from sheepshead.server import Settings, create_app

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def daily_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("daily-browser")
    settings = Settings(data_dir=data_dir, dev=True, daily_level="standard")
    app = create_app(settings)
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
    yield f"http://127.0.0.1:{port}"
    uv.should_exit = True
    thread.join(timeout=10)
    sock.close()
    app.state.engine.dispose()


@pytest.fixture
def newcomer(browser: Browser, daily_server: str) -> Iterator[Visitor]:
    yield from visitor_for(browser, daily_server, DESKTOP)


def test_a_new_visitor_plays_the_daily_game_and_sees_themself_on_the_board(
    newcomer: Visitor, artifacts: Path
) -> None:
    page = newcomer.new_page()
    page.goto("/daily")
    expect(page.locator("#daily-title")).to_contain_text("Daily game")
    covered = Covered()
    for deal in range(1, 6):
        expect(page.locator("#daily-deal")).to_contain_text(f"Deal {deal} of 5")
        play_hand_by_clicking(page, covered, artifacts, "daily")
        assert summary_open(page)
        if deal == 1:
            page.screenshot(path=str(artifacts / "daily-summary.png"))
        if deal < 5:
            page.locator("#summary-next").click()
            wait_idle(page)
    expect(page.locator("#summary-next")).to_have_text("See the leaderboard")
    page.locator("#summary-next").click()
    page.wait_for_url("**/leaderboard")
    me = page.locator("#board-rows tr.is-me")
    expect(me).to_have_count(1)
    expect(me).to_contain_text("(you)")
    expect(page.locator("#board-my-line")).to_contain_text("Rank 1 of 1")
    # A name with markup is refused with the reason; a plain one shows on the board.
    page.fill("#name-input", "<b>Badger</b>")
    page.click("#name-form button[type=submit]")
    expect(page.locator("#name-error")).to_contain_text("markup")
    page.fill("#name-input", "Badger Fan")
    page.click("#name-form button[type=submit]")
    expect(me).to_contain_text("Badger Fan")
    page.screenshot(path=str(artifacts / "daily-leaderboard.png"))
    # Expected refusals (no attempt yet: 404; the refused name: 422) log a failed load.
    expected = ("status of 404", "status of 422")
    errors = [e for e in newcomer.errors if not any(x in e for x in expected)]
    assert not errors, errors
