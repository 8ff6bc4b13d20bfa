"""Your games (/me): the statistics and history kept as hands end and days finish.

A player's history is built through the API across days with the test clock, and
every figure is checked against a count made here from what the player was shown
(each hand's line of the score sheet; the days played): streaks across a missed day,
an attempt left unfinished, the days the clocks change in Chicago, a result voided by
a moderator, and an identity deleted. The computer players are the ``standard`` level,
for speed (the figures do not depend on it).
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from fastapi import FastAPI
from sqlalchemy import create_engine, func, select, text

from sheepshead import daily_game as daily
from sheepshead.server import Settings, create_app
from sheepshead.store.migrate import alembic_config
from sheepshead.store.moderation import ModerationStore
from sheepshead.store.stats_models import STAT_TABLES

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

Json = dict[str, Any]
PG_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
ME = "/api/v1/me"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2025, 3, 7, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def _app(url: str, tmp_path: Path, clock: Clock) -> FastAPI:
    settings = Settings(
        data_dir=tmp_path,
        database_url=url,
        dev=True,
        daily_secret="stats test secret",
        daily_level="standard",
        rate_identities=None,
        rate_actions=None,
        rate_actions_per_address=None,
    )
    app = create_app(settings)
    app.state.daily_clock = clock
    return app


@pytest.fixture
def make_app(tmp_path: Path, clock: Clock) -> Iterator[Callable[[str], FastAPI]]:
    apps: list[FastAPI] = []

    def make(url: str) -> FastAPI:
        app = _app(url, tmp_path, clock)
        apps.append(app)
        return app

    yield make
    for app in apps:
        service = getattr(app.state, "daily", None)
        if service is not None:
            service.close()
        app.state.engine.dispose()


@pytest.fixture
def app(make_app: Callable[[str], FastAPI], tmp_path: Path) -> FastAPI:
    return make_app(f"sqlite:///{tmp_path / 'me.db'}")


def visitor(app: FastAPI) -> TestClient:
    return TestClient(app, base_url="http://localhost")


def ok(response: Any, status: int = 200) -> Json:
    assert response.status_code == status, response.text
    body: Json = response.json()
    return body


# Playing -------------------------------------------------------------------------------


def choose(state: Json) -> str:
    """A legal action that varies with the table's version: picks, passes, partners and
    defenders all come up in a few hands."""
    legal: list[str] = state["view"]["legal"]
    chosen: str = legal[state["version"] % len(legal)]
    return chosen


def play_day(client: TestClient, finish: bool = True) -> Json:
    """Today's ranked attempt (``choose`` decides); unfinished: one move only."""
    reply = client.post("/api/v1/daily/attempts")
    assert reply.status_code in (200, 201), reply.text
    state: Json = reply.json()["state"]
    base = f"/api/v1/daily/attempts/{state['id']}"
    while not state["daily"]["finished"]:
        if state["hand_over"]:
            reply = client.post(f"{base}/next-deal", json={"version": state["version"]})
        else:
            reply = client.post(
                f"{base}/actions", json={"action": choose(state), "version": state["version"]}
            )
        state = ok(reply)["state"]
        if not finish:
            return state
    return state


def play_free(client: TestClient, hands: int, rules: Json | None = None) -> Json:
    state = ok(client.post("/api/v1/games", json={"rules": rules or {}}), 201)["state"]
    base = f"/api/v1/games/{state['id']}"
    while not (state["hand_over"] and state["hand_number"] == hands):
        if state["hand_over"]:
            reply = client.post(f"{base}/next-hand", json={"version": state["version"]})
        else:
            reply = client.post(
                f"{base}/actions", json={"action": choose(state), "version": state["version"]}
            )
        state = ok(reply)["state"]
    done: Json = state
    return done


def at_chicago(day: date, hour: int, minute: int = 0) -> datetime:
    """An instant by Chicago's wall clock (its offset on that day and hour)."""
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=daily.zone()).astimezone(UTC)


# Counting by hand ----------------------------------------------------------------------


class Count:
    """The figures as counted here from the score sheets' lines (seat 0 is the player)."""

    def __init__(self) -> None:
        self.hands = 0
        self.points = 0
        self.roles: Counter[str] = Counter()
        self.role_points: Counter[str] = Counter()
        self.positions: Counter[str] = Counter()
        self.picks: Counter[str] = Counter()
        self.picker_wins: Counter[str] = Counter()
        self.schneider: Counter[str] = Counter()

    def add(self, line: Json, players: int) -> None:
        seat_pos = (0 - line["dealer"] - 1) % players
        position = "dealer" if seat_pos == players - 1 else str(seat_pos + 1)
        score = line["scores"][0]
        picker, partners, result = line["picker"], line["partners"], line["result"]
        if result == "doubler":
            role = None
        elif result == "leaster":
            role = "leaster"
        elif picker == 0:
            role = "picker" if partners else "alone"
        else:
            role = "partner" if 0 in partners else "defender"
        self.hands += 1
        self.points += score
        self.positions[position] += 1
        if role is not None:
            self.roles[role] += 1
            self.role_points[role] += score
        if picker == 0 and result != "leaster":
            self.picks[position] += 1
            self.picker_wins[position] += result.startswith("win")
        if "schneider" in result:
            ours = picker == 0 or 0 in partners
            self.schneider["won" if ours == result.startswith("win") else "lost"] += 1

    def check(self, stats: Json) -> None:
        assert stats["hands_played"] == self.hands
        assert stats["game_points"] == self.points
        for role, fig in stats["roles"].items():
            assert (fig["hands"], fig["points"]) == (self.roles[role], self.role_points[role])
        for pos in stats["positions"]:
            key = pos["position"]
            assert pos["hands"] == self.positions[key], key
            assert pos["picks"] == self.picks[key], key
            assert pos["picker_wins"] == self.picker_wins[key], key
        assert stats["schneider"] == {"won": self.schneider["won"], "lost": self.schneider["lost"]}


def stats(client: TestClient) -> Json:
    return ok(client.get(f"{ME}/stats"))


def hands(client: TestClient, **params: Any) -> Json:
    return ok(client.get(f"{ME}/hands", params=params))


# The tests -----------------------------------------------------------------------------


def test_without_an_identity_both_answer_empty_and_make_none(app: FastAPI) -> None:
    guest = visitor(app)
    figures = guest.get(f"{ME}/stats")
    history = guest.get(f"{ME}/hands")
    page = guest.get("/me")
    for reply in (figures, history, page):
        assert reply.status_code == 200
        assert "set-cookie" not in reply.headers
    assert figures.json()["hands_played"] == 0
    assert figures.json()["daily_streak"] == 0
    assert history.json() == {"page": 1, "pages": 1, "per_page": 20, "total": 0, "hands": []}
    far = guest.get(f"{ME}/hands", params={"page": 2})
    assert far.status_code == 404
    assert far.json()["code"] == "page-out-of-range"
    assert guest.get(f"{ME}/hands", params={"page": 0}).status_code == 422
    assert guest.get(f"{ME}/hands", params={"kind": "poker"}).status_code == 422
    with app.state.engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM players")).scalar_one() == 0


def test_free_play_figures_and_history_match_the_score_sheet(app: FastAPI) -> None:
    ann = visitor(app)
    count = Count()
    standard = play_free(ann, 4)
    three = play_free(ann, 3, {"players": 3})
    for line in standard["score_sheet"]:
        count.add(line, 5)
    for line in three["score_sheet"]:
        count.add(line, 3)
    figures = stats(ann)
    count.check(figures)
    assert figures["points_per_hand"] == round(count.points / count.hands, 4)
    history = hands(ann)
    assert history["total"] == 7
    # Newest first: the three-handed game's last hand leads.
    first = history["hands"][0]
    assert (first["preset"], first["number"], first["kind"]) == ("three-handed", 3, "free")
    assert first["points"] == three["score_sheet"][2]["scores"][0]
    assert first["links"]["record"].endswith(f"/games/{three['id']}/hands/3/record")
    assert ok(ann.get(first["links"]["record"]))["rules"] == {"players": 3}
    only = hands(ann, preset="standard")
    assert only["total"] == 4
    assert {h["preset"] for h in only["hands"]} == {"standard"}
    assert hands(ann, kind="daily")["total"] == 0
    # Another player sees none of it.
    assert stats(visitor(app))["hands_played"] == 0


def test_streaks_across_missed_unfinished_voided_and_clock_change_days(
    app: FastAPI, clock: Clock
) -> None:
    ann = visitor(app)
    count = Count()

    def play(day: date, hour: int, minute: int = 0) -> Json:
        clock.now = at_chicago(day, hour, minute)
        assert daily.day_of(clock.now) == day
        state = play_day(ann)
        for line in state["score_sheet"]:
            count.add(line, 5)
        return state

    def streak_on(day: date, hour: int = 12) -> tuple[int, int, int]:
        clock.now = at_chicago(day, hour)
        figures = stats(ann)
        assert figures["daily_streak"] == figures["daily"]["streak"]
        return (
            figures["daily_streak"],
            figures["best_daily_streak"],
            figures["daily"]["days_played"],
        )

    play(date(2025, 3, 7), 12)
    play(date(2025, 3, 8), 23, 30)  # 05:30 UTC on the 9th: still the 8th in Chicago
    # The 9th springs forward: a 23-hour day, from 06:00 to 05:00 UTC.
    assert daily.day_end(date(2025, 3, 9)) - daily.day_end(date(2025, 3, 8)) == timedelta(hours=23)
    play(date(2025, 3, 9), 0, 30)
    last = play(date(2025, 3, 10), 23, 30)
    assert last["daily"]["date"] == "2025-03-10"
    assert streak_on(date(2025, 3, 10), 23) == (4, 4, 4)
    # The board's own line and its share line carry the streak, on the day.
    clock.now = at_chicago(date(2025, 3, 10), 23, 40)
    me = ok(ann.get("/api/v1/daily/board"))["me"]
    assert me["streak"] == 4
    assert me["share_line"].endswith(" \U0001f5254")
    # Not played yet today: the streak runs to yesterday; a missed day breaks it.
    assert streak_on(date(2025, 3, 11)) == (4, 4, 4)
    assert stats(ann)["daily"]["played_today"] is False
    assert streak_on(date(2025, 3, 12)) == (0, 4, 4)
    play(date(2025, 3, 12), 9)
    assert streak_on(date(2025, 3, 12)) == (1, 4, 5)
    # An attempt left unfinished when its day ends breaks the streak too.
    clock.now = at_chicago(date(2025, 3, 13), 10)
    play_day(ann, finish=False)
    assert streak_on(date(2025, 3, 14)) == (0, 4, 5)
    voided = play(date(2025, 3, 14), 8)
    assert streak_on(date(2025, 3, 14)) == (1, 4, 6)
    # A moderator voids today's result: the day stops counting.
    assert ModerationStore(app.state.engine).void_result(date(2025, 3, 14), voided["id"])
    assert streak_on(date(2025, 3, 14)) == (0, 4, 5)
    figures = stats(ann)
    assert figures["daily"]["voided"] == ["2025-03-14"]
    assert figures["daily"]["calendar"] == [
        "2025-03-07",
        "2025-03-08",
        "2025-03-09",
        "2025-03-10",
        "2025-03-12",
    ]
    # Alone on every day: each day's percentile is the field of one's 50.
    assert figures["daily"]["average_percentile"] == 50.0
    # The unfinished attempt's one deal is not a hand played (it never ended) unless
    # that first move ended it; the voided day's deals were played: they count.
    count.check(figures)
    assert hands(ann, kind="daily")["total"] == count.hands


def test_the_fall_back_day_and_the_percentile_against_the_board(app: FastAPI, clock: Clock) -> None:
    ann, bob = visitor(app), visitor(app)
    saturday = date(2025, 11, 1)
    clock.now = at_chicago(saturday, 23, 30)
    play_day(ann)
    play_day(bob)
    # 11-02 falls back: a 25-hour day; at 23:59 CST it is still the 2nd.
    sunday = date(2025, 11, 2)
    assert daily.day_end(sunday) - daily.day_end(saturday) == timedelta(hours=25)
    clock.now = daily.day_end(sunday) - timedelta(minutes=1)
    assert daily.day_of(clock.now) == sunday
    play_day(ann)
    clock.now = daily.day_end(sunday) + timedelta(minutes=1)
    play_day(ann)
    figures = stats(ann)
    assert (figures["daily_streak"], figures["best_daily_streak"]) == (3, 3)
    mine = ok(ann.get("/api/v1/daily/board", params={"date": "2025-11-01"}))["me"]
    first = figures["daily"]["percentiles"][0]
    assert first == {"date": "2025-11-01", "percentile": mine["percentile"]}
    # Today's deals keep the daily's secret in the history; the day's end opens them.
    today = [h for h in hands(ann)["hands"] if h["date"] == "2025-11-03"]
    assert len(today) == 5
    assert all(h["links"] == {"review": None, "record": None} for h in today)
    clock.now = daily.day_end(date(2025, 11, 3)) + timedelta(minutes=1)
    opened = [h for h in hands(ann)["hands"] if h["date"] == "2025-11-03"]
    assert all(
        h["links"]["review"] == f"/daily/2025-11-03/deals/{h['number']}/review" for h in opened
    )
    ok(ann.get(opened[0]["links"]["record"]))


def test_the_page_renders_in_three_languages_and_refuses_a_page_out_of_range(
    app: FastAPI,
) -> None:
    ann = visitor(app)
    play_free(ann, 2)
    for lang, word in (("en", "Your games"), ("de", "Deine Spiele"), ("bn", "আপনার খেলা")):
        page = ann.get("/me", params={"lang": lang})
        assert page.status_code == 200
        assert word in page.text
        assert 'aria-current="page">' + word in page.text
        far = ann.get("/me", params={"lang": lang, "page": 9})
        assert far.status_code == 404
        assert 'id="me-out-of-range"' in far.text
    assert "Es gibt keine Seite 9" in ann.get("/me?lang=de&page=9").text
    far = ann.get(f"{ME}/hands", params={"page": 2})
    assert far.status_code == 404
    assert far.json()["params"] == {"page": 2, "pages": 1}


def test_deleting_the_identity_deletes_its_statistics_and_history(app: FastAPI) -> None:
    ann = visitor(app)
    play_free(ann, 2)
    play_day(ann)
    player = ann.cookies["sheepshead_player"]
    assert ann.delete("/api/v1/daily/me").status_code == 204
    with app.state.engine.connect() as conn:
        for table in STAT_TABLES:
            left = conn.execute(
                select(func.count()).select_from(table).where(table.player_id == player)
            ).scalar_one()
            assert left == 0, table.__tablename__
    stranger = visitor(app)
    stranger.cookies.set("sheepshead_player", player)
    assert stats(stranger)["hands_played"] == 0
    assert hands(stranger)["total"] == 0


def test_the_migration_fills_the_figures_of_players_from_before_it(
    app: FastAPI, tmp_path: Path, clock: Clock
) -> None:
    ann = visitor(app)
    game = play_free(ann, 3)
    play_day(ann)
    before = stats(ann)
    engine = app.state.engine
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "names_0001")
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
    after = stats(ann)
    count = Count()
    for line in game["score_sheet"]:
        count.add(line, 5)
    # Free play is replayed; the daily's deals need the server's secret (not in a
    # migration), so the daily counts in days and streaks only.
    count.check(after)
    assert after["daily"]["days_played"] == before["daily"]["days_played"] == 1
    assert after["daily_streak"] == before["daily_streak"] == 1
    assert hands(ann)["total"] == 3


@pytest.mark.postgres
def test_on_postgresql_the_tallies_add_up(make_app: Callable[[str], FastAPI]) -> None:
    try:
        admin = create_engine(
            PG_ADMIN, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 2}
        )
        with admin.connect() as conn:
            conn.execute(text('DROP DATABASE IF EXISTS "sheepshead_me_stats" WITH (FORCE)'))
            conn.execute(text('CREATE DATABASE "sheepshead_me_stats"'))
    except Exception:
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    try:
        app = make_app("postgresql+psycopg://postgres@127.0.0.1:5432/sheepshead_me_stats")
        ann = visitor(app)
        count = Count()
        for line in play_free(ann, 3)["score_sheet"]:
            count.add(line, 5)
        for line in play_day(ann)["score_sheet"]:
            count.add(line, 5)
        figures = stats(ann)
        count.check(figures)
        assert figures["daily_streak"] == 1
        assert hands(ann)["total"] == 8
        app.state.engine.dispose()
    finally:
        with admin.connect() as conn:
            conn.execute(text('DROP DATABASE IF EXISTS "sheepshead_me_stats" WITH (FORCE)'))
        admin.dispose()
