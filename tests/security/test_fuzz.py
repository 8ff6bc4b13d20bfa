"""schemathesis against the OpenAPI document: generated requests, valid and not, to
every operation; no answer may be a 5xx, or differ from what the document promises
(status code, content type, headers, body schema). A modest count here; ``bench/fuzz.py``
runs the same for longer (figures in docs/performance.md, "Hostile input")."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import Case
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from security.helpers import SECRET, UNLIMITED
from sheepshead.server import Settings, create_app
from sheepshead.store import migrate

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
EXAMPLES = 60


# schemathesis reads the document when the module is collected (its pytest fixture
# loader does not run on pytest 9), so the app is made then, its database only when
# the tests run.
_DATA = Path(tempfile.mkdtemp(prefix="sheepshead-fuzz-"))
APP = create_app(
    Settings(
        data_dir=_DATA,
        migrate=False,
        dev=True,
        daily_secret=SECRET,
        daily_level="standard",
        **UNLIMITED,
    )
)
schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", APP)


@pytest.fixture(scope="module", autouse=True)
def _database() -> Iterator[None]:
    migrate(APP.state.engine)
    yield
    APP.state.engine.dispose()
    shutil.rmtree(_DATA, ignore_errors=True)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_request_gets_a_server_error_or_an_undocumented_answer(case: Case[Any]) -> None:
    case.call_and_validate(checks=CHECKS)
