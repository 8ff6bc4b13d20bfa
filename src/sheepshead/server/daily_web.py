"""The daily game on the web: ``/api/v1/daily/...`` and the pages ``/daily``,
``/leaderboard``, ``/verify/daily`` and ``/privacy`` (``docs/daily.md``,
``docs/api.md``). The attempts' routes are in ``daily_play.py``, included here, so
the app registers one router.

What a request may see: today's seed never (only its commitment); other players'
per-deal results only once the requesting player has finished that day, or the day
is over; other players' attempts never.
"""

from __future__ import annotations

import hmac
from datetime import date, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from sheepshead import daily_game
from sheepshead.server.daily_archive import router as archive_router
from sheepshead.server.daily_play import API, BOARD_SIZE, _refresh
from sheepshead.server.daily_play import router as attempts_router
from sheepshead.server.daily_review import router as review_router
from sheepshead.server.daily_service import Daily, DailyDep, NowDep
from sheepshead.server.identity import KnownPlayerDep
from sheepshead.server.pages import fingerprint_matches
from sheepshead.server.players import router as players_router
from sheepshead.server.schemas import Error
from sheepshead.store.daily_store import Day
from sheepshead.store.stats import StatsStore
from sheepshead.table import names_for

router = APIRouter(tags=["daily"])
router.include_router(attempts_router)
router.include_router(archive_router)
router.include_router(players_router)
router.include_router(review_router)


def _answers(code: int, description: str) -> dict[int | str, dict[str, Any]]:
    """An answer besides 200 and validation's 422, for the OpenAPI document."""
    return {code: {"model": Error, "description": description}}


def _day_param(text: str | None, at: datetime) -> date:
    today = daily_game.day_of(at)
    if text is None:
        return today
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise HTTPException(422, "date: write it as YYYY-MM-DD") from None
    if day > today:
        raise HTTPException(404, "that day has not started yet")
    return day


DateQuery = Annotated[
    str | None, Query(alias="date", max_length=10, description="YYYY-MM-DD; today if omitted")
]


def _finished(svc: Daily, player: str | None, day: date) -> bool:
    if player is None:
        return False
    return any(a.ranked and a.finished for a in svc.store.attempts(player, day))


# Today and past days ----------------------------------------------------------------


@router.get(f"{API}/today")
def today(player: KnownPlayerDep, svc: DailyDep, at: NowDep) -> dict[str, Any]:
    """Today's day: its commitment (the SHA-256 of its seed), when the next starts,
    and where the player stands in it (a visitor without an identity gets none)."""
    day = daily_game.day_of(at)
    row = svc.day_row(day)
    attempts = [] if player is None else svc.store.attempts(player, day)
    ranked = next((a for a in attempts if a.ranked), None)
    name = None if player is None else svc.identities.name_of(player)
    return {
        "date": day.isoformat(),
        "commitment": row.commitment,
        "next_day_starts": daily_game.day_end(day).isoformat(),
        "deals": daily_game.DEALS,
        "rules": daily_game.RULES.to_record(),
        "bot_version": row.bot_version,
        "ranked": None
        if ranked is None
        else {"id": ranked.id, "finished": ranked.finished, "deal": len(ranked.moves)},
        "attempts": len(attempts),
        "name": None if name is None else name[0],
    }


def _day_json(row: Day, at: datetime) -> dict[str, Any]:
    over = daily_game.is_over(row.day, at)
    return {
        "date": row.day.isoformat(),
        "commitment": row.commitment,
        "final": over,
        "field": row.field,
        "bot_version": row.bot_version,
    }


@router.get(f"{API}/days")
def past_days(svc: DailyDep, at: NowDep) -> dict[str, Any]:
    """The days before today, newest first, each with its published seed."""
    days = []
    for row in svc.store.days(before=daily_game.day_of(at)):
        item = _day_json(row, at)
        # Published once the day's end is stored (``day_end.py``), not by the clock alone.
        item["seed"] = svc.seed(row.day).hex() if row.ended_at is not None else None
        days.append(item)
    return {"days": days}


# The board ------------------------------------------------------------------------


def _expert_points(svc: Daily, row: Day) -> list[int] | None:
    """What the day's computer player scores in the player's seat, on each deal; None
    while it is being worked out (seconds, in the background: ``Daily.expert_later``)."""
    if row.expert_points is not None:
        return list(row.expert_points)
    svc.expert_later(row)
    return None


def _spread_json(counts: dict[str, int]) -> dict[str, Any] | None:
    values = sorted((int(v), n) for v, n in counts.items())
    expanded = [v for v, n in values for _ in range(n)]
    spread = daily_game.spread(expanded)
    if spread is None:
        return None
    return {
        "low": spread.low,
        "median": spread.median,
        "high": spread.high,
        "counts": [[v, n] for v, n in spread.counts],
    }


@router.get(f"{API}/board", responses=_answers(404, "That day has not started yet"))
def board(
    player: KnownPlayerDep, svc: DailyDep, at: NowDep, date_: DateQuery = None
) -> dict[str, Any]:
    """A day's board: the top 100 and the player's own line. Per-deal results only
    once the player has finished that day (or the day is over)."""
    day = _day_param(date_, at)
    row = svc.store.day(day)
    over = daily_game.is_over(day, at)
    out: dict[str, Any] = {
        "date": day.isoformat(),
        "final": over,
        "field": 0,
        "top": [],
        "me": None,
        "deals": None,
        "commitment": daily_game.commitment(svc.seed(day)),
        "seed": None,
    }
    if row is None:
        return out
    if row.ended_at is not None:
        # Published once the day's end is stored (``day_end.py``), not by the clock alone.
        out["seed"] = svc.seed(day).hex()
    if _refresh(svc, row):
        row = svc.store.day(day)
        assert row is not None
    field = row.field
    finished = _finished(svc, player, day)
    open_book = finished or over
    out["field"] = field
    out["top"] = [
        {
            "rank": line.rank,
            "name": svc.shown(line.player_id, line.name),
            "you": line.player_id == player,
            "score": round(daily_game.score_percent(line.mp or 0, field), 2),
            "total": line.total,
            "points": list(line.points) if open_book else None,
        }
        for line in svc.store.board(day, BOARD_SIZE)
    ]
    mine = None if player is None else svc.store.line(day, player)
    if mine is not None and mine.rank is not None and mine.marks is not None:
        level = svc.store.level_with(day, mine.rank)
        behind = field - (mine.rank - 1) - level
        percentile = 50.0 if field <= 1 else 100.0 * (behind + (level - 1) / 2) / (field - 1)
        shares = [daily_game.share_percent(m, field) for m in mine.marks]
        score = daily_game.score_percent(mine.mp or 0, field)
        # The streak as of today, on today's board only (a past day's line has none).
        streak = 0 if over else StatsStore(svc.store.engine).streaks(mine.player_id).current(day)
        out["me"] = {
            "rank": mine.rank,
            "name": svc.shown(mine.player_id, mine.name),
            "score": round(score, 2),
            "total": mine.total,
            "percentile": round(percentile, 1),
            "points": list(mine.points),
            "shares": [round(s, 1) for s in shares],
            "streak": streak,
            "share_line": daily_game.share_line(day, score, shares, streak),
        }
    elif mine is not None:
        out["me"] = {
            "rank": None,
            "name": svc.shown(mine.player_id, mine.name),
            "total": mine.total,
            "pending": True,
        }
    if open_book and row.spreads is not None:
        expert = _expert_points(svc, row)
        out["deals"] = [
            {
                "deal": k + 1,
                "you": None if mine is None else mine.points[k],
                "spread": _spread_json(row.spreads[k]),
                "expert": None if expert is None else expert[k],
            }
            for k in range(daily_game.DEALS)
        ]
    return out


@router.get(f"{API}/week", responses=_answers(404, "That day has not started yet"))
def week(
    player: KnownPlayerDep, svc: DailyDep, at: NowDep, date_: DateQuery = None
) -> dict[str, Any]:
    """The week (Monday to Sunday) of the given day: the sum of each player's day scores."""
    day = _day_param(date_, at)
    monday = daily_game.week_of(day)
    rows = svc.store.week(monday, monday + timedelta(days=6))
    names = {p: svc.shown(p, shown) for p, shown, _, _ in rows}
    standings = daily_game.rank_week(
        [
            daily_game.WeekEntry(p, tuple(daily_game.score_percent(mp, f) for mp, f in days), total)
            for p, _, days, total in rows
        ]
    )

    def line(s: daily_game.WeekStanding) -> dict[str, Any]:
        return {
            "rank": s.rank,
            "name": names[s.player],
            "you": s.player == player,
            "score": round(s.score, 2),
            "days": s.days,
            "total": s.total,
        }

    mine = next((s for s in standings if s.player == player), None)
    return {
        "week_of": monday.isoformat(),
        "players": len(standings),
        "top": [line(s) for s in standings[:BOARD_SIZE]],
        "me": None if mine is None else line(mine),
    }


# Verify ------------------------------------------------------------------------------


def verify_json(svc: Daily, day_text: str, seed_text: str) -> dict[str, Any]:
    """Re-derive a day's deals from its seed; compare with the published commitment."""
    try:
        day = date.fromisoformat(day_text.strip())
    except ValueError:
        raise HTTPException(422, "date: write it as YYYY-MM-DD") from None
    try:
        seed = daily_game.parse_seed(seed_text)
    except ValueError as exc:
        raise HTTPException(422, f"seed: {exc}") from None
    row = svc.store.day(day)
    published = None if row is None else row.commitment
    digest = daily_game.commitment(seed)
    return {
        "date": day.isoformat(),
        "seed_sha256": digest,
        "published": published,
        "matches": None if published is None else hmac.compare_digest(published, digest),
        "deals": [d.to_json() for d in daily_game.reveal(seed)],
    }


@router.get(f"{API}/verify", tags=["fairness"])
def verify(
    svc: DailyDep,
    date_: Annotated[str, Query(alias="date", max_length=10)],
    seed: Annotated[str, Query(max_length=128)],
) -> dict[str, Any]:
    """Check a past day: the seed's SHA-256 against the commitment published at the
    day's start, and the five deals the seed gives."""
    return verify_json(svc, date_, seed)


# Pages ---------------------------------------------------------------------------------


def _render(request: Request, template: str, **context: Any) -> HTMLResponse:
    templates: Jinja2Templates = request.app.state.templates
    response = templates.TemplateResponse(request, template, {"page": template[:-5], **context})
    response.headers["cache-control"] = "no-cache"
    return response


@router.get("/daily", response_class=HTMLResponse, include_in_schema=False)
def daily_page(request: Request, player: KnownPlayerDep, svc: DailyDep, at: NowDep) -> HTMLResponse:
    """Today's game. Opening it deals nothing and makes no identity: a new player reads
    the introduction and presses Start (``POST /attempts``); a player with an attempt
    in progress carries on with it."""
    day = daily_game.day_of(at)
    row = svc.day_row(day)
    name = None if player is None else svc.identities.name_of(player)
    attempts = [] if player is None else svc.store.attempts(player, day)
    return _render(
        request,
        "daily.html",
        day=day.isoformat(),
        commitment=row.commitment,
        next_day=daily_game.day_end(day).isoformat(),
        zone=daily_game.ZONE_NAME,
        name=None if name is None or name[1] else name[0],
        started=bool(attempts),
    )


# The leaderboard and privacy pages need no identity: a visitor without the cookie
# gets none here (nor meets the limit on new identities); their scripts ask the API.


@router.get("/leaderboard", response_class=HTMLResponse, include_in_schema=False)
def leaderboard_page(request: Request, at: NowDep, date_: DateQuery = None) -> HTMLResponse:
    """Today's board, or the day of ``?date=`` (a past day; else today's)."""
    today = daily_game.day_of(at)
    shown = today
    if date_ is not None:
        try:
            shown = min(date.fromisoformat(date_), today)
        except ValueError:
            shown = today
    return _render(
        request,
        "leaderboard.html",
        day=today.isoformat(),
        yesterday=(today - timedelta(days=1)).isoformat(),
        shown=shown.isoformat(),
    )


@router.get("/privacy", response_class=HTMLResponse, include_in_schema=False)
def privacy_page(request: Request) -> HTMLResponse:
    return _render(request, "privacy.html")


@router.get("/verify/daily", response_class=HTMLResponse, include_in_schema=False)
def verify_daily_page(
    request: Request,
    svc: DailyDep,
    date_: Annotated[str | None, Query(alias="date", max_length=10)] = None,
    seed: Annotated[str | None, Query(max_length=128)] = None,
    sha256: Annotated[str | None, Query(max_length=64)] = None,
) -> HTMLResponse:
    """``sha256``: the fingerprint the link says was shown at the day's start (the
    leaderboard's links pass it), compared with the seed's."""
    result: dict[str, Any] | None = None
    error: str | None = None
    matches: bool | None = None
    if date_ and seed:
        try:
            result = verify_json(svc, date_, seed)
        except HTTPException as exc:
            error = str(exc.detail)
    if result is not None and sha256:
        matches = fingerprint_matches(result, sha256)
    return _render(
        request,
        "verify_daily.html",
        date=date_,
        seed=seed,
        result=result,
        error=error,
        names=names_for(daily_game.RULES.players),
        sha256=sha256,
        matches=matches,
    )


__all__ = ["router"]
