"""The coach's hint at a friends' table: ``POST /api/v1/tables/{code}/hint``.

Only where the host allowed hints (the table's ``hints``), only to a seated person,
only on their own turn and only about their own seat: the coach reads that seat's
view (``game.view(seat)``) and nothing else, and the route takes no seat. Each hint
is counted for the seat and the hand (``friend_hands.hints``) under the table's lock,
and only if the table is still where the hint was asked for (else 409: a hint about a
position gone is neither shown nor counted). The counts go out with the table's state
(``hints_used``) for every finished hand, so everyone at the table sees who used how
many on the score sheet; the write itself wakes no socket, so that asking for a hint
sends the others no signal during the hand.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from sheepshead import coach
from sheepshead.server import refused
from sheepshead.server.coach import reason_json
from sheepshead.server.friends_play import Friends, Refusal
from sheepshead.server.identity import PlayerDep

router = APIRouter(prefix="/api/v1/tables", tags=["friends"])
#: As a stale action's refusal says it (phrases.py, ``stale-version``).
_STALE = "this table is at version {now}, not {sent}: it changed since you saw it"


class HintIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = Field(ge=0, le=2**31 - 1, description="The version of the state you hold")


class HintOut(BaseModel):
    action: str = Field(description="The expert's choice, as the state's legal actions list it")
    reason: dict[str, Any] | None = Field(
        description="Why, in one line: {code, params, text}; null for a forced choice"
    )
    hand: int = Field(description="The hand's number")
    hints: int = Field(description="The hints this seat has asked for in this hand, this one too")


def ask(friends: Friends, code: str, player: str, version: int) -> dict[str, Any]:
    """The hint for ``player``'s seat at ``version``, counted; a ``Refusal`` else."""
    stored = friends.load(code)
    seat = stored.seat_of(player)
    if seat is None:
        raise Refusal(403, "you have no seat at this table", "not-seated")
    if not stored.hints:
        raise Refusal(403, "the host has not allowed the coach's hints here", "hints-off")
    table = friends.restore(stored)
    if table is None:
        raise Refusal(409, "the host has not started this table yet", "not-started")
    if version != table.version:
        state = friends.state(stored, seat, table)
        moved = {"now": table.version, "sent": version}
        raise Refusal(409, _STALE.format(**moved), "stale-version", moved, state)
    game = table.game
    if table.hand_over or game.turn != seat:
        raise Refusal(403, "it is not your turn", "not-your-turn")
    advice = coach.hint(game.view(seat))
    number = table.hand_number
    with friends.store.write(code, quiet=True) as write:
        if write is None or write.table.status == "closed":
            raise Refusal(404, "no such table: check the invitation link", "no-such-table")
        if write.table.version != version:
            # The clock ran out (or a second tab acted) while the coach thought.
            moved = {"now": write.table.version, "sent": version}
            raise Refusal(409, _STALE.format(**moved), "stale-version", moved)
        count = write.hint(number, seat)
    reason = None
    if advice.reason is not None:
        reason = {"code": advice.reason.code, "params": advice.reason.params}
    return {
        "action": str(advice.action),
        "reason": reason_json(reason, hint=True),
        "hand": number,
        "hints": count,
    }


@router.post(
    "/{code}/hint",
    response_model=HintOut,
    responses={
        403: {"description": "Not seated, hints off at this table, or not your turn"},
        404: {"description": "No such table (a wrong code)"},
        409: {"description": "Stale version, or the table not started"},
    },
)
async def hint(
    code: str, body: HintIn, request: Request, player: PlayerDep
) -> dict[str, Any] | JSONResponse:
    """What the expert would do now in your seat, and why (tables whose host allows
    hints); counted for your seat in this hand and shown to everyone at the table."""
    friends: Friends = request.app.state.friends
    try:
        return await run_in_threadpool(ask, friends, code, player, body.version)
    except Refusal as exc:
        content = refused.body(exc.reason, exc.code, exc.params)
        if exc.state is not None:
            content["state"] = exc.state
        return JSONResponse(status_code=exc.status, content=content)
