"""The coach at the table: a hint on request, a review of every finished hand.

Routes (docs/api.md, "The coach"):

- ``POST /api/v1/games/{id}/hint``: what the expert would do now in the player's seat,
  with a one-line reason; counted for the hand (``GET .../hints`` gives the counts, the
  score sheet shows them).
- ``POST /api/v1/games/{id}/hands/{n}/review`` queues the review of a finished hand
  (a job, run off the request path by ``coach_worker.py``); ``GET`` gives its progress
  and, once done, every decision of the player's seat with its label.
- ``GET /review/{id}/{n}``: the review page.

Only free-play games (``/api/v1/games``) are reviewed: the daily game's deals are not
stored there, so today's deals can get no hint and no review here (docs/daily.md).
Everything shown is the player's own seat's view: never another seat's cards.
"""

from __future__ import annotations

import os
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from sheepshead import coach
from sheepshead.cards import Card
from sheepshead.server import i18n
from sheepshead.server.api import NOT_FOUND, TablesDep, _check_id
from sheepshead.server.coach_worker import Worker
from sheepshead.server.identity import KnownPlayerDep, PlayerDep
from sheepshead.server.refused import Refused
from sheepshead.server.schemas import Error
from sheepshead.server.tables import GameNotFound, Tables
from sheepshead.store.coach import CoachStore, Job
from sheepshead.table import HUMAN, Table

router = APIRouter(tags=["coach"])

#: ``thread`` (default): the web process runs review jobs in a thread of its own;
#: ``external``: only ``sheepshead coach-worker`` processes do (docs/deploy.md).
WORKER_ENV = "SHEEPSHEAD_COACH_WORKER"


_NO_GAME: dict[int | str, dict[str, Any]] = {
    404: {"model": Error, "description": "No such game (for this player), or hand not over"},
}
_REFUSED: dict[int | str, dict[str, Any]] = {
    409: {"model": Error, "description": "Stale version, or not this player's turn"},
}


class HintIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = Field(description="The table's version, as in the state you hold")


def install(app: FastAPI) -> None:
    """The coach's routes, its store and its in-process worker (started at once, so
    that jobs a stopped server left unfinished resume)."""
    store = CoachStore(app.state.engine)
    worker = Worker(store, enabled=os.environ.get(WORKER_ENV, "thread") != "external")
    app.state.coach_store = store
    app.state.coach_worker = worker
    app.include_router(router)
    # An app made over a database it does not migrate (its tables made later, by
    # whoever migrates it) resumes nothing at creation: its jobs table may not exist.
    if app.state.settings.migrate:
        worker.start()


def _store(request: Request) -> CoachStore:
    store: CoachStore = request.app.state.coach_store
    return store


StoreDep = Annotated[CoachStore, Depends(_store)]


def _table(tables: Tables, game_id: str, player: str) -> Table:
    _check_id(game_id)
    try:
        return tables.load(game_id, player)
    except GameNotFound:
        raise HTTPException(404, NOT_FOUND) from None


# Words -------------------------------------------------------------------------------


def _param_words(value: str) -> str:
    """A card, a bury's cards, or an action, in the reader's words where they are cards."""
    parts = value.split()
    if not parts:
        return value
    try:
        cards = [Card.parse(p) for p in parts]
    except ValueError:
        return value
    names = [i18n.card_name(c) for c in cards]
    return names[0] if len(names) == 1 else i18n.card_list(names)


def reason_json(reason: dict[str, Any] | None, hint: bool = False) -> dict[str, Any] | None:
    """A stored reason with its sentence in the request's language (``hint``: as a hint
    says it, before the play)."""
    if reason is None:
        return None
    params = {k: _param_words(str(v)) for k, v in reason["params"].items()}
    messages = coach.HINT_MESSAGES if hint else coach.MESSAGES
    template = i18n.gettext(messages[reason["code"]])
    return {**reason, "text": template.format(**params)}


# Hint --------------------------------------------------------------------------------


@router.post("/api/v1/games/{game_id}/hint", responses={**_NO_GAME, **_REFUSED})
async def hint(
    game_id: str, body: HintIn, request: Request, player: PlayerDep, tables: TablesDep
) -> dict[str, Any]:
    """What the expert would do now in your seat, and why; counted for the hand."""
    store = _store(request)
    table = await run_in_threadpool(_table, tables, game_id, player)
    if body.version != table.version:
        raise Refused(409, "the table has moved on: reload it", "stale-version")
    game = table.game
    if game.is_done or game.turn != HUMAN:
        raise Refused(409, "it is not your turn", "not-your-turn")
    advice = await run_in_threadpool(coach.hint, game.view(HUMAN))
    count = await run_in_threadpool(store.count_hint, game_id, table.hand_number)
    reason = None
    if advice.reason is not None:
        reason = {"code": advice.reason.code, "params": advice.reason.params}
    return {
        # As the table's ``legal`` lists it (and ``actions`` takes it): without the seat.
        "action": str(advice.action),
        "reason": reason_json(reason, hint=True),
        "hand": table.hand_number,
        "hints": count,
    }


@router.get("/api/v1/games/{game_id}/hints", responses=_NO_GAME)
def hints(
    game_id: str, request: Request, player: KnownPlayerDep, tables: TablesDep
) -> dict[str, Any]:
    """Hints asked for in each hand of the game: ``{"hints": {"1": 2}}``."""
    if player is None:
        raise HTTPException(404, NOT_FOUND)
    _table(tables, game_id, player)
    return {"hints": {str(k): v for k, v in _store(request).hints(game_id).items()}}


# Review ------------------------------------------------------------------------------


def job_json(job: Job | None) -> dict[str, Any]:
    if job is None:
        return {"status": "none", "progress": 0, "total": 0, "decisions": None}
    decisions = None
    if job.result is not None:
        decisions = [{**d, "reason": reason_json(d.get("reason"))} for d in job.result]
    return {
        "status": job.status,
        "progress": job.progress,
        "total": job.total,
        "decisions": decisions,
    }


def _finished_record(table: Table, number: int) -> dict[str, Any]:
    record = table.hand_record(number)
    if record is None:
        raise HTTPException(404, f"hand {number} is not over")
    return record


@router.post("/api/v1/games/{game_id}/hands/{number}/review", status_code=202, responses=_NO_GAME)
def start_review(
    game_id: str, number: int, request: Request, player: PlayerDep, tables: TablesDep
) -> dict[str, Any]:
    """Queue the review of a finished hand (your seat); its progress as ``GET`` gives it."""
    table = _table(tables, game_id, player)
    record = _finished_record(table, number)
    store = _store(request)
    job = store.enqueue(player, game_id, number, HUMAN, record)
    if job.status in ("queued", "running"):
        worker: Worker = request.app.state.coach_worker
        worker.poke()
    return job_json(job)


@router.get("/api/v1/games/{game_id}/hands/{number}/review", responses=_NO_GAME)
def get_review(
    game_id: str, number: int, request: Request, player: KnownPlayerDep, tables: TablesDep
) -> dict[str, Any]:
    """The review: ``status`` none, queued, running, done or failed; ``progress`` of
    ``total`` decisions; ``decisions`` once done."""
    if player is None:
        raise HTTPException(404, NOT_FOUND)
    table = _table(tables, game_id, player)
    _finished_record(table, number)
    return job_json(_store(request).find(player, game_id, number, HUMAN))


@router.get("/review/{game_id}/{number}", response_class=HTMLResponse, include_in_schema=False)
def review_page(request: Request, game_id: str, number: int) -> HTMLResponse:
    templates: Jinja2Templates = request.app.state.templates
    if len(game_id) != 32 or not all(c in "0123456789abcdef" for c in game_id) or number < 1:
        raise HTTPException(404, NOT_FOUND)
    response = templates.TemplateResponse(
        request, "review.html", {"page": "review", "game_id": game_id, "number": number}
    )
    response.headers["cache-control"] = "no-cache"
    return response
