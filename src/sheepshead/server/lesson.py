"""The guided first game (``sheepshead/lesson.py``): its page, ``/learn``, and its API,
``/api/v1/lesson`` (``docs/api.md``).

Nothing is stored and no identity is made: the lesson's deals and the player's steps
are fixed, so each request rebuilds the lesson from the version the page sends (a
few milliseconds: fifteen steps, the frozen computer players' replies between them).
The server decides what is legal and why: a card the rules refuse comes back as the
engine's refusal, a legal choice the step does not take as ``lesson-<kind>``, each
with its code and params for the page to word in its language.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from sheepshead import lesson
from sheepshead.refusals import IllegalAction
from sheepshead.server import refused
from sheepshead.server.refused import Refused
from sheepshead.server.schemas import Conflict, Error
from sheepshead.table import BadAction, TableConflict, Turn

router = APIRouter(tags=["lesson"])
pages = APIRouter(include_in_schema=False)

API = "/api/v1/lesson"

#: The lesson's refusals as the OpenAPI document lists them (docs/api.md words them).
_STALE: dict[int | str, dict[str, Any]] = {
    409: {"model": Conflict, "description": "No point of the lesson has that version: its start"},
}
_REFUSED: dict[int | str, dict[str, Any]] = {
    422: {"model": Error, "description": "The rules refuse it, or the step wants another"},
}


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(min_length=1, max_length=64)
    version: int = Field(ge=0, le=2**31 - 1)


class VersionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=0, le=2**31 - 1)


def _rebuilt(version: int) -> lesson.Lesson | JSONResponse:
    """The lesson at ``version``, or a 409 with the lesson from its start."""
    try:
        return lesson.at_version(version)
    except TableConflict as exc:
        first = lesson.start()
        return JSONResponse(
            status_code=409,
            content={**refused.body(exc.reason, exc.code, exc.params), "state": first.state()},
        )


def _step(at: lesson.Lesson, turn: Turn) -> dict[str, Any]:
    return {"state": at.state(), "events": turn.events_json()}


@router.get(API, responses=_STALE)
def lesson_state(
    version: Annotated[int | None, Query(ge=0, le=2**31 - 1)] = None,
) -> Any:
    """The lesson at ``version`` (at its first step without one): the table's state,
    with ``lesson``: the step it waits for (what to do, its kind and facts)."""
    if version is None:
        return lesson.start().state()
    at = _rebuilt(version)
    return at if isinstance(at, JSONResponse) else at.state()


@router.post(f"{API}/actions", responses={**_STALE, **_REFUSED})
def lesson_act(body: ActionIn) -> Any:
    """The player's action at the lesson's step: 422 with the engine's refusal if the
    rules refuse it, 422 ``lesson-<kind>`` if it is legal but not the step's."""
    at = _rebuilt(body.version)
    if isinstance(at, JSONResponse):
        return at
    try:
        after, turn = at.act(body.action, body.version)
    except IllegalAction as exc:
        raise Refused(422, exc.reason, exc.refusal.code, exc.refusal.params) from None
    except lesson.OffLesson as exc:
        raise Refused(422, exc.reason, exc.code, exc.params) from None
    except BadAction as exc:
        raise Refused(422, exc.reason, "bad-action") from None
    except TableConflict as exc:
        return JSONResponse(
            status_code=409,
            content={**refused.body(exc.reason, exc.code, exc.params), "state": at.state()},
        )
    return _step(after, turn)


@router.post(f"{API}/next-hand", responses=_STALE)
def lesson_next_hand(body: VersionIn) -> Any:
    """The lesson's next hand, once the current one is over."""
    at = _rebuilt(body.version)
    if isinstance(at, JSONResponse):
        return at
    try:
        after, turn = at.next_hand(body.version)
    except TableConflict as exc:
        return JSONResponse(
            status_code=409,
            content={**refused.body(exc.reason, exc.code, exc.params), "state": at.state()},
        )
    return _step(after, turn)


@pages.get("/learn", response_class=HTMLResponse)
def learn_page(request: Request) -> HTMLResponse:
    """The guided first game's page; its script fetches the lesson from the API."""
    templates = request.app.state.templates
    response: HTMLResponse = templates.TemplateResponse(request, "learn.html", {"page": "learn"})
    response.headers["cache-control"] = "no-cache"
    return response
