"""API tests: each test gets its own app on its own SQLite file, migrated from scratch.

``client`` is a first-time visitor on http://localhost with development cookies (not
Secure, so the test client sends them back over plain http); ``other`` is a second
visitor with an identity of its own. Helpers are in ``helpers.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI

from server.helpers import TestClient, make_client
from sheepshead.server import Settings, create_app


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # A test plays faster than any person; the limits have tests of their own.
    return Settings(
        data_dir=tmp_path,
        dev=True,
        rate_identities=None,
        rate_actions=None,
        rate_actions_per_address=None,
    )


@pytest.fixture
def app(settings: Settings) -> Iterator[FastAPI]:
    app = create_app(settings)
    yield app
    app.state.engine.dispose()


@pytest.fixture
def client(app: FastAPI) -> TestClient:
    return make_client(app)


@pytest.fixture
def other(app: FastAPI) -> TestClient:
    return make_client(app)
