"""Uvicorn processes on one PostgreSQL database, a socket on each of two: hands played
through both, one process SIGKILLed mid-hand. Nothing acknowledged is lost, the other
process's socket goes on receiving, and a clock that runs out still fires. At the end
both are killed mid-hand and a third process, which no request ever reached, fires
the clock: every process ticks from its start."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, select, update
from websockets.sync.client import ClientConnection, connect

from server.test_postgres import postgres_url  # noqa: F401  (the fixture)
from sheepshead.server.identity import COOKIE
from sheepshead.store import migrate, open_engine
from sheepshead.store.friends import FriendSeatRow, FriendTableRow, now

pytestmark = pytest.mark.postgres

API = "/api/v1/tables"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(url: str, data: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """A uvicorn process of the app on a free port (not yet ready)."""
    port = free_port()
    env = {
        **os.environ,
        "SHEEPSHEAD_DATABASE_URL": url,
        "SHEEPSHEAD_DATA_DIR": str(data),
        "SHEEPSHEAD_DAILY_SECRET": "processes-test",
        "SHEEPSHEAD_MIGRATE": "0",
        "SHEEPSHEAD_DEV": "1",
        "SHEEPSHEAD_RATE_IDENTITIES": "off",
        "SHEEPSHEAD_RATE_ACTIONS": "off",
        "SHEEPSHEAD_RATE_ACTIONS_PER_ADDRESS": "off",
        "SHEEPSHEAD_RATE_JOINS": "off",
    }
    command = [sys.executable, "-m", "uvicorn", "--factory", "sheepshead.server:create_app"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    return f"http://127.0.0.1:{port}", process


@contextlib.contextmanager
def servers(
    url: str, data: Path, count: int
) -> Iterator[list[tuple[str, subprocess.Popen[bytes]]]]:
    """``count`` processes, started together, stopped at the end."""
    started = [start(url, data) for _ in range(count)]
    try:
        deadline = time.monotonic() + 60
        for base, process in started:
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                        break
                assert process.poll() is None, "the server stopped"
                assert time.monotonic() < deadline, "no server"
                time.sleep(0.2)
        yield started
    finally:
        for _, process in started:
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=20)


def person(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    assert client.put("/api/v1/daily/me/name", json={"name": name}).status_code == 200
    return client


def live(base: str, client: httpx.Client, code: str) -> ClientConnection:
    ws_url = base.replace("http", "ws") + f"{API}/{code}/live"
    cookie = f"{COOKIE}={client.cookies[COOKIE]}"
    return connect(ws_url, additional_headers={"cookie": cookie}, open_timeout=20)


def latest(ws: ClientConnection, version: int, timeout: float = 20) -> dict[str, Any]:
    """Messages until one at ``version`` or later."""
    deadline = time.monotonic() + timeout
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=deadline - time.monotonic()))
        if message.get("type") == "state" and message["state"].get("version", 0) >= version:
            return message


def step(clients: list[httpx.Client], code: str) -> int | None:
    """The person to act acts (the first legal action); the acknowledged version."""
    for client in clients:
        state = client.get(f"{API}/{code}").json()
        if state["hand_over"]:
            return None
        if state["view"]["legal"]:
            body = {"action": state["view"]["legal"][0], "version": state["version"]}
            reply = client.post(f"{API}/{code}/actions", json=body)
            assert reply.status_code == 200, reply.text
            version: int = reply.json()["state"]["version"]
            return version
    raise AssertionError("nobody to act")


def test_two_processes_a_kill_loses_nothing_and_clocks_still_fire(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    engine = open_engine(postgres_url)
    migrate(engine)
    with servers(postgres_url, tmp_path, 3) as [(a, first), (b, killed), _idle]:
        host, guest = person(a, "Hostess"), person(b, "Guest")
        created = host.post(API, json={"rules": {"players": 3}, "seconds": 60}).json()
        code = created["code"]
        assert guest.post(f"{API}/{code}/seats").status_code == 200
        assert host.post(f"{API}/{code}/start").status_code == 200
        with live(a, host, code) as on_a, live(b, guest, code) as on_b:
            # A whole hand: each move reaches both processes' sockets.
            acknowledged = 0
            while (version := step([host, guest], code)) is not None:
                acknowledged = version
                for ws in (on_a, on_b):
                    assert latest(ws, version)["state"]["version"] >= version
            over = host.get(f"{API}/{code}").json()
            assert over["hand_over"]
            assert len(over["score_sheet"]) == 1
            dealt = guest.post(f"{API}/{code}/next-hand", json={"version": over["version"]})
            assert dealt.status_code == 200
            acknowledged = step([host, guest], code) or acknowledged
            # Process b dies mid-hand, without a word to anyone.
            killed.send_signal(signal.SIGKILL)
            killed.wait(timeout=20)
            state = host.get(f"{API}/{code}").json()
            assert state["version"] >= acknowledged
            assert state["hand_number"] == 2
            # The clock runs out (moved into the past here): a living ticker fires it.
            run_out(engine, code)
            moved = latest(on_a, state["version"] + 1)
            assert moved["state"]["version"] > state["version"]
            # The guest comes back through process a and plays on.
            guest_a = httpx.Client(base_url=a, timeout=30, cookies=guest.cookies)
            with live(a, guest_a, code) as back:
                assert latest(back, 0)["state"]["seat"] == 1
                while step([host, guest_a], code) is not None:
                    pass
                final = host.get(f"{API}/{code}").json()
                assert final["hand_over"]
                assert len(final["score_sheet"]) == 2
                # A third hand; a person's clock runs; both processes die with it.
                dealt = host.post(f"{API}/{code}/next-hand", json={"version": final["version"]})
                assert dealt.status_code == 200
                first.send_signal(signal.SIGKILL)
                first.wait(timeout=20)
        # Only the idle process is left, and nothing asks it anything: its ticker,
        # running since its start, fires the clock (the database shows it).
        before = table_row(engine, code)
        assert before.turn_seat is not None
        assert before.deadline is not None
        run_out(engine, code)
        deadline = time.monotonic() + 20
        while table_row(engine, code).version == before.version:
            assert time.monotonic() < deadline, "no process fired the clock"
            time.sleep(0.2)
        with engine.connect() as conn:
            covered = conn.execute(
                select(FriendSeatRow.covered).where(
                    FriendSeatRow.table_id == before.id, FriendSeatRow.seat == before.turn_seat
                )
            ).scalar()
        assert covered, "the computer did not take the seat whose clock ran out"
    engine.dispose()


def table_row(engine: Engine, code: str) -> Any:
    with engine.connect() as conn:
        return conn.execute(
            select(FriendTableRow.__table__).where(FriendTableRow.code == code)
        ).one()


def run_out(engine: Engine, code: str) -> None:
    """The table's clock moved into the past (as if its seconds had passed)."""
    with engine.begin() as conn:
        conn.execute(
            update(FriendTableRow)
            .where(FriendTableRow.code == code)
            .values(deadline=now() - timedelta(seconds=1))
        )
