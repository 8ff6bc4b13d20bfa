"""The player's own corner: ``GET /api/v1/me/stats``, ``GET /api/v1/me/hands`` and the
page ``/me`` (``docs/api.md``, ``docs/stats.md``).

Reads only: without an identity both answer an empty result and make none. Nothing
here is shown to anyone but the player, and today's daily deals keep the daily's
secret: the history shows the player's own result of a deal, never another seat's
cards, and no review or record of a deal before its day is over.
"""

from __future__ import annotations

import functools
import json
import math
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates

from sheepshead import daily_game as daily
from sheepshead.rules import PRESETS
from sheepshead.server import i18n
from sheepshead.server.daily_service import NowDep
from sheepshead.server.identity import KnownPlayerDep
from sheepshead.server.me_schemas import MyHands, MyStats
from sheepshead.server.refused import Refused
from sheepshead.server.schemas import Error
from sheepshead.store.hand_lines import CUSTOM, KINDS, ROLES, Streaks, position_key
from sheepshead.store.stats import PAGE_SIZE, Figures, HistoryLine, StatsStore, Tally

API = "/api/v1/me"
router = APIRouter(tags=["me"])

Kind = Literal["free", "daily", "replay", "friends"]
PresetName = Literal[
    "standard",
    "three-handed",
    "four-handed",
    "four-handed-called-ace",
    "six-handed",
    "jack-of-diamonds",
    "custom",
]
PageQuery = Annotated[int, Query(ge=1, le=10**6, description="from 1")]
KindQuery = Annotated[Kind | None, Query(description="free, daily, replay or friends")]
PresetQuery = Annotated[PresetName | None, Query(description="a rules preset, or custom")]
#: The most positions a table has (the dealer's included).
MAX_PLAYERS = max(r.players for r in PRESETS.values())
#: Days the percentile chart and the calendar look back.
CHART_DAYS = 365


def stats_of(request: Request) -> StatsStore:
    return StatsStore(request.app.state.engine)


# The figures ---------------------------------------------------------------------------


def _ratio(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(part / whole, 4)


def _tally_json(tally: Tally) -> dict[str, Any]:
    return {
        "hands": tally.hands,
        "points": tally.points,
        "points_per_hand": _ratio(tally.points, tally.hands),
        "won": tally.wins,
    }


def _position_json(key: str, tally: Tally) -> dict[str, Any]:
    return {
        "position": key,
        **_tally_json(tally),
        "picks": tally.picks,
        "pick_rate": _ratio(tally.picks, tally.hands),
        "picker_wins": tally.picker_wins,
        "picker_win_rate": _ratio(tally.picker_wins, tally.picks),
    }


def position_keys() -> list[str]:
    """``1`` (first to speak) ... ``dealer``, for the largest table."""
    return [position_key(p, MAX_PLAYERS) for p in range(MAX_PLAYERS - 1)] + ["dealer"]


def daily_json(figures: Figures, streaks: Streaks, today: date) -> dict[str, Any]:
    since = today - timedelta(days=CHART_DAYS - 1)
    counted = [d for d in figures.days if d.counted]
    known = [d.percentile for d in counted if d.percentile is not None]
    return {
        "days_played": streaks.days,
        "streak": streaks.current(today),
        "best_streak": streaks.best,
        "played_today": streaks.end == today,
        "average_percentile": None if not known else round(sum(known) / len(known), 1),
        "percentiles": [
            {"date": d.day.isoformat(), "percentile": round(d.percentile, 1)}
            for d in counted
            if d.percentile is not None and d.day >= since
        ],
        "calendar": [d.day.isoformat() for d in counted if d.day >= since],
        "voided": [d.day.isoformat() for d in figures.days if not d.counted],
        "today": today.isoformat(),
        "next_day_starts": daily.day_end(today).isoformat(),
    }


def stats_json(figures: Figures, today: date) -> dict[str, Any]:
    tallies = figures.tallies
    everything = tallies.get("all", Tally("all"))
    streaks = figures.streaks
    return {
        "hands_played": everything.hands,
        "game_points": everything.points,
        "points_per_hand": _ratio(everything.points, everything.hands),
        "daily_streak": streaks.current(today),
        "best_daily_streak": streaks.best,
        "roles": {role: _tally_json(tallies.get(f"role:{role}", Tally(role))) for role in ROLES},
        "positions": [
            _position_json(key, tallies.get(f"pos:{key}", Tally(key))) for key in position_keys()
        ],
        "schneider": {"won": everything.schneider_won, "lost": everything.schneider_lost},
        "no_trick": {"won": everything.no_trick_won, "lost": everything.no_trick_lost},
        "daily": daily_json(figures, streaks, today),
    }


EMPTY = Figures({}, Streaks(), ())


@router.get(f"{API}/stats", response_model=MyStats)
def my_stats(request: Request, player: KnownPlayerDep, at: NowDep) -> dict[str, Any]:
    """Your figures: hands played, game points per hand by role and by position from the
    dealer, pick rates, schneiders, and the daily's days and streaks. Without an
    identity: the same, empty (none is made)."""
    figures = EMPTY if player is None else stats_of(request).figures(player)
    return stats_json(figures, daily.day_of(at))


# The history ---------------------------------------------------------------------------


def _links(line: HistoryLine, at: datetime) -> dict[str, str | None]:
    if line.kind in ("free", "friends"):
        review = None
        if line.seed is not None:
            review = f"/verify?seed={line.seed}&players={line.players}"
        record = f"/api/v1/games/{line.source}/hands/{line.number}/record"
        if line.kind == "friends":
            record = f"{API}/tables/{line.source}/hands/{line.number}/record"
        return {"review": review, "record": record}
    assert line.day is not None
    if not daily.is_over(line.day, at):
        # Today's deals stay sealed: no other seat's cards before the day is over.
        return {"review": None, "record": None}
    # A ranked deal: the coach's review of it (daily_review.py); a replay: the day's page.
    review = f"/daily/{line.day.isoformat()}"
    if line.kind == "daily":
        review = f"{review}/deals/{line.number}/review"
    return {
        "review": review,
        "record": f"/api/v1/daily/attempts/{line.source}/deals/{line.number}/record",
    }


def line_json(line: HistoryLine, at: datetime) -> dict[str, Any]:
    return {
        "kind": line.kind,
        "preset": line.preset,
        "number": line.number,
        "date": None if line.day is None else line.day.isoformat(),
        "finished_at": line.finished_at.isoformat(),
        "players": line.players,
        "position": position_key(line.position, line.players),
        "role": line.role,
        "result": line.result,
        "points": line.points,
        "multiplier": line.multiplier,
        "counted": line.counted,
        "links": _links(line, at),
    }


def out_of_range(page: int, pages: int) -> Refused:
    return Refused(
        404,
        f"there is no page {page} of your history: it has {pages}",
        "page-out-of-range",
        {"page": page, "pages": pages},
    )


def history_page(
    request: Request,
    player: str | None,
    page: int,
    kind: str | None,
    preset: str | None,
) -> tuple[int, int, list[HistoryLine]]:
    """(total, pages, lines) of page ``page``; raises the 404 of a page out of range."""
    total, lines = (
        (0, []) if player is None else stats_of(request).history(player, page, kind, preset)
    )
    pages = max(1, math.ceil(total / PAGE_SIZE))
    if page > pages:
        raise out_of_range(page, pages)
    return total, pages, lines


@router.get(
    f"{API}/hands",
    response_model=MyHands,
    responses={404: {"model": Error, "description": "No such page (code page-out-of-range)"}},
)
def my_hands(
    request: Request,
    player: KnownPlayerDep,
    at: NowDep,
    page: PageQuery = 1,
    kind: KindQuery = None,
    preset: PresetQuery = None,
) -> dict[str, Any]:
    """Your finished hands, newest first, ``PAGE_SIZE`` a page; filter by ``kind`` and
    rules ``preset``. A page past the last: 404 ``page-out-of-range``."""
    total, pages, lines = history_page(request, player, page, kind, preset)
    return {
        "page": page,
        "pages": pages,
        "per_page": PAGE_SIZE,
        "total": total,
        "hands": [line_json(line, at) for line in lines],
    }


@router.get(
    f"{API}/tables/{{table_id}}/hands/{{number}}/record",
    responses={
        200: {"content": {"application/json": {}}, "description": "The hand record"},
        404: {"model": Error, "description": "Not a hand of your history (code no-such-hand)"},
    },
)
def my_table_hand_record(
    request: Request,
    player: KnownPlayerDep,
    table_id: Annotated[str, Path(max_length=32)],
    number: Annotated[int, Path(ge=1, le=10**6)],
) -> Response:
    """A friends' table's hand of your history: its record (hand-record.md), as the
    table showed it to your seat when the hand was over, whether or not the table is
    still open. Only for a person whose history holds it: 404 ``no-such-hand`` else."""
    from sheepshead.server.friends_play import Friends

    mine = player is not None and stats_of(request).has_hand(player, "friends", table_id, number)
    friends: Friends = request.app.state.friends
    stored = friends.store.load_id(table_id) if mine else None
    table = None if stored is None else friends.restore(stored)
    record = None if table is None else table.hand_record(number)
    if record is None:
        raise Refused(404, "there is no such hand in your history", "no-such-hand")
    return Response(
        json.dumps(record, indent=1) + "\n",
        media_type="application/json",
        headers={
            "content-disposition": (
                f'attachment; filename="sheepshead-friends-{table_id[:6]}-hand-{number}.json"'
            ),
            "cache-control": "private, no-store",
        },
    )


# The page ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _long_date(lang: str, iso: str) -> str:
    with i18n.speaking(lang):
        return i18n.long_date(iso)


def _day_names(stats: dict[str, Any]) -> dict[str, str]:
    """Each day the page names, in the reader's words: worked out once per day and
    language (a year of days is some 700 dates on the page)."""
    d = stats["daily"]
    days = {p["date"] for p in d["percentiles"]} | set(d["calendar"]) | set(d["voided"])
    lang = i18n.current()
    return {day: _long_date(lang, day) for day in days}


def _render(request: Request, status: int = 200, **context: Any) -> HTMLResponse:
    templates: Jinja2Templates = request.app.state.templates
    context["day_names"] = _day_names(context["stats"])
    response = templates.TemplateResponse(
        request, "me.html", {"page": "me", **context}, status_code=status
    )
    response.headers["cache-control"] = "no-cache"
    return response


@router.get("/me", response_class=HTMLResponse, include_in_schema=False)
def me_page(
    request: Request,
    player: KnownPlayerDep,
    at: NowDep,
    page: Annotated[int, Query(ge=1, le=10**6)] = 1,
    kind: Annotated[str | None, Query(max_length=16)] = None,
    preset: Annotated[str | None, Query(max_length=32)] = None,
) -> HTMLResponse:
    """Your games: the figures and charts, and the history. Makes no identity."""
    from sheepshead.server import me_charts

    kind = kind if kind in KINDS else None
    preset = preset if preset in PRESETS or preset == CUSTOM else None
    today = daily.day_of(at)
    figures = EMPTY if player is None else stats_of(request).figures(player)
    stats = stats_json(figures, today)
    context: dict[str, Any] = {
        "stats": stats,
        "charts": me_charts.charts(stats, today),
        "has_identity": player is not None,
        "kinds": KINDS,
        "presets": [*PRESETS, CUSTOM],
        "kind": kind,
        "preset": preset,
        "page_number": page,
    }
    try:
        total, pages, lines = history_page(request, player, page, kind, preset)
    except Refused as exc:
        return _render(request, 404, **context, out_of_range=exc.params, lines=[], pages=0)
    return _render(
        request,
        **context,
        total=total,
        pages=pages,
        lines=[line_json(line, at) for line in lines],
        out_of_range=None,
    )


def streak_of(request: Request, player: str | None, today: date) -> int:
    """The player's current daily streak (the board's share line carries it)."""
    if player is None:
        return 0
    return stats_of(request).streaks(player).current(today)


__all__ = ["router", "stats_json", "streak_of"]
