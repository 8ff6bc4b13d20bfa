"""The daily game's tests' app and helpers (``test_daily_api.py``, ``test_daily_flags.py``,
``test_daily_secrecy.py``, ``test_names_store.py``): a fresh app per test on SQLite or on
the machine's PostgreSQL (one database for the run, emptied before each test), whose
``daily_clock`` a test moves, and a player playing a day through the API. The
fixtures are imported by name by the modules that use them.
"""

from __future__ import annotations

import json
import os
import secrets
import warnings
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import create_engine, text

from sheepshead import daily_game
from sheepshead.cli import main as cli_main
from sheepshead.server import Settings, create_app
from sheepshead.store.daily_store import DailyStore

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

Json = dict[str, Any]
SECRET = "daily test secret"
#: Noon in Chicago on 2025-06-01 (CDT, UTC-5).
NOON = datetime(2025, 6, 1, 17, 0, tzinfo=UTC)
DAY_SEED = daily_game.day_seed(SECRET.encode(), NOON.date())
TOOLS = Path(__file__).resolve().parents[2] / "tools"
PG_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def _postgres_up() -> bool:
    try:
        engine = create_engine(PG_ADMIN, connect_args={"connect_timeout": 2})
        with engine.connect():
            pass
        engine.dispose()
        return True
    except Exception:
        return False


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    if not _postgres_up():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not reachable on 127.0.0.1:5432")
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    name = f"sheepshead_daily_{secrets.token_hex(6)}"
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'daily.db'}"
    url: str = request.getfixturevalue("postgres_url")
    engine = create_engine(url)
    with engine.begin() as conn:
        tables = conn.execute(
            text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ).scalars()
        names = [t for t in tables if t != "alembic_version"]
        if names:
            conn.execute(text(f"TRUNCATE {', '.join(names)} CASCADE"))
    engine.dispose()
    return url


class Clock:
    def __init__(self) -> None:
        self.now = NOON

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make_app(database_url: str, tmp_path: Path, clock: Clock) -> Iterator[Callable[[], FastAPI]]:
    apps: list[FastAPI] = []

    def make() -> FastAPI:
        settings = Settings(
            data_dir=tmp_path,
            database_url=database_url,
            dev=True,
            daily_secret=SECRET,
            daily_level="standard",
            # A test plays faster than any person; the limits have tests of their own.
            rate_identities=None,
            rate_actions=None,
            rate_actions_per_address=None,
        )
        app = create_app(settings)
        app.state.daily_clock = clock
        apps.append(app)
        return app

    yield make
    for app in apps:
        # Background work (the board, the expert's points) ends before the database goes.
        daily_service = getattr(app.state, "daily", None)
        if daily_service is not None:
            daily_service.close()
        app.state.engine.dispose()


@pytest.fixture
def app(make_app: Callable[[], FastAPI]) -> FastAPI:
    return make_app()


def visitor(app: FastAPI) -> TestClient:
    return TestClient(app, base_url="http://localhost")


# Playing through the API ----------------------------------------------------------

Chooser = Callable[[list[str]], str]


def first(legal: list[str]) -> str:
    return legal[0]


def last(legal: list[str]) -> str:
    return legal[-1]


def ok(response: Any, status: int = 200) -> Json:
    assert response.status_code == status, response.text
    body: Json = response.json()
    return body


def start(client: TestClient) -> Json:
    response = client.post("/api/v1/daily/attempts")
    assert response.status_code in (200, 201), response.text
    state: Json = response.json()["state"]
    return state


def step(client: TestClient, state: Json, choose: Chooser) -> Json:
    base = f"/api/v1/daily/attempts/{state['id']}"
    if state["hand_over"]:
        reply = client.post(f"{base}/next-deal", json={"version": state["version"]})
    else:
        legal = state["view"]["legal"]
        reply = client.post(
            f"{base}/actions", json={"action": choose(legal), "version": state["version"]}
        )
    new: Json = ok(reply)["state"]
    return new


def play_day(client: TestClient, choose: Chooser = first, state: Json | None = None) -> Json:
    state = start(client) if state is None else state
    while not state["daily"]["finished"]:
        state = step(client, state, choose)
    return state


def deal_records(client: TestClient, state: Json) -> list[Json]:
    base = f"/api/v1/daily/attempts/{state['id']}/deals"
    return [ok(client.get(f"{base}/{n}/record")) for n in range(1, 6)]


def board(client: TestClient, **params: str) -> Json:
    return ok(client.get("/api/v1/daily/board", params=params))


def flagged(app: FastAPI) -> dict[str, bool]:
    store = DailyStore(app.state.engine)
    return {x.id: x.flagged for x in store.attempts_of_day(NOON.date())}


def admin_flags(database_url: str, capsys: pytest.CaptureFixture[str]) -> Json:
    capsys.readouterr()
    assert cli_main(["admin", "flags", "2025-06-01", "--json", "--database", database_url]) == 0
    out: Json = json.loads(capsys.readouterr().out)
    return out
