# ruff: noqa: F811  (the fixtures of daily_helpers are imported, then named as arguments)
"""The daily game through the API, on SQLite and on the machine's PostgreSQL.

Each test gets a fresh app (the fixtures and helpers are ``daily_helpers.py``'s). On
SQLite, a fresh database file; on PostgreSQL, one database for the run (created with a
unique name, dropped at the end), emptied before each test. The clock is the app's
``daily_clock``, so a test can end the day. The computer players are the ``standard``
level here, for speed: the daily game's logic does not depend on the level.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
import warnings
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import text

from server.daily_helpers import (  # noqa: F401  (fixtures, used by name)
    DAY_SEED,
    NOON,
    SECRET,
    TOOLS,
    Clock,
    Json,
    admin_flags,
    app,
    board,
    clock,
    database_url,
    deal_records,
    first,
    flagged,
    last,
    make_app,
    ok,
    play_day,
    postgres_url,
    start,
    step,
    visitor,
)
from sheepshead import bots, daily_game, record
from sheepshead.actions import parse_move
from sheepshead.bots.rulebot import RuleBot
from sheepshead.cli import main as cli_main
from sheepshead.names import player_label
from sheepshead.server import daily_play
from sheepshead.store.daily_store import DailyStore

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

# Tests ---------------------------------------------------------------------------


def test_today_publishes_the_commitment_and_the_next_start(app: FastAPI) -> None:
    today = ok(visitor(app).get("/api/v1/daily/today"))
    assert today["date"] == "2025-06-01"
    assert today["commitment"] == hashlib.sha256(DAY_SEED).hexdigest()
    assert today["next_day_starts"] == "2025-06-02T05:00:00+00:00"
    assert today["rules"] == {}
    assert today["deals"] == 5
    assert today["ranked"] is None


def test_two_players_get_identical_deals_and_identical_results(app: FastAPI, clock: Clock) -> None:
    ann, bob = visitor(app), visitor(app)
    a, b = play_day(ann), play_day(bob)
    assert a["id"] != b["id"]
    top = board(ann)["top"]
    assert [line["rank"] for line in top] == [1, 1]
    assert top[0]["score"] == top[1]["score"] == 50.0
    # A deal's record holds every seat's cards: it waits for the day's end.
    clock.now = daily_game.day_end(NOON.date()) + timedelta(seconds=1)
    records_a, records_b = deal_records(ann, a), deal_records(bob, b)
    for k, (ra, rb) in enumerate(zip(records_a, records_b, strict=True)):
        assert ra == rb  # same cards, same dealer, same actions, bots' included
        assert ra["dealer"] == daily_game.dealer_of(k)
        game = daily_game.deal(DAY_SEED, k)
        assert ra["hands"] == [[c.text for c in hand] for hand in game.dealt]
    assert a["scores"] == b["scores"]


def test_an_attempt_survives_a_reload_and_a_server_restart(
    make_app: Callable[[], FastAPI],
) -> None:
    first_app = make_app()
    ann = visitor(first_app)
    state = start(ann)
    for _ in range(4):
        state = step(ann, state, first)
    cookie = ann.cookies.get("sheepshead_player")
    first_app.state.engine.dispose()
    # A new process: nothing is kept in memory between the two.
    again = visitor(make_app())
    assert cookie is not None
    again.cookies.set("sheepshead_player", cookie)
    resumed = ok(again.get("/api/v1/daily/attempts/current"))
    assert resumed["id"] == state["id"]
    assert resumed["version"] == state["version"]
    assert resumed["view"] == state["view"]
    # Starting again returns the same attempt, not a new one.
    assert start(again)["id"] == state["id"]
    finished = play_day(again, first, resumed)
    assert finished["daily"]["finished"] is True


def test_forged_stale_or_foreign_requests_change_nothing(app: FastAPI) -> None:
    ann, eve = visitor(app), visitor(app)
    state = start(ann)
    url = f"/api/v1/daily/attempts/{state['id']}/actions"
    action = state["view"]["legal"][0]
    # A score, or any field the API does not take, is refused.
    forged = ann.post(url, json={"action": action, "version": state["version"], "score": 99})
    assert forged.status_code == 422
    # Another player cannot read or act on the attempt, nor learn that it exists.
    assert eve.get(f"/api/v1/daily/attempts/{state['id']}").status_code == 404
    theirs = eve.post(url, json={"action": action, "version": state["version"]})
    assert theirs.status_code == 404
    # The same action sent twice: the second is stale.
    ok(ann.post(url, json={"action": action, "version": state["version"]}))
    replayed = ann.post(url, json={"action": action, "version": state["version"]})
    assert replayed.status_code == 409
    current = ok(ann.get(f"/api/v1/daily/attempts/{state['id']}"))
    assert replayed.json()["state"]["version"] == current["version"]
    # An illegal action gets the engine's reason and changes nothing.
    if not current["hand_over"]:
        bad = ann.post(url, json={"action": "play QX", "version": current["version"]})
        assert bad.status_code == 422
        assert ok(ann.get(f"/api/v1/daily/attempts/{state['id']}"))["version"] == current["version"]
    finished = play_day(ann, first, current)
    # A finished attempt takes no more actions.
    closed = ann.post(url, json={"action": "pass", "version": finished["version"]})
    assert closed.status_code == 409
    me = board(ann)["me"]
    assert me["total"] == finished["scores"][0]


def test_the_seed_is_secret_until_the_day_ends_then_matches_the_commitment(
    app: FastAPI, clock: Clock
) -> None:
    ann = visitor(app)
    commitment = ok(ann.get("/api/v1/daily/today"))["commitment"]
    secrets_hex = [DAY_SEED.hex()] + [daily_game.deal_seed(DAY_SEED, k).hex() for k in range(5)]
    seen: list[str] = []
    state = start(ann)
    seen.append(str(state))
    while not state["daily"]["finished"]:
        state = step(ann, state, first)
        seen.append(str(state))
    for path in (
        "/api/v1/daily/today",
        "/api/v1/daily/board",
        "/api/v1/daily/days",
        "/api/v1/daily/week",
        "/api/v1/daily/attempts/current",
        "/daily",
        "/leaderboard",
        f"/api/v1/daily/board?date={NOON.date().isoformat()}",
    ):
        seen.append(ann.get(path).text)
    for n in range(1, 6):
        refused = ann.get(f"/api/v1/daily/attempts/{state['id']}/deals/{n}/record")
        assert refused.status_code == 409
        seen.append(refused.text)
    assert state["seed"] is None
    everything = "\n".join(seen)
    for hidden in secrets_hex:
        assert hidden not in everything
    # A day not started yet cannot be asked for.
    tomorrow = (NOON.date() + timedelta(days=1)).isoformat()
    assert ann.get("/api/v1/daily/board", params={"date": tomorrow}).status_code == 404
    # The day ends: its seed is published, and it matches what was committed to.
    clock.now = daily_game.day_end(NOON.date()) + timedelta(seconds=1)
    past = board(ann, date=NOON.date().isoformat())
    assert past["final"] is True
    assert past["seed"] == DAY_SEED.hex()
    assert hashlib.sha256(bytes.fromhex(past["seed"])).hexdigest() == commitment
    checked = ok(
        ann.get("/api/v1/daily/verify", params={"date": "2025-06-01", "seed": past["seed"]})
    )
    assert checked["matches"] is True
    assert [d["seed"] for d in checked["deals"]] == secrets_hex[1:]
    revealed = ok(ann.get(f"/api/v1/daily/attempts/{state['id']}"))
    assert revealed["seed"] == secrets_hex[5]
    # And the score sheet's links to check each deal have their seeds now.
    assert [line["seed"] for line in revealed["score_sheet"]] == secrets_hex[1:]


def test_other_players_per_deal_results_stay_hidden_until_you_finish(app: FastAPI) -> None:
    ann, bob = visitor(app), visitor(app)
    play_day(ann)
    seen_by_bob = board(bob)
    assert seen_by_bob["field"] == 1
    assert seen_by_bob["top"][0]["points"] is None
    assert seen_by_bob["deals"] is None
    play_day(bob, last)
    # The expert's points are worked out in the background from the day's first start.
    for thread in app.state.daily.expert_threads.values():
        thread.join(120)
    after = board(bob)
    assert all(line["points"] is not None for line in after["top"])
    deals = after["deals"]
    assert [d["deal"] for d in deals] == [1, 2, 3, 4, 5]
    assert all(d["spread"]["low"] <= d["spread"]["high"] for d in deals)
    assert all(isinstance(d["expert"], int) for d in deals)
    me = after["me"]
    assert me["share_line"].startswith("Sheepshead daily 2025-06-01: ")
    assert not any(str(p) in me["share_line"].split(": ")[1] for p in (me["total"],) if p)


def test_an_attempt_unfinished_when_the_day_ends_is_void(app: FastAPI, clock: Clock) -> None:
    ann = visitor(app)
    state = step(ann, start(ann), first)
    clock.now = daily_game.day_end(NOON.date()) + timedelta(minutes=1)
    late = ann.post(
        f"/api/v1/daily/attempts/{state['id']}/actions",
        json={"action": (state["view"]["legal"] or ["pass"])[0], "version": state["version"]},
    )
    assert late.status_code == 409
    assert late.json()["state"]["daily"]["void"] is True
    assert board(ann, date="2025-06-01")["field"] == 0
    # The new day starts a new ranked attempt.
    fresh = start(ann)
    assert fresh["daily"]["date"] == "2025-06-02"
    assert fresh["daily"]["ranked"] is True


def test_the_day_follows_chicago_across_midnight_utc(app: FastAPI, clock: Clock) -> None:
    clock.now = datetime(2025, 6, 2, 4, 59, tzinfo=UTC)  # 23:59 in Chicago
    assert ok(visitor(app).get("/api/v1/daily/today"))["date"] == "2025-06-01"
    clock.now = datetime(2025, 6, 2, 5, 0, tzinfo=UTC)
    assert ok(visitor(app).get("/api/v1/daily/today"))["date"] == "2025-06-02"


def test_names_are_checked_unique_escaped_and_can_be_hidden(
    app: FastAPI, database_url: str
) -> None:
    ann, bob = visitor(app), visitor(app)
    refused = ann.put("/api/v1/daily/me/name", json={"name": "<b>Ann</b>"})
    assert refused.status_code == 422
    assert "markup" in refused.json()["detail"]
    assert ok(ann.put("/api/v1/daily/me/name", json={"name": "O'Brien"}))["name"] == "O'Brien"
    assert bob.put("/api/v1/daily/me/name", json={"name": "o’brien"}).status_code == 409
    assert bob.put("/api/v1/daily/me/name", json={"name": "0'Brien"}).status_code == 409
    play_day(ann)
    assert board(ann)["top"][0]["name"] == "O'Brien"
    page = ann.get("/daily").text
    assert "O&#39;Brien" in page
    assert "O'Brien" not in page
    # The moderator may type the name as it looks: other case, apostrophe or look-alikes.
    assert cli_main(["admin", "hide-name", "0’BRIEN", "--database", database_url]) == 0
    label = player_label(SECRET.encode(), ann.cookies["sheepshead_player"])
    assert board(bob)["top"][0]["name"] == label
    # A hidden name stays taken.
    assert bob.put("/api/v1/daily/me/name", json={"name": "O'Brien"}).status_code == 409
    assert cli_main(["admin", "hide-name", "O'Brien", "--undo", "--database", database_url]) == 0
    assert board(bob)["top"][0]["name"] == "O'Brien"
    assert cli_main(["admin", "hide-name", "Nobody Here", "--database", database_url]) == 1


def test_a_recovery_code_carries_the_identity_and_deleting_removes_it(app: FastAPI) -> None:
    ann = visitor(app)
    ok(ann.put("/api/v1/daily/me/name", json={"name": "Badger"}))
    play_day(ann)
    code = ok(ann.post("/api/v1/daily/me/recovery-code"))["code"]
    other_device = visitor(app)
    assert other_device.post("/api/v1/daily/recover", json={"code": "ABCD"}).status_code == 422
    ok(other_device.post("/api/v1/daily/recover", json={"code": code.lower()}))
    assert ok(other_device.get("/api/v1/daily/me"))["name"] == "Badger"
    assert ok(other_device.get("/api/v1/daily/today"))["ranked"]["finished"] is True
    gone = ann.delete("/api/v1/daily/me")
    assert gone.status_code == 204
    assert board(visitor(app))["field"] == 0
    assert other_device.post("/api/v1/daily/recover", json={"code": code}).status_code == 404


def test_ranked_attempts_played_from_one_network_are_all_flagged(
    app: FastAPI, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ann, sock = visitor(app), visitor(app)  # the test client: one address for both
    a, b = start(ann), start(sock)
    # Opening the page starts an attempt, but only playing it counts: a second person
    # of the house who only looks is not flagged.
    step(ann, a, first)
    assert flagged(app) == {a["id"]: False, b["id"]: False}
    # Once both have played, both are flagged: who played first does not matter.
    step(sock, b, first)
    assert flagged(app) == {a["id"]: True, b["id"]: True}
    flags = {f["attempt"]: f for f in admin_flags(database_url, capsys)["flags"]}
    assert set(flags) == {a["id"], b["id"]}
    assert flags[b["id"]]["finished"] is False
    assert flags[b["id"]]["identity"] == "kept"
    assert [x["attempt"] for x in flags[a["id"]]["same_network"]] == [b["id"]]
    assert [x["attempt"] for x in flags[b["id"]]["same_network"]] == [a["id"]]


def test_a_scout_that_deletes_itself_does_not_clear_the_flag(
    app: FastAPI, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    scout, main = visitor(app), visitor(app)
    scouted = play_day(scout)
    assert scout.delete("/api/v1/daily/me").status_code == 204
    mine = play_day(main)
    assert flagged(app) == {mine["id"]: True}
    flags = {f["attempt"]: f for f in admin_flags(database_url, capsys)["flags"]}
    flag = flags[mine["id"]]
    assert [x["attempt"] for x in flag["same_network"]] == [scouted["id"]]
    assert flag["finished"] is True
    assert flag["total"] == mine["scores"][0]
    # The scout's own evidence stays, without its identity; one after the other.
    assert flags[scouted["id"]]["identity"] == "deleted"
    assert flags[scouted["id"]]["total"] == scouted["scores"][0]
    assert flag["same_network"][0]["overlap"] is False
    # The moderator's verdict: the result leaves the board, and the attempt stays over.
    assert board(main)["field"] == 1
    void = ["admin", "void-result", "2025-06-01", mine["id"], "--database", database_url]
    assert cli_main(void) == 0
    assert board(main)["field"] == 0
    assert cli_main(void) == 1
    assert main.post("/api/v1/daily/attempts").status_code == 409


def test_an_ipv6_network_counts_as_one_address(app: FastAPI) -> None:
    ann = TestClient(app, base_url="http://localhost", client=("2001:db8:5:7::1", 50000))
    bob = TestClient(app, base_url="http://localhost", client=("2001:db8:5:7::2", 50001))
    far = TestClient(app, base_url="http://localhost", client=("2001:db8:5:8::2", 50002))
    a, b, c = start(ann), start(bob), start(far)
    for client, state in ((ann, a), (bob, b), (far, c)):
        step(client, state, first)
    assert flagged(app) == {a["id"]: True, b["id"]: True, c["id"]: False}


@pytest.fixture
def frozen_today(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Today's play frozen by ``tools/freeze_bots.py``, as before a change of play."""
    spec = importlib.util.spec_from_file_location("freeze_bots", TOOLS / "freeze_bots.py")
    assert spec is not None
    assert spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    tool.freeze(tmp_path / "frozen" / "daily_probe_v1", "daily_probe_v1")
    monkeypatch.syspath_prepend(str(tmp_path / "frozen"))
    return "daily_probe_v1"


def deploy_new_play(monkeypatch: pytest.MonkeyPatch, frozen: str) -> None:
    """What a deployment of version 2 does: new play, and version 1 frozen beside it."""
    monkeypatch.setattr(bots, "FROZEN", {bots.VERSION: frozen})
    monkeypatch.setattr(bots, "VERSION", str(int(bots.VERSION) + 1))
    monkeypatch.setattr(RuleBot, "choose", lambda self, view, rng: view.legal[-1])


def bot_moves(records: list[Json]) -> list[tuple[str, list[str]]]:
    """Each move of a computer player, with what it could have done instead."""
    out = []
    for data in records:
        game = record.start_of(data)
        for line in data["actions"]:
            move = parse_move(line)
            if move.seat != daily_game.PLAYER_SEAT:
                out.append((line, [f"{move.seat} {a}" for a in game.legal_actions()]))
            game = game.apply(move.action)
    return out


def test_a_day_keeps_the_computer_players_it_started_with_across_a_deployment(
    make_app: Callable[[], FastAPI],
    clock: Clock,
    frozen_today: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = make_app()
    ann, cal = visitor(before), visitor(before)
    state = start(ann)
    for _ in range(6):
        state = step(ann, state, first)
    unbroken = play_day(cal, first)
    started_with = f"standard/{bots.VERSION}"
    before.state.engine.dispose()

    deploy_new_play(monkeypatch, frozen_today)
    after = make_app()
    ann_again, dan, cal_again = visitor(after), visitor(after), visitor(after)
    ann_again.cookies.set("sheepshead_player", ann.cookies["sheepshead_player"])
    cal_again.cookies.set("sheepshead_player", cal.cookies["sheepshead_player"])
    # The attempt begun before the deployment meets the same answers to its end, and
    # so does a player who starts the day after it.
    resumed = play_day(ann_again, first, ok(ann_again.get("/api/v1/daily/attempts/current")))
    later = play_day(dan, first)
    assert ok(dan.get("/api/v1/daily/today"))["bot_version"] == started_with
    assert board(dan)["field"] == 3

    # The next day is played with the new play; the records of the day before, out
    # now, show the same answers before and after the deployment.
    clock.now += timedelta(days=1)
    played_before = deal_records(cal_again, unbroken)
    assert deal_records(ann_again, resumed) == played_before
    assert deal_records(dan, later) == played_before
    # The new play's version, as deploy_new_play set it.
    assert ok(dan.get("/api/v1/daily/today"))["bot_version"] == f"standard/{bots.VERSION}"
    # The archive replays the day before against its own players, kept frozen.
    replay = ok(dan.post("/api/v1/daily/days/2025-06-01/replays"), 201)["state"]
    assert replay["daily"]["ranked"] is False
    assert replay["daily"]["date"] == "2025-06-01"
    assert deal_records(dan, play_day(dan, first, replay)) == played_before
    new_day = play_day(dan, first)
    clock.now += timedelta(days=1)
    moves = bot_moves(deal_records(dan, new_day))
    assert moves
    assert all(text == legal[-1] for text, legal in moves)


def test_a_day_whose_computer_players_this_server_lacks_says_so(app: FastAPI) -> None:
    store = DailyStore(app.state.engine)
    # Stored by a server with other play, then rolled back before the day's end.
    store.ensure_day(NOON.date(), hashlib.sha256(DAY_SEED).hexdigest(), "standard/0")
    reply = visitor(app).post("/api/v1/daily/attempts")
    assert reply.status_code == 503
    assert "version 0" in reply.json()["detail"]
    assert "the next day" in reply.json()["detail"]


def test_the_pages_render_and_the_verify_page_checks_a_past_day(app: FastAPI, clock: Clock) -> None:
    ann = visitor(app)
    for path in ("/daily", "/leaderboard", "/privacy", "/verify/daily"):
        page = ann.get(path)
        assert page.status_code == 200, path
        assert "text/html" in page.headers["content-type"]
    ok(ann.get("/api/v1/daily/today"))  # publishes the day's commitment
    clock.now = daily_game.day_end(NOON.date()) + timedelta(hours=1)
    html = ann.get("/verify/daily", params={"date": "2025-06-01", "seed": DAY_SEED.hex()}).text
    assert "they match" in html
    assert "Deal 5" in html
    wrong = ann.get("/verify/daily", params={"date": "2025-06-01", "seed": "00" * 32}).text
    assert "they DO NOT match" in wrong
    days = ok(ann.get("/api/v1/daily/days"))["days"]
    assert days[0]["date"] == "2025-06-01"
    assert days[0]["seed"] == DAY_SEED.hex()
    # The leaderboard's link passes the fingerprint shown at the day's start; the page
    # compares it, and names the seats as the table does.
    shown = {"date": "2025-06-01", "seed": DAY_SEED.hex(), "sha256": days[0]["commitment"]}
    html = ann.get("/verify/daily", params=shown).text
    assert "It matches the fingerprint shown at the deal." in html
    assert ">Ann</span>" in html
    assert ">You</span>" in html
    assert "Seat 1" not in html
    html = ann.get("/verify/daily", params={**shown, "sha256": "0" * 64}).text
    assert "It does not match the fingerprint shown at the deal" in html


def test_on_a_large_field_no_request_waits_for_the_boards_refresh(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(daily_play, "LIVE_FIELD", 1)  # every field counts as large
    monkeypatch.setattr(daily_play, "REFRESH_SECONDS", 0.0)
    ann, bob = visitor(app), visitor(app)
    play_day(ann)  # the first result: the field was 0, so refreshed at once
    assert board(ann)["me"]["rank"] == 1
    release, refreshing = threading.Event(), threading.Event()
    refresh = DailyStore.refresh_board

    def slow_refresh(store: DailyStore, day: date) -> int:
        refreshing.set()
        assert release.wait(30), "the test never let the refresh go"
        return refresh(store, day)

    monkeypatch.setattr(DailyStore, "refresh_board", slow_refresh)
    done = play_day(bob)  # its last action returns while the refresh is held up
    assert done["daily"]["finished"] is True
    assert refreshing.wait(30)
    mine = board(bob)["me"]
    assert mine["pending"] is True
    assert mine["rank"] is None
    assert mine["total"] == done["scores"][0]
    release.set()
    svc = app.state.daily
    assert svc.refreshing.acquire(timeout=30)  # the background refresh is over
    svc.refreshing.release()
    assert board(bob)["field"] == 2
    assert board(bob)["me"]["rank"] in (1, 2)


def test_the_expert_s_points_are_ready_without_a_request_waiting_for_them(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    work_out = daily_game.expert_points

    def slow(*args: Any, **kwargs: Any) -> list[int]:
        assert release.wait(60), "the test never let the expert play"
        return work_out(*args, **kwargs)

    monkeypatch.setattr(daily_game, "expert_points", slow)
    ann = visitor(app)
    done = play_day(ann)  # the expert is still at work all along
    deals = board(ann)["deals"]
    assert deals is not None
    assert all(d["expert"] is None for d in deals)
    release.set()
    [thread] = app.state.daily.expert_threads.values()
    thread.join(120)
    deals = board(ann)["deals"]
    seed = daily_game.day_seed(SECRET.encode(), NOON.date())
    svc = app.state.daily
    expected = work_out(seed, "standard", svc.bot_seed(NOON.date()))
    assert [d["expert"] for d in deals] == expected
    assert sum(d["you"] for d in deals) == done["scores"][0]


def stored_addresses(app: FastAPI) -> dict[str, str | None]:
    with app.state.engine.connect() as conn:
        rows = conn.execute(text("SELECT id, address FROM daily_attempts")).all()
    return {row.id: row.address for row in rows}


def test_a_network_is_hashed_with_the_day_and_forgotten_after_thirty_days(
    app: FastAPI, clock: Clock
) -> None:
    ann = visitor(app)
    day_one = start(ann)
    step(ann, day_one, first)  # a move: the network's play of the day is recorded
    clock.now += timedelta(days=1)
    second = start(ann)
    addresses = stored_addresses(app)
    # One network, two days: two hashes that do not link the days to each other.
    assert addresses[day_one["id"]]
    assert addresses[second["id"]]
    assert addresses[day_one["id"]] != addresses[second["id"]]
    with app.state.engine.connect() as conn:
        plays = conn.execute(text("SELECT day FROM daily_address_plays")).scalars().all()
    assert len(plays) == 1
    clock.now += timedelta(days=30)
    start(ann)  # the first attempt of a day 31 days after the first
    addresses = stored_addresses(app)
    assert addresses[day_one["id"]] is None
    assert addresses[second["id"]] is not None
    with app.state.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM daily_address_plays")).scalar() == 0
