"""Past days of the daily game: ``/daily/<date>`` and ``/api/v1/daily/days/<date>``.

Once a day is over its seed is published and its deals are no secret: anyone may
replay them, unranked, against the computer players the day was played with (its
stored ``<level>/<version>``, kept frozen for good: ``docs/bots.md``), and see how
the replay would have fared on that day's board. Before then a day's deals are
played once per identity, ranked, and never replayed (``daily_play.REPLAY_LATER``).
A replay is an attempt like any other (its moves go through ``daily_play``'s
routes); it is numbered after the player's ranked attempt of the day, if any, so
that number 1 stays the ranked one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from sheepshead import daily_game
from sheepshead.server.daily_play import API, _answers, _begin, _points, _resume
from sheepshead.server.daily_review import (
    _past_day,
    deal_lines,
    ranked_attempt,
)
from sheepshead.server.daily_service import Daily, DailyDep, NowDep
from sheepshead.server.identity import KnownPlayerDep, PlayerDep
from sheepshead.store.daily_store import Attempt, Day

router = APIRouter(tags=["daily"])

_ARCHIVE_ANSWERS = (
    _answers(404, "Not a past day of the daily game")
    | _answers(409, "That day is not over yet")
    | _answers(422, "The date is not YYYY-MM-DD")
)
#: The replay's key among the day's results: no player id is ever one.
_REPLAY = "replay"


def _replays(svc: Daily, player: str | None, day: date) -> list[Attempt]:
    if player is None:
        return []
    return [a for a in svc.store.attempts(player, day) if not a.ranked]


def compare(field: list[tuple[int, ...]], points: tuple[int, ...]) -> dict[str, Any]:
    """A replay's game points beside the day's board, as if it had been one more
    player of that day: its matchpoints, score, rank (of ``field + 1``) and percentile."""
    entries = [daily_game.Entry(f"{i}", p) for i, p in enumerate(field)]
    standings = daily_game.rank_day([*entries, daily_game.Entry(_REPLAY, points)])
    mine = next(s for s in standings if s.player == _REPLAY)
    return {
        "points": list(points),
        "total": mine.total,
        "score": round(mine.score, 2),
        "shares": [round(s, 1) for s in mine.shares],
        "rank": mine.rank,
        "percentile": round(mine.percentile, 1),
    }


def _replay_json(svc: Daily, row: Day, attempt: Attempt) -> dict[str, Any]:
    table = svc.table(attempt)
    found: dict[str, Any] = {
        "id": attempt.id,
        "finished": attempt.finished,
        "deal": table.hand_number,
        "compare": None,
    }
    if attempt.finished:
        points = tuple(_points(table))
        found["compare"] = compare(svc.store.field_points(row.day), points)
    return found


@router.get(f"{API}/days/{{day}}", responses=_ARCHIVE_ANSWERS)
def archive(day: str, player: KnownPlayerDep, svc: DailyDep, at: NowDep) -> dict[str, Any]:
    """A past day: its seed, its computer players, and the player's latest replay of
    it, compared with the day's board once finished."""
    row = _past_day(svc, day, at)
    replays = _replays(svc, player, row.day)
    return {
        "date": row.day.isoformat(),
        "commitment": row.commitment,
        "seed": svc.seed(row.day).hex(),
        "bot_version": row.bot_version,
        "field": row.field,
        "replay": None if not replays else _replay_json(svc, row, replays[-1]),
    }


@router.post(
    f"{API}/days/{{day}}/replays",
    status_code=201,
    response_model=None,
    responses=_ARCHIVE_ANSWERS | _answers(503, "The day's computer players are not this server's"),
)
def start_replay(
    day: str, request: Request, player: PlayerDep, svc: DailyDep, at: NowDep
) -> dict[str, Any] | JSONResponse:
    """Replay a past day's five deals, unranked, against the computer players it was
    played with; the replay in progress if there is one (then 200)."""
    row = _past_day(svc, day, at)
    svc.playable(row)
    attempts = svc.store.attempts(player, row.day)
    if attempts and not attempts[-1].ranked and not attempts[-1].finished:
        return _resume(svc, attempts[-1], at)
    # Number 1 is the ranked attempt, played or not: a replay never takes its place.
    number = max([1, *(a.number for a in attempts)]) + 1
    return _begin(request, player, svc, row, number, at)


# The page -------------------------------------------------------------------------------


@router.get("/daily/{day}", response_class=HTMLResponse, include_in_schema=False)
def archive_page(
    request: Request, day: str, player: KnownPlayerDep, svc: DailyDep, at: NowDep
) -> Response:
    """A past day's page: replay it and compare; the coach's review of each of the
    player's five ranked deals. Today's goes to /daily."""

    try:
        wanted = date.fromisoformat(day)
    except ValueError:
        wanted = None
    if wanted == daily_game.day_of(at):
        return RedirectResponse("/daily", status_code=303)
    row = _past_day(svc, day, at)
    templates: Jinja2Templates = request.app.state.templates
    response = templates.TemplateResponse(
        request,
        "daily_archive.html",
        {
            "page": "daily_archive",
            "day": row.day.isoformat(),
            "commitment": row.commitment,
            "seed": svc.seed(row.day).hex(),
            "bot_version": row.bot_version,
            "field": row.field,
            "reviews": deal_lines(request, svc, ranked_attempt(svc, player, row.day)),
        },
    )
    response.headers["cache-control"] = "no-cache"
    return response


__all__ = ["compare", "router"]
