"""Friends' tables over HTTP, ``/api/v1/tables``: create, sit, start, read, act, deal
the next hand, leave, say a fixed message; the socket is ``live.py``'s.

``install(app)`` is the one line ``app.py`` calls: it builds the service
(``friends_play.Friends``), the hub that wakes the sockets (``live.Hub``) and adds
both routers.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from sheepshead.server import friends_hint, live, refused
from sheepshead.server.friends_play import MESSAGES, Friends, Refusal, Step
from sheepshead.server.identity import KnownPlayerDep, PlayerDep
from sheepshead.server.refused import Refused
from sheepshead.server.secret import server_secret
from sheepshead.server.security import RateLimited, client_network, limiter_of
from sheepshead.store.friends import FriendsStore

router = APIRouter(prefix="/api/v1/tables", tags=["friends"])


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewTable(_In):
    rules: dict[str, Any] = Field(
        default_factory=dict,
        description="Rules fields as in hand-record.md; {} is standard.",
        json_schema_extra={"maxProperties": 20},
    )
    level: str = Field(
        default="standard", max_length=16, description="beginner | standard | expert"
    )
    seconds: int | None = Field(default=None, description="The decision clock: null, 15, 30 or 60")
    hints: bool = Field(default=False, description="Whether the coach's hints are allowed")
    name: str | None = Field(
        default=None,
        max_length=64,
        description="A display name, when the caller has none yet (checked as the daily's)",
    )


class SitIn(_In):
    name: str | None = Field(
        default=None,
        max_length=64,
        description="A display name, when the caller has none yet (checked as the daily's)",
    )


class ActionIn(_In):
    action: str = Field(min_length=1, max_length=64, description="'pick', 'bury 8S TH', 'play QC'")
    version: int = Field(ge=0, le=2**31 - 1, description="The version the action was chosen at")


class VersionIn(_In):
    version: int = Field(ge=0, le=2**31 - 1)


class MessageIn(_In):
    message: str = Field(max_length=32, description=" | ".join(MESSAGES))


class Created(BaseModel):
    code: str = Field(description="The invitation code: 96 random bits")
    url: str = Field(description="The invitation link's path")
    seat: int
    state: dict[str, Any]


class Seated(BaseModel):
    seat: int
    state: dict[str, Any]


class FriendsStep(BaseModel):
    state: dict[str, Any] = Field(
        description="The seat's state: a solo game's TableState seen from this seat, with "
        "the table's fields (code, host, names, computers, away, covered, seconds, "
        "deadline, messages, stamp)"
    )
    events: list[dict[str, Any]] = Field(description="The events this seat may see, in order")


def friends_of(request: Request) -> Friends:
    friends: Friends = request.app.state.friends
    return friends


FriendsDep = Annotated[Friends, Depends(friends_of)]


def _doc(*codes: int) -> dict[int | str, dict[str, Any]]:
    words = {
        403: "Not seated, not your turn, or not the host",
        404: "No such table (a wrong code)",
        409: "Stale version, table full, or not now: with the state as it is",
        422: "Malformed or illegal, with the reason",
    }
    return {c: {"description": words[c]} for c in codes}


def _refused(exc: Refusal) -> JSONResponse:
    content = refused.body(exc.reason, exc.code, exc.params)
    if exc.state is not None:
        content["state"] = exc.state
    return JSONResponse(status_code=exc.status, content=content)


def _charge_join(request: Request, player: str) -> None:
    limiter = limiter_of(request.app)
    rate = request.app.state.settings.rate_joins
    if limiter is None or rate is None:
        return
    try:
        limiter.charge(
            [("joins", client_network(request.scope), rate), ("joins-player", player, rate)],
            "attempts to join a table",
        )
    except RateLimited as exc:
        raise Refused(
            429,
            exc.detail,
            "too-many-joins",
            {"seconds": exc.retry_after},
            headers={"retry-after": str(exc.retry_after)},
        ) from None


@router.post("", status_code=201, response_model=Created, responses=_doc(422, 409))
def create_table(
    body: NewTable, player: PlayerDep, friends: FriendsDep
) -> dict[str, Any] | JSONResponse:
    """Open a table for friends; the caller is its host, in seat 0."""
    try:
        stored = friends.create(player, body.rules, body.level, body.seconds, body.hints, body.name)
    except Refusal as exc:
        return _refused(exc)
    return {
        "code": stored.code,
        "url": f"/friends/{stored.code}",
        "seat": 0,
        "state": friends.state(stored, 0, None),
    }


@router.post("/{code}/seats", response_model=Seated, responses=_doc(404, 409, 422))
def sit(
    code: str, request: Request, player: PlayerDep, friends: FriendsDep, body: SitIn | None = None
) -> dict[str, Any] | JSONResponse:
    """Take a free seat (the first one); the seat you have if you sit already."""
    _charge_join(request, player)
    try:
        seat, stored = friends.sit(code, player, None if body is None else body.name)
    except Refusal as exc:
        return _refused(exc)
    return {"seat": seat, "state": friends.state(stored, seat, friends.restore(stored))}


@router.delete(
    "/{code}/seats/{seat}", status_code=204, response_model=None, responses=_doc(403, 404, 409)
)
def leave(code: str, seat: int, player: PlayerDep, friends: FriendsDep) -> Response:
    """Give your seat back to the computer; the host may remove a player between hands."""
    try:
        friends.leave(code, player, seat)
    except Refusal as exc:
        return _refused(exc)
    return Response(status_code=204)


@router.post("/{code}/start", response_model=FriendsStep, responses=_doc(403, 404, 409))
def start(code: str, player: PlayerDep, friends: FriendsDep) -> dict[str, Any] | JSONResponse:
    """Deal the first hand (the host only)."""
    try:
        step = friends.start(code, player)
    except Refusal as exc:
        return _refused(exc)
    return _step(friends, step, None, player)


@router.get("/{code}", responses=_doc(404))
def get_table(code: str, player: KnownPlayerDep, friends: FriendsDep) -> Any:
    """Your state at the table if you sit there; else its lobby."""
    try:
        return friends.view(code, player or "")
    except Refusal as exc:
        return _refused(exc)


@router.post("/{code}/actions", response_model=FriendsStep, responses=_doc(403, 404, 409, 422))
def act(
    code: str, body: ActionIn, player: PlayerDep, friends: FriendsDep
) -> dict[str, Any] | JSONResponse:
    """Your action; the reply holds what you may see of every event up to the next
    decision of a person (every other seat gets its own over its socket)."""
    try:
        step, turn = friends.act(code, player, body.action, body.version)
    except Refusal as exc:
        return _refused(exc)
    return _step(friends, step, turn, player)


@router.post("/{code}/next-hand", response_model=FriendsStep, responses=_doc(403, 404, 409))
def next_hand(
    code: str, body: VersionIn, player: PlayerDep, friends: FriendsDep
) -> dict[str, Any] | JSONResponse:
    """Deal the next hand once the current one is over (any seated person)."""
    try:
        step, turn = friends.next_hand(code, player, body.version)
    except Refusal as exc:
        return _refused(exc)
    return _step(friends, step, turn, player)


@router.post(
    "/{code}/messages", status_code=204, response_model=None, responses=_doc(403, 404, 409, 422)
)
def say(code: str, body: MessageIn, player: PlayerDep, friends: FriendsDep) -> Response:
    """A fixed message to the table, in the lobby and between hands."""
    try:
        friends.say(code, player, body.message)
    except Refusal as exc:
        return _refused(exc)
    return Response(status_code=204)


@router.get(
    "/{code}/hands/{number}/record",
    responses={
        200: {"content": {"application/json": {}}, "description": "The hand record"},
        **_doc(403, 404),
    },
)
def hand_record(code: str, number: int, player: KnownPlayerDep, friends: FriendsDep) -> Response:
    """A finished hand's record (hand-record.md), as a file to download (seated only)."""
    try:
        record = friends.record(code, player or "", number)
    except Refusal as exc:
        return _refused(exc)
    return Response(
        json.dumps(record, indent=1) + "\n",
        media_type="application/json",
        headers={
            "content-disposition": (
                f'attachment; filename="sheepshead-friends-{code[:6]}-hand-{number}.json"'
            )
        },
    )


def _step(friends: Friends, step: Step, turn: Any, player: str) -> dict[str, Any]:
    seat = step.stored.seat_of(player)
    assert seat is not None
    return friends.step_json(step, turn, seat)


def install(app: FastAPI) -> None:
    """The friends' tables: service, socket hub, routes (``app.py``'s one line)."""
    settings = app.state.settings
    hub = live.Hub(app)
    store = FriendsStore(app.state.engine, wake=hub.wake_threadsafe, expect=hub.expect_threadsafe)
    app.state.friends = Friends(store, app.state.tables, server_secret(settings))
    app.state.hub = hub
    app.include_router(router)
    app.include_router(friends_hint.router)
    app.include_router(live.router)
