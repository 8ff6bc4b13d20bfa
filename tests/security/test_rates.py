"""Rate limits: new identities per network address, changes per player and per
address. Set in the settings; kept in the database, so every worker process counts
against the same budget; a 429 says how long to wait, and a normal player never
meets one."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from sqlalchemy import delete, func, select
from sqlalchemy.exc import OperationalError

from security.helpers import Clock, MakeApp, fixed_clock
from server.helpers import TestClient, identify, make_client, new_game
from sheepshead.server.settings import Rate, Settings
from sheepshead.store import open_engine
from sheepshead.store.migrate import migrate
from sheepshead.store.rates import MICROS, Charge, RateBucket, RateStore


def test_rates_are_written_as_count_per_period_with_an_optional_burst() -> None:
    assert Rate.parse("30/hour") == Rate(30, 3600, 30)
    assert Rate.parse(" 20/second burst 60 ") == Rate(20, 1, 60)
    assert Rate.parse("off") is None
    assert str(Rate(20, 1, 60)) == "20/second burst 60"
    assert str(Rate(30, 3600)) == "30/hour"
    for bad in ("30", "30/fortnight", "x/hour", "20/second burst", "20/second burst -1", "0/s"):
        with pytest.raises(ValueError, match="rate"):
            Rate.parse(bad)


def test_the_limits_come_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "SHEEPSHEAD_RATE_IDENTITIES": "5/minute",
            "SHEEPSHEAD_RATE_ACTIONS": "off",
            "SHEEPSHEAD_RATE_ACTIONS_PER_ADDRESS": "1000/second burst 2000",
            "SHEEPSHEAD_MAX_BODY_BYTES": "4096",
            "SHEEPSHEAD_TRUSTED_ORIGINS": "https://a.example, https://b.example/",
        }
    )
    assert settings.rate_identities == Rate(5, 60)
    assert settings.rate_actions is None
    assert settings.rate_actions_per_address == Rate(1000, 1, 2000)
    assert settings.max_body_bytes == 4096
    assert settings.trusted_origins == ("https://a.example", "https://b.example")
    defaults = Settings.from_env({})
    assert defaults.rate_identities == Rate(30, 3600)
    assert defaults.rate_actions == Rate(20, 1, 60)
    with pytest.raises(ValueError, match="SHEEPSHEAD_RATE_ACTIONS"):
        Settings.from_env({"SHEEPSHEAD_RATE_ACTIONS": "lots"})


def test_new_identities_from_one_address_are_limited(make_app: MakeApp) -> None:
    app = make_app(rate_identities=Rate(3, 3600))
    clock = fixed_clock(app)
    visitors = [make_client(app) for _ in range(3)]
    # A first change makes an identity (no page does).
    for visitor in visitors:
        assert new_game(visitor)["state"]["version"] >= 1
    refused = make_client(app).post("/api/v1/games", json={})
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "1200"  # one identity every 3600 / 3 s
    assert refused.json()["detail"] == (
        "Too many new players: please wait 20 minutes and try again. "
        "(new players from one network address are limited)"
    )
    assert "set-cookie" not in refused.headers
    # Players who already have their identity are not held up, and reading makes none.
    for visitor in visitors:
        assert visitor.get("/api/v1/daily/today").status_code == 200
        assert new_game(visitor)["state"]["version"] >= 1
    assert make_client(app).get("/daily").status_code == 200
    clock.advance(1200)
    assert make_client(app).post("/api/v1/games", json={}).status_code == 201
    assert make_client(app).post("/api/v1/games", json={}).status_code == 429


def test_a_player_sending_too_many_changes_is_slowed_not_stopped(make_app: MakeApp) -> None:
    app = make_app(rate_actions=Rate(2, 1))
    clock = fixed_clock(app)
    ann, bob = make_client(app), make_client(app)
    identify(app, ann)
    identify(app, bob)
    state = new_game(ann)["state"]
    url = f"/api/v1/games/{state['id']}/actions"
    body = {"action": state["view"]["legal"][0], "version": state["version"]}
    assert ann.post("/api/v1/games", json={}).status_code == 201
    refused = ann.post(url, json=body)
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "1"
    assert refused.json() == {
        "detail": "Too many requests: please wait 1 second and try again.",
        "code": "too-many-requests",
        "params": {"seconds": 1},
    }
    assert ann.get(f"/api/v1/games/{state['id']}").json()["version"] == state["version"]
    # Reads are not limited, nor is another player.
    assert ann.get(f"/api/v1/games/{state['id']}").status_code == 200
    assert bob.post("/api/v1/games", json={}).status_code == 201
    clock.advance(0.5)
    assert ann.post(url, json=body).status_code == 200


def test_an_address_is_limited_across_its_players(make_app: MakeApp) -> None:
    app = make_app(rate_actions_per_address=Rate(3, 1))
    clock = fixed_clock(app)
    players = [make_client(app) for _ in range(4)]
    statuses = [p.post("/api/v1/games", json={}).status_code for p in players]
    assert statuses == [201, 201, 201, 429]
    clock.advance(1 / 3)
    assert players[3].post("/api/v1/games", json={}).status_code == 201


def test_workers_on_one_database_share_one_budget(make_app: MakeApp) -> None:
    # Two apps on one database file: two worker processes, as far as limits go.
    first = make_app(rate_actions=Rate(4, 60))
    second = make_app(rate_actions=Rate(4, 60))
    clock = fixed_clock(first)
    second.state.limiter.clock = clock
    ann = make_client(first)
    identify(first, ann)
    tab = make_client(second)
    tab.cookies.update(ann.cookies)
    assert [ann.post("/api/v1/games", json={}).status_code for _ in range(2)] == [201, 201]
    assert [tab.post("/api/v1/games", json={}).status_code for _ in range(3)] == [201, 201, 429]
    assert ann.post("/api/v1/games", json={}).status_code == 429


def _human_pace(app: FastAPI, client: TestClient, clock: Clock, hands: int) -> None:
    """A quick player: a click every quarter second, a reload now and then."""
    state = new_game(client)["state"]
    for hand in range(hands):
        while not state["hand_over"]:
            clock.advance(0.25)
            reply = client.post(
                f"/api/v1/games/{state['id']}/actions",
                json={"action": state["view"]["legal"][-1], "version": state["version"]},
            )
            assert reply.status_code == 200, reply.text
            state = reply.json()["state"]
            if hand % 2:
                assert client.get("/play").status_code == 200
        clock.advance(1)
        reply = client.post(
            f"/api/v1/games/{state['id']}/next-hand", json={"version": state["version"]}
        )
        assert reply.status_code == 200, reply.text
        state = reply.json()["state"]


def test_the_default_limits_never_meet_a_normal_player(app: FastAPI) -> None:
    clock = fixed_clock(app)
    # A family behind one address: each opens the site, then plays.
    family = [make_client(app) for _ in range(6)]
    for member in family:
        assert member.get("/").status_code == 200
        for page in ("/play", "/daily", "/leaderboard", "/guide"):
            assert member.get(page).status_code == 200
    for member in family:
        _human_pace(app, member, clock, hands=3)
    # A double click, then a second tab's retry, right away: still fine.
    state = new_game(family[0])["state"]
    body = {"action": state["view"]["legal"][0], "version": state["version"]}
    url = f"/api/v1/games/{state['id']}/actions"
    assert family[0].post(url, json=body).status_code == 200
    assert family[0].post(url, json=body).status_code == 409


@pytest.fixture
def store(tmp_path: Path, database_url: str) -> Iterator[RateStore]:
    engine = open_engine(database_url or f"sqlite:///{tmp_path / 'rates.db'}")
    migrate(engine)
    with engine.begin() as conn:
        conn.execute(delete(RateBucket))
    yield RateStore(engine)
    engine.dispose()


def test_the_bucket_lets_the_burst_through_then_one_per_interval(store: RateStore) -> None:
    charge = Charge("k", count=10, period_us=10 * MICROS, burst=3)  # 1/s, bursts of 3
    now = 1_000 * MICROS
    assert [store.take([charge], now) for _ in range(3)] == [None, None, None]
    assert store.take([charge], now) == 1 * MICROS  # the next one in a second
    assert store.take([charge], now + MICROS // 2) == MICROS // 2
    assert store.take([charge], now + MICROS) is None
    assert store.take([charge], now + MICROS) == MICROS
    # After a long pause the bucket is full again, no fuller.
    later = now + 3600 * MICROS
    assert [store.take([charge], later) for _ in range(4)] == [None, None, None, MICROS]


def test_a_request_refused_by_one_bucket_takes_from_none(store: RateStore) -> None:
    wide = Charge("wide", count=100, period_us=MICROS, burst=100)
    narrow = Charge("narrow", count=1, period_us=60 * MICROS, burst=1)
    now = 5 * MICROS
    assert store.take([wide, narrow], now) is None
    for _ in range(5):
        assert store.take([wide, narrow], now) == 60 * MICROS
    # Only the one request that got through was taken from the wide bucket.
    assert [store.take([wide], now) for _ in range(99)] == [None] * 99
    assert store.take([wide], now) is not None


def test_full_buckets_are_swept_and_nothing_changes(store: RateStore) -> None:
    charge = Charge("k", count=1, period_us=60 * MICROS, burst=1)
    assert store.take([charge], 0) is None
    assert store.sweep(30 * MICROS) == 0  # not full yet: kept
    assert store.take([charge], 30 * MICROS) == 30 * MICROS
    assert store.sweep(61 * MICROS) == 1
    assert store.take([charge], 61 * MICROS) is None


def test_concurrent_requests_get_exactly_the_allowance(store: RateStore) -> None:
    charge = Charge("shared", count=50, period_us=3600 * MICROS, burst=50)
    now = 7 * MICROS
    results: list[int | None] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(20):
            outcome = store.take([charge], now)
            with lock:
                results.append(outcome)

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 120
    assert results.count(None) == 50
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(RateBucket)).scalar() == 1


def test_a_limiter_that_cannot_reach_the_database_lets_the_route_answer(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(*args: object) -> None:
        raise OperationalError("INSERT INTO rate_buckets", {}, ConnectionRefusedError())

    monkeypatch.setattr(app.state.limiter.store, "take", down)
    assert client.post("/api/v1/games", json={}).status_code == 201
