"""The coach's review of a past day's daily deals (docs/api.md, "The coach").

- ``POST /api/v1/daily/attempts/{id}/deals/{n}/review`` queues the review of deal ``n``
  of one of the player's attempts (a job, as a free-play hand's review: run off the
  request path by ``coach_worker.py``); ``GET`` gives its progress, then every decision
  of the player's seat with its label, and where the expert in the player's seat would
  have ended: the game points ``daily_game.expert_in_seat`` gives it on the same deal,
  against the same computer players (the day's level, version and seed).
- ``GET /api/v1/daily/days/{date}/reviews``: the player's five ranked deals of the day,
  each with its points, its review's status and, once reviewed, the expert's points.
- ``GET /daily/{date}/deals/{n}/review``: the review page of the ranked deal ``n``.

The daily stays fair: until the day is over every one of these is refused (409, the
reason said), started or not, since a review shows the deal's cards as the player saw
them and the expert's result on it: enough for one identity to scout the deals for
another. The coach reads only the record and the seat, as for any hand.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from sheepshead import bots, daily_game
from sheepshead.server.coach import job_json
from sheepshead.server.coach_worker import Worker
from sheepshead.server.daily_play import API, _404, _answers, _load
from sheepshead.server.daily_service import Daily, DailyDep, NowDep
from sheepshead.server.identity import KnownPlayerDep, PlayerDep
from sheepshead.store.coach import CoachStore, Job
from sheepshead.store.daily_store import Attempt, Day

router = APIRouter(tags=["coach"])

NOT_OVER = "a day's archive opens when the day is over: play today's deals at /daily"
NOT_PLAYED = "nobody played the daily game that day: it has no board and no stored players"

REVIEW_LATER = (
    "today's daily deals get no review until the day is over, so that the daily game "
    "stays fair for everyone: come back tomorrow"
)
_LATER = _answers(409, "The day is not over: its deals get no review until then")
SEAT = daily_game.PLAYER_SEAT


def _past_day(svc: Daily, text: str, at: datetime) -> Day:
    """The stored row of a day that is over; 422, 404 or 409 with the reason."""
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise HTTPException(422, "date: write it as YYYY-MM-DD") from None
    today = daily_game.day_of(at)
    if day > today:
        raise HTTPException(404, "that day has not started yet")
    if not daily_game.is_over(day, at):
        raise HTTPException(409, NOT_OVER)
    row = svc.store.day(day)
    if row is None:
        raise HTTPException(404, NOT_PLAYED)
    return row


def _store(request: Request) -> CoachStore:
    store: CoachStore = request.app.state.coach_store
    return store


def _over(attempt: Attempt, at: datetime) -> None:
    if not daily_game.is_over(attempt.day, at):
        raise HTTPException(409, REVIEW_LATER)


def _expert_players(svc: Daily, attempt: Attempt) -> dict[str, Any] | None:
    """The computer players the expert in the seat meets: the day's. None when this
    server no longer runs that version of their play (then no expert's result)."""
    level, version = svc.players(attempt.day)
    if version not in bots.versions():
        return None
    return {"level": level, "version": version, "bot_seed": svc.bot_seed(attempt.day)}


def _expert_json(job: Job | None) -> dict[str, Any] | None:
    if job is None or job.expert is None:
        return None
    return {
        "points": job.expert.get("points"),
        "level": daily_game.EXPERT,
        "against": job.expert["level"],
        "version": job.expert["version"],
    }


def _deal_points(svc: Daily, attempt: Attempt, number: int) -> tuple[dict[str, Any], int]:
    """A finished deal's record and the player's game points on it; 404 if not over."""
    table = svc.table(attempt)
    game = table.finished(number)
    record = table.hand_record(number)
    if game is None or record is None:
        raise HTTPException(404, f"deal {number} is not over")
    result = game.result()
    assert result is not None
    return record, result.scores[SEAT]


def review_json(job: Job | None, points: int) -> dict[str, Any]:
    """A daily deal's review: as a hand's (``coach.job_json``), with the player's game
    points on the deal and the expert's in the player's seat (null until done)."""
    return {**job_json(job), "points": points, "expert": _expert_json(job)}


_PATH = f"{API}/attempts/{{attempt_id}}/deals/{{number}}/review"


@router.post(_PATH, status_code=202, responses=_404 | _LATER)
def start_deal_review(
    attempt_id: str, number: int, request: Request, player: PlayerDep, svc: DailyDep, at: NowDep
) -> dict[str, Any]:
    """Queue the review of a finished deal of your attempt of a past day (your seat), with
    the expert's result in your seat; its progress as ``GET`` gives it."""
    attempt = _load(svc, attempt_id, player)
    _over(attempt, at)
    record, points = _deal_points(svc, attempt, number)
    store = _store(request)
    expert = _expert_players(svc, attempt)
    job = store.enqueue_deal(player, attempt.id, number, SEAT, record, expert)
    if job.status in ("queued", "running"):
        worker: Worker = request.app.state.coach_worker
        worker.poke()
    return review_json(job, points)


@router.get(_PATH, responses=_404 | _LATER)
def get_deal_review(
    attempt_id: str,
    number: int,
    request: Request,
    player: KnownPlayerDep,
    svc: DailyDep,
    at: NowDep,
) -> dict[str, Any]:
    """The review: ``status`` none, queued, running, done or failed; ``progress`` of
    ``total`` decisions; ``decisions`` and ``expert`` once done; ``points``: yours."""
    if player is None:
        raise HTTPException(404, "no such attempt")
    attempt = _load(svc, attempt_id, player)
    _over(attempt, at)
    _, points = _deal_points(svc, attempt, number)
    return review_json(_store(request).find_deal(player, attempt.id, number, SEAT), points)


def ranked_attempt(svc: Daily, player: str | None, day: date) -> Attempt | None:
    """The player's ranked attempt of the day, if any."""
    if player is None:
        return None
    return next((a for a in svc.store.attempts(player, day) if a.ranked), None)


def deal_lines(request: Request, svc: Daily, attempt: Attempt | None) -> list[dict[str, Any]]:
    """The ranked attempt's five deals: points, review status, the expert's points."""
    if attempt is None:
        return []
    table = svc.table(attempt)
    store = _store(request)
    lines = []
    for number in range(1, daily_game.DEALS + 1):
        game = table.finished(number)
        result = None if game is None else game.result()
        line: dict[str, Any] = {"deal": number, "finished": result is not None, "points": None}
        line |= {"review": None, "expert": None, "api": None, "page": None}
        if result is not None:
            job = store.find_deal(attempt.player_id, attempt.id, number, SEAT)
            expert = _expert_json(job)
            line["points"] = result.scores[SEAT]
            line["review"] = None if job is None else job.status
            line["expert"] = None if expert is None else expert["points"]
            line["api"] = f"{API}/attempts/{attempt.id}/deals/{number}/review"
            line["page"] = f"/daily/{attempt.day.isoformat()}/deals/{number}/review"
        lines.append(line)
    return lines


@router.get(
    f"{API}/days/{{day}}/reviews",
    responses=_answers(404, "Not a past day of the daily game")
    | _answers(409, "That day is not over yet")
    | _answers(422, "The date is not YYYY-MM-DD"),
)
def day_reviews(
    day: str, request: Request, player: KnownPlayerDep, svc: DailyDep, at: NowDep
) -> dict[str, Any]:
    """Your ranked attempt's five deals of a past day, each with your game points, its
    review's status (``none`` until started) and the expert's points in your seat once
    reviewed; ``deals`` is empty if you did not play that day."""
    row = _past_day(svc, day, at)
    attempt = ranked_attempt(svc, player, row.day)
    return {
        "date": row.day.isoformat(),
        "attempt": None if attempt is None else attempt.id,
        "deals": deal_lines(request, svc, attempt),
    }


@router.get(
    "/daily/{day}/deals/{number}/review", response_class=HTMLResponse, include_in_schema=False
)
def deal_review_page(
    request: Request, day: str, number: int, player: KnownPlayerDep, svc: DailyDep, at: NowDep
) -> HTMLResponse:
    """The review page of your ranked deal ``number`` of a past day."""
    row = _past_day(svc, day, at)
    attempt = ranked_attempt(svc, player, row.day)
    if attempt is None or not 1 <= number <= daily_game.DEALS:
        raise HTTPException(404, "you did not play that day's deals")
    templates: Jinja2Templates = request.app.state.templates
    response = templates.TemplateResponse(
        request,
        "review.html",
        {
            "page": "review",
            "number": number,
            # Under /api/v1, as the page's script (js/api.js) asks for it.
            "api": f"{API.removeprefix('/api/v1')}/attempts/{attempt.id}/deals/{number}/review",
            "day": row.day.isoformat(),
            "back": f"/daily/{row.day.isoformat()}",
        },
    )
    response.headers["cache-control"] = "no-cache"
    return response


__all__ = ["REVIEW_LATER", "deal_lines", "ranked_attempt", "review_json", "router"]
