# ruff: noqa: F811  (daily_helpers' fixtures are imported, then named as arguments)
"""The daily game's moderation evidence and the end of a day, played as an attacker and
as a machine with a wrong clock would (issue 13), on SQLite and on PostgreSQL.

The fixtures and helpers are ``daily_helpers.py``'s: a fresh app per test, whose
``daily_clock`` is this server's clock (the database keeps its own).
"""

from __future__ import annotations

import logging
import warnings
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import inspect, text

from server.daily_helpers import (  # noqa: F401  (fixtures, used by name)
    DAY_SEED,
    NOON,
    Clock,
    Json,
    admin_flags,
    app,
    board,
    clock,
    database_url,
    first,
    flagged,
    make_app,
    ok,
    play_day,
    postgres_url,
    start,
    step,
    visitor,
)
from sheepshead import daily_game
from sheepshead.cli import main as cli_main
from sheepshead.server.daily_play import DAY_OVER
from sheepshead.store.daily_store import DailyStore

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

DAY = NOON.date().isoformat()


def evidence_rows(app: FastAPI) -> int:
    with app.state.engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM daily_address_plays")).scalar_one())


def test_the_reverse_order_scout_that_deletes_itself_stays_flagged_with_its_main(
    app: FastAPI, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The attack as seen: M opens the day and moves first, S (same network) plays its
    # ranked attempt, M plays the day out with what S learnt, S deletes itself.
    m, s = visitor(app), visitor(app)  # the test client: one address for both
    m_state = step(m, start(m), first)
    s_done = play_day(s)
    m_done = play_day(m, first, m_state)
    assert s.delete("/api/v1/daily/me").status_code == 204
    assert flagged(app) == {m_done["id"]: True}  # S's attempt is gone with S

    flags = {f["attempt"]: f for f in admin_flags(database_url, capsys)["flags"]}
    assert set(flags) == {m_done["id"], s_done["id"]}
    main, scout = flags[m_done["id"]], flags[s_done["id"]]
    assert main["identity"] == "kept"
    assert main["on_board"] is True
    assert main["total"] == m_done["scores"][0]
    assert scout["identity"] == "deleted"
    assert scout["on_board"] is False
    assert scout["name"] is None
    assert scout["total"] == s_done["scores"][0]
    assert scout["networks"] == main["networks"]
    assert len(main["networks"][0]) == 64
    # S played while M's attempt was open: each is marked as overlapping the other.
    assert [(x["attempt"], x["overlap"]) for x in main["same_network"]] == [(s_done["id"], True)]
    assert [(x["attempt"], x["overlap"]) for x in scout["same_network"]] == [(m_done["id"], True)]
    assert main["first_move"] < scout["first_move"] <= scout["last_move"] < main["last_move"]
    # The evidence itself names nobody: no name, no identity.
    columns = {c["name"] for c in inspect(app.state.engine).get_columns("daily_address_plays")}
    assert columns == {
        "day",
        "address",
        "attempt_id",
        "created_at",
        "last_at",
        "finished_at",
        "total",
    }
    assert all("player" not in key for key in main)

    assert cli_main(["admin", "flags", DAY, "--database", database_url]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"2 flagged attempt(s) on {DAY}")
    assert "a deleted identity" in shown
    assert shown.count("overlapping in time") == 2
    # The moderator's verdict works where a result still stands, and says so where not.
    void = ["admin", "void-result", DAY, m_done["id"], "--database", database_url]
    assert cli_main(void) == 0
    assert board(m)["field"] == 0
    assert cli_main(["admin", "void-result", DAY, s_done["id"], "--database", database_url]) == 1
    after = {f["attempt"]: f for f in admin_flags(database_url, capsys)["flags"]}
    assert after[m_done["id"]]["on_board"] is False
    assert set(after) == set(flags)


def test_the_evidence_is_kept_thirty_days_then_deleted(
    app: FastAPI, clock: Clock, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    m, s = visitor(app), visitor(app)
    step(m, start(m), first)
    step(s, start(s), first)
    assert s.delete("/api/v1/daily/me").status_code == 204
    assert len(admin_flags(database_url, capsys)["flags"]) == 2
    # Each day's first start forgets what is older than ADDRESS_DAYS (30) days.
    clock.now = NOON + timedelta(days=30)
    start(visitor(app))
    assert len(admin_flags(database_url, capsys)["flags"]) == 2
    clock.now = NOON + timedelta(days=31)
    start(visitor(app))
    assert admin_flags(database_url, capsys)["flags"] == []
    assert evidence_rows(app) == 0
    assert cli_main(["admin", "flags", DAY, "--database", database_url]) == 0
    assert capsys.readouterr().out.strip() == f"no flagged attempts on {DAY}"


def _secrets() -> list[str]:
    return [
        DAY_SEED.hex(),
        *(daily_game.deal_seed(DAY_SEED, k).hex() for k in range(daily_game.DEALS)),
    ]


def _act(client: TestClient, state: Json) -> Any:
    action = (state["view"]["legal"] or ["pass"])[0]
    return client.post(
        f"/api/v1/daily/attempts/{state['id']}/actions",
        json={"action": action, "version": state["version"]},
    )


def test_a_clock_stepped_back_after_the_day_ended_cannot_reopen_it(
    app: FastAPI, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    ann = visitor(app)
    state = step(ann, start(ann), first)
    # Past midnight in Chicago: the day ends, and its seed is published (and stored).
    clock.now = daily_game.day_end(NOON.date()) + timedelta(minutes=1)
    [day] = [d for d in ok(ann.get("/api/v1/daily/days"))["days"] if d["date"] == DAY]
    assert day["seed"] == DAY_SEED.hex()
    # The machine's clock is stepped back an hour: the day stays over.
    clock.now -= timedelta(hours=1)
    assert not daily_game.is_over(NOON.date(), clock.now)
    with caplog.at_level(logging.ERROR, logger="sheepshead.server.day_end"):
        late = _act(ann, state)
    assert late.status_code == 409
    body = late.json()
    assert body["detail"] == DAY_OVER
    assert body["state"]["daily"]["void"] is True
    assert ok(ann.get("/api/v1/daily/today"))["date"] == "2025-06-02"
    assert board(ann, date=DAY)["seed"] == DAY_SEED.hex()
    [error] = [r for r in caplog.records if r.levelno == logging.ERROR]
    logged = error.getMessage()
    assert DAY in logged
    assert not any(secret in logged for secret in _secrets())
    assert not any(secret in caplog.text for secret in _secrets())
    # The write itself refuses, whatever instant a server worked with.
    store = DailyStore(app.state.engine)
    [attempt] = store.attempts_of_day(NOON.date())
    assert not store.save_attempt(attempt, attempt.moves, attempt.version + 1, False)
    assert store.attempts_of_day(NOON.date())[0].version == attempt.version


def test_a_clock_ahead_of_the_database_neither_ends_the_day_nor_publishes_its_seed(
    app: FastAPI, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    # The database's clock is the machine's real one: this server's is put a day ahead.
    real = datetime.now(UTC)
    if daily_game.day_end(daily_game.day_of(real)) - real < timedelta(minutes=1):
        pytest.skip("too close to midnight in Chicago for a day-long test")
    today = daily_game.day_of(real).isoformat()
    clock.now = real
    ann = visitor(app)
    state = step(ann, start(ann), first)
    clock.now = real + timedelta(days=1)
    with caplog.at_level(logging.WARNING, logger="sheepshead.server.day_end"):
        seen = board(ann, date=today)
        assert seen["final"] is False
        assert seen["seed"] is None
        assert all(d["date"] != today for d in ok(ann.get("/api/v1/daily/days"))["days"])
        assert ok(ann.get("/api/v1/daily/today"))["date"] == today
        moved = _act(ann, state)
    assert moved.status_code == 200, moved.text
    stored = DailyStore(app.state.engine).day(daily_game.day_of(real))
    assert stored is not None
    assert stored.ended_at is None
    assert any("ahead of the database" in r.getMessage() for r in caplog.records)
