"""What an operator sees: the request log, the metrics, health and readiness, and the
503 a request gets when the database is gone (``server/observability.py``).

Each test builds its own app on its own SQLite file. The metrics of one process are
shared by every app in it, so tests compare counts before and after.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from prometheus_client.parser import text_string_to_metric_families

from server.helpers import TestClient, act, make_client, new_game, play_hand
from sheepshead.server import Settings, create_app
from sheepshead.server.identity import COOKIE
from sheepshead.server.observability import (
    ACCESS_LOG,
    DATABASE_DOWN,
    JsonLines,
    RequestObserver,
    player_hash,
)

UNLIMITED: dict[str, Any] = {
    "rate_identities": None,
    "rate_actions": None,
    "rate_actions_per_address": None,
}
#: A card as the API writes it: ``QC``, ``TD``, ``7H``.
CARD = re.compile(r"(?<![0-9A-Za-z])[789TJQKA][CDHS](?![0-9A-Za-z])")
#: What one log line may hold, and nothing else.
LOG_KEYS = {"ts", "level", "logger", "msg", "method", "route", "status", "ms", "player", "pid"}
LOG_OPTIONAL = {"params", "request_id", "error"}
#: The scrape's bearer token (SHEEPSHEAD_METRICS_TOKEN) of the apps here.
TOKEN = "observability-test-token"


def make_app(tmp_path: Path, **overrides: Any) -> FastAPI:
    fields: dict[str, Any] = {
        "data_dir": tmp_path,
        "dev": True,
        "daily_secret": "observability test secret",
        "daily_level": "standard",
        "metrics_token": TOKEN,
        **UNLIMITED,
        **overrides,
    }
    return create_app(Settings(**fields))


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    app = make_app(tmp_path)
    app.state.database_gauges.max_age = 0  # count at every scrape
    yield app
    app.state.engine.dispose()


@pytest.fixture
def client(app: FastAPI) -> TestClient:
    return make_client(app)


class Lines(logging.Handler):
    """Keeps each request's log line as the app's formatter writes it."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonLines())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def log_lines() -> Iterator[list[str]]:
    handler = Lines()
    ACCESS_LOG.addHandler(handler)
    try:
        yield handler.lines
    finally:
        ACCESS_LOG.removeHandler(handler)


def metrics(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``, by name and labels."""
    response = client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def sample(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


ACTIONS = "/api/v1/games/{game_id}/actions"


# The request log -------------------------------------------------------------------------


def test_each_request_logs_one_json_line_with_its_route_status_time_and_player_hash(
    client: TestClient, log_lines: list[str]
) -> None:
    state = new_game(client)["state"]
    state = act(client, state, state["view"]["legal"][0])["state"]
    client.get(f"/api/v1/games/{'0' * 32}")
    client.get("/no/such/page")

    assert len(log_lines) == 4
    lines = [json.loads(line) for line in log_lines]
    player = client.cookies[COOKIE]
    for line in lines:
        assert LOG_KEYS <= line.keys() <= LOG_KEYS | LOG_OPTIONAL, line
        assert line["player"] == player_hash(player)
        assert line["ms"] >= 0
        assert line["logger"] == "sheepshead.access"
    assert [(x["method"], x["route"], x["status"]) for x in lines] == [
        ("POST", "/api/v1/games", 201),
        ("POST", ACTIONS, 200),
        ("GET", "/api/v1/games/{game_id}", 404),
        ("GET", "unmatched", 404),
    ]
    # The game's id says which game; it opens nothing without the player's cookie.
    assert lines[1]["params"] == {"game_id": state["id"]}


def test_the_log_never_holds_a_card_a_seed_a_body_or_a_player_id(
    client: TestClient, log_lines: list[str]
) -> None:
    state = new_game(client)["state"]
    steps = play_hand(client, state)
    over = steps[-1]["state"]
    assert over["hand_over"]
    assert over["seed"]
    client.get(f"/api/v1/games/{state['id']}/hands/1/record")
    client.get(f"/api/v1/verify?seed={over['seed']}")

    text = "\n".join(log_lines)
    assert len(log_lines) == len(steps) + 3
    assert CARD.findall(text) == []
    assert over["seed"] not in text
    assert client.cookies[COOKIE] not in text
    for line in map(json.loads, log_lines):
        # Nothing of the body (action, version) or of the query string (the seed).
        assert line.keys() <= LOG_KEYS | LOG_OPTIONAL
        assert "?" not in line["route"]


def test_a_proxys_request_id_is_kept_and_a_strange_one_dropped(
    client: TestClient, log_lines: list[str]
) -> None:
    client.get("/healthz", headers={"x-request-id": "4f1c-9e7a.01"})
    client.get("/healthz", headers={"x-request-id": "<script>alert(1)</script>"})
    first, second = (json.loads(line) for line in log_lines)
    assert first["request_id"] == "4f1c-9e7a.01"
    assert "request_id" not in second


def test_an_unexpected_error_is_logged_as_500_with_its_class_not_its_message(
    app: FastAPI, log_lines: list[str]
) -> None:
    def broken() -> None:
        raise RuntimeError("QC of seat 3 and seed 0123abcd")

    app.add_api_route("/broken", broken)
    client = TestClient(app, base_url="http://localhost", raise_server_exceptions=False)
    assert client.get("/broken").status_code == 500
    (line,) = map(json.loads, log_lines)
    assert (line["route"], line["status"], line["error"]) == ("/broken", 500, "RuntimeError")
    assert "QC" not in log_lines[0]
    assert "0123abcd" not in log_lines[0]


def test_a_request_the_client_gave_up_on_is_logged_as_499_not_as_a_server_error(
    log_lines: list[str],
) -> None:
    # A page that navigates away cancels its pending requests: the log must not count
    # that as the server's failure.
    async def abandoned(scope: Any, receive: Any, send: Any) -> None:
        raise asyncio.CancelledError

    async def begun_then_abandoned(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        raise asyncio.CancelledError

    async def send(message: Any) -> None:
        pass

    async def receive() -> Any:
        return {"type": "http.request"}

    scope = {"type": "http", "method": "GET", "path": "/static/table.css", "headers": []}
    # In a thread of its own: a browser test's Playwright, in the same pytest worker,
    # keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        for inner in (abandoned, begun_then_abandoned):
            request = RequestObserver(inner)(dict(scope), receive, send)
            with pytest.raises(asyncio.CancelledError):
                pool.submit(asyncio.run, request).result()
    first, second = map(json.loads, log_lines)
    assert (first["status"], first["error"]) == (499, "cancelled")
    assert (second["status"], second["error"]) == (200, "cancelled")


def test_a_logged_traceback_keeps_the_frames_and_the_class_but_not_the_message() -> None:
    # For uvicorn's own log, when it is given JsonLines (docs/deploy.md).
    secret = "seat 2 holds QC and the seed is 0123abcd"
    try:
        raise ValueError(secret)  # the traceback shows this line, not the value
    except ValueError:
        record = logging.LogRecord(
            "uvicorn.error", logging.ERROR, __file__, 1, "Exception in ASGI application", None,
            sys.exc_info(),
        )  # fmt: skip
    line = json.loads(JsonLines().format(record))
    assert line["msg"] == "Exception in ASGI application"
    assert line["exception"] == "ValueError"
    assert "test_a_logged_traceback" in line["traceback"]
    assert "QC" not in json.dumps(line)
    assert "0123abcd" not in json.dumps(line)


# Metrics ---------------------------------------------------------------------------------


def test_metrics_count_requests_latencies_bot_thinking_and_games_in_progress(
    client: TestClient,
) -> None:
    before = metrics(client)
    state = new_game(client)["state"]
    during = metrics(client)
    state = act(client, state, state["view"]["legal"][0])["state"]
    after = metrics(client)

    def grew(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    assert grew("sheepshead_http_requests_total", method="POST", route=ACTIONS, status="200") == 1
    assert grew("sheepshead_http_request_duration_seconds_count", method="POST", route=ACTIONS) == 1
    assert grew("sheepshead_http_request_duration_seconds_sum", method="POST", route=ACTIONS) > 0
    # Every reply lands in some bucket: the largest finite one holds it, +Inf too.
    inf = grew(
        "sheepshead_http_request_duration_seconds_bucket", method="POST", route=ACTIONS, le="+Inf"
    )
    assert inf == 1
    assert grew("sheepshead_bot_think_seconds_count", level="standard") == 1
    assert sample(after, "sheepshead_database_up") == 1
    assert sample(before, "sheepshead_games_in_progress") == 0
    assert sample(during, "sheepshead_games_in_progress") == 1
    assert sample(after, "sheepshead_daily_attempts_in_progress") == 0


def test_a_finished_hand_is_no_longer_a_game_in_progress(client: TestClient) -> None:
    play_hand(client, new_game(client)["state"])
    assert sample(metrics(client), "sheepshead_games_in_progress") == 0


def test_unknown_paths_share_one_label_so_a_scan_cannot_swell_the_metrics(
    client: TestClient,
) -> None:
    for n in range(5):
        client.get(f"/wp-admin/{n}.php")
    routes = {dict(labels).get("route") for _, labels in metrics(client)}
    assert not any(route and "wp-admin" in route for route in routes)
    assert "unmatched" in routes


def test_static_files_share_the_mount_s_label(client: TestClient, log_lines: list[str]) -> None:
    page = client.get("/play").text
    css = re.search(r'/static/v-[0-9a-f]+/[^"]+[.]css', page)
    assert css is not None
    assert client.get(css.group(0)).status_code == 200
    for n in range(3):
        client.get(f"/static/scan/{n}.js")
    lines = [json.loads(line) for line in log_lines]
    assert [x["route"] for x in lines[1:]] == ["/static/{path}"] * 4
    assert [x["status"] for x in lines[1:]] == [200, 404, 404, 404]


def test_the_api_document_says_any_route_with_the_database_may_answer_503(app: FastAPI) -> None:
    # A client generated from the document must expect the lost database's 503 and wait.
    for path, operations in app.openapi()["paths"].items():
        for method, operation in operations.items():
            lost = operation["responses"].get("503")
            if path == "/api/v1/verify":  # re-derives a deal from its seed: no database
                assert lost is None
                continue
            assert lost is not None, (method, path)
            assert "Retry-After" in lost["headers"], (method, path)
    attempts = app.openapi()["paths"]["/api/v1/daily/attempts"]["post"]["responses"]["503"]
    assert "computer players" in attempts["description"]
    assert "database" in attempts["description"]


# Health and readiness -----------------------------------------------------------------------


def test_health_and_readiness_on_a_working_server(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {
        "status": "ready",
        "checks": {"database": "ok", "migrations": "at head", "daily_secret": "ok"},
    }


def test_not_ready_while_the_schema_is_behind_the_migrations(tmp_path: Path) -> None:
    app = make_app(tmp_path, migrate=False)
    try:
        client = make_client(app)
        assert client.get("/healthz").status_code == 200
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["checks"]["migrations"].startswith("at nothing, head is")
    finally:
        app.state.engine.dispose()


def test_not_ready_with_another_daily_secret_than_todays_commitment(tmp_path: Path) -> None:
    first = make_app(tmp_path)
    second = make_app(tmp_path, daily_secret="another machine's secret")
    try:
        # The first server makes today's commitment; the second would deal other cards.
        assert make_client(first).get("/api/v1/daily/today").status_code == 200
        ready = make_client(second).get("/readyz")
        assert ready.status_code == 503
        assert "SHEEPSHEAD_DAILY_SECRET" in ready.json()["checks"]["daily_secret"]
        assert make_client(first).get("/readyz").status_code == 200
    finally:
        first.state.engine.dispose()
        second.state.engine.dispose()


def test_without_a_database_requests_get_503_at_once_and_health_stays_up(
    tmp_path: Path,
) -> None:
    # Nothing listens on port 1: every connection is refused.
    app = make_app(
        tmp_path, database_url="postgresql+psycopg://nobody@127.0.0.1:1/none", migrate=False
    )
    try:
        client = make_client(app)
        reply = client.get("/api/v1/games/current")
        assert reply.status_code == 503
        assert reply.json() == {"detail": DATABASE_DOWN}
        assert reply.headers["retry-after"].isdigit()
        moved = client.post(
            f"/api/v1/games/{'a' * 32}/actions", json={"action": "pass", "version": 1}
        )
        assert moved.status_code == 503
        assert client.get("/healthz").status_code == 200
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["checks"] == {"database": "unreachable (OperationalError)"}
        assert sample(metrics(client), "sheepshead_database_up") == 0
        # A page says it in the reader's language, with when to try again.
        page = client.get("/daily", headers={"accept-language": "de-DE"})
        assert page.status_code == 503
        assert page.headers["content-type"].startswith("text/html")
        assert page.headers["retry-after"] == reply.headers["retry-after"]
        assert '<html lang="de">' in page.text
        assert "Die Datenbank des Spiels ist gerade nicht erreichbar." in page.text
        assert "Bitte versuche es in 5 Sekunden noch einmal." in page.text
    finally:
        app.state.engine.dispose()


def test_metrics_answer_only_a_scrape_bearing_the_token(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    try:
        client = make_client(app)
        assert client.get("/metrics").status_code == 401
        for wrong in ("Bearer nope", f"Bearer {TOKEN}x", f"Basic {TOKEN}", TOKEN, "Bearer "):
            refused = client.get("/metrics", headers={"authorization": wrong})
            assert refused.status_code == 401, wrong
            assert refused.headers["www-authenticate"].startswith("Bearer")
            assert "sheepshead_" not in refused.text
        assert sample(metrics(client), "sheepshead_database_up") == 1
    finally:
        app.state.engine.dispose()


def test_metrics_are_off_without_a_token(tmp_path: Path) -> None:
    assert Settings.from_env({"SHEEPSHEAD_METRICS_TOKEN": " t0k "}).metrics_token == "t0k"
    app = make_app(tmp_path, metrics_token="")
    try:
        client = make_client(app)
        for headers in ({}, {"authorization": "Bearer "}, {"authorization": f"Bearer {TOKEN}"}):
            response = client.get("/metrics", headers=headers)
            assert response.status_code == 404
            assert "sheepshead_" not in response.text
    finally:
        app.state.engine.dispose()
