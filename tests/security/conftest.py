"""Security tests: each test gets its own app on its own SQLite file.

``make_app(**settings)`` builds an app with the given settings over the defaults here
(development cookies on http://localhost, the daily game against ``standard`` bots
with a known secret); ``app`` is one with the production rate limits. ``client`` and
``other`` are two visitors, each with an identity of its own once they ask.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import delete

from security.helpers import SECRET, MakeApp
from server.helpers import TestClient, make_client
from sheepshead.server import Settings, create_app
from sheepshead.store.rates import RateBucket


@pytest.fixture
def database_url() -> str:
    """Empty: a SQLite file per test (``test_postgres.py`` points it at PostgreSQL)."""
    return ""


@pytest.fixture
def make_app(tmp_path: Path, database_url: str) -> Iterator[MakeApp]:
    apps: list[FastAPI] = []

    def make(**overrides: Any) -> FastAPI:
        fields: dict[str, Any] = {
            "data_dir": tmp_path,
            "database_url": database_url,
            "dev": True,
            "daily_secret": SECRET,
            "daily_level": "standard",
            **overrides,
        }
        app = create_app(Settings(**fields))
        if not apps:
            # A database shared by several tests (PostgreSQL) starts with full buckets.
            with app.state.engine.begin() as conn:
                conn.execute(delete(RateBucket))
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.state.engine.dispose()


@pytest.fixture
def app(make_app: MakeApp) -> FastAPI:
    return make_app()


@pytest.fixture
def client(app: FastAPI) -> TestClient:
    return make_client(app)


@pytest.fixture
def other(app: FastAPI) -> TestClient:
    return make_client(app)
