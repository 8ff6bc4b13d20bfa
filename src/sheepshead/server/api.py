"""The JSON API, ``/api/v1``: games, their actions and hands, and deal verification.

Handlers are plain functions: FastAPI runs them in its thread pool, so the bots'
thinking (inside ``Tables.act``) never holds up the event loop or another table.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from sheepshead.deal import deal_cards, seed_commitment
from sheepshead.refusals import IllegalAction
from sheepshead.rules import Rules, RulesError
from sheepshead.server import refused, schemas
from sheepshead.server.identity import COOKIE, ID_FORM, PlayerDep, current_player, identities_of
from sheepshead.server.refused import Refused
from sheepshead.server.security import RateLimiter, limiter_of
from sheepshead.server.tables import (
    GameConflict,
    GameNotFound,
    RateRefused,
    Tables,
    state_json,
    step_json,
)
from sheepshead.store.rates import Charge
from sheepshead.table import BadAction, Turn

router = APIRouter(prefix="/api/v1", tags=["games"])

NOT_FOUND = "no such game"


async def tables_of(request: Request) -> Tables:
    # async: a plain function would cost a hop to the thread pool per request.
    tables: Tables = request.app.state.tables
    return tables


TablesDep = Annotated[Tables, Depends(tables_of)]

_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": schemas.Error, "description": "No such game (for this player)"},
    422: {"model": schemas.Error, "description": "Malformed or illegal, with the reason"},
}
_CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {"model": schemas.Conflict, "description": "Stale version: the game as it is now"},
}


def _conflict(exc: GameConflict) -> JSONResponse:
    return JSONResponse(
        status_code=409,
        content={
            **refused.body(exc.reason, exc.code, exc.params),
            "state": state_json(exc.game_id, exc.table, exc.sheet),
        },
    )


async def step_player(request: Request) -> str:
    """The player of a step at a table, read from the cookie without a database read:
    the step finds the game only with its player's id. Without a well-formed cookie,
    the player as for any change (``current_player``: a new identity)."""
    player_id = request.cookies.get(COOKIE)
    if player_id is not None and ID_FORM.fullmatch(player_id):
        return player_id
    return await run_in_threadpool(current_player, request, identities_of(request))


StepPlayerDep = Annotated[str, Depends(step_player)]


def take_step(
    request: Request, game_id: str, player: str, step: Callable[[Sequence[Charge], int], Turn]
) -> dict[str, Any] | JSONResponse:
    """A step at a table (an action, the next hand): ``step(charges, now)`` plays and
    saves it, the rate limits charged in the same transaction; every refusal is
    charged too, on its own, as any request that changes something."""
    _check_id(game_id)
    limiter = limiter_of(request.app)
    charges, now = limiter.step_charges(request.scope) if limiter is not None else ([], 0)
    try:
        turn = step(charges, now)
    except RateRefused as exc:
        raise RateLimiter.refusal(exc.wait) from None
    except GameConflict as exc:
        if exc.code != "changed-on-the-way":  # that one was charged with its write
            _charge_alone(limiter, charges, now)
        return _conflict(exc)
    except GameNotFound:
        _charge_alone(limiter, charges, now)
        if request.cookies.get(COOKIE) == player:
            # The step skipped the player's lookup: now it is made, as for any change
            # (a cookie naming no player gets a new identity).
            current_player(request, identities_of(request))
        raise HTTPException(404, NOT_FOUND) from None
    except IllegalAction as exc:
        _charge_alone(limiter, charges, now)
        raise Refused(422, exc.reason, exc.refusal.code, exc.refusal.params) from None
    except BadAction as exc:
        _charge_alone(limiter, charges, now)
        raise Refused(422, exc.reason, "bad-action") from None
    tables: Tables = request.app.state.tables
    return step_json(game_id, turn, tables.sheet(game_id, turn.table))


def _charge_alone(limiter: RateLimiter | None, charges: Sequence[Charge], now: int) -> None:
    """Charge a step that was refused before its write; raises the 429 past the rate."""
    if limiter is None or not charges:
        return
    wait = limiter.store.take(charges, now)
    if wait is not None:
        raise RateLimiter.refusal(wait)


def _check_id(game_id: str) -> None:
    if len(game_id) != 32 or not all(c in "0123456789abcdef" for c in game_id):
        raise HTTPException(404, NOT_FOUND)


@router.post("/games", status_code=201, response_model=schemas.Step, responses={422: _ERRORS[422]})
def create_game(body: schemas.NewGame, player: PlayerDep, tables: TablesDep) -> dict[str, Any]:
    """Start a game (a session of hands) at a new table; the bots act up to your turn."""
    try:
        rules = Rules.from_record(body.rules)
    except RulesError as exc:
        raise HTTPException(422, f"rules: {exc}") from None
    try:
        game_id, turn = tables.create(player, rules, body.level)
    except ValueError as exc:
        raise HTTPException(422, f"level: {exc}") from None
    return step_json(game_id, turn, ())


@router.get("/games/current", response_model=schemas.TableState, responses={404: _ERRORS[404]})
def current_game(player: PlayerDep, tables: TablesDep) -> dict[str, Any]:
    """Your latest game."""
    try:
        game_id, table = tables.latest(player)
    except GameNotFound:
        raise HTTPException(404, "you have no game yet") from None
    return state_json(game_id, table, tables.sheet(game_id, table))


@router.get("/games/{game_id}", response_model=schemas.TableState, responses=_ERRORS)
def get_game(game_id: str, player: PlayerDep, tables: TablesDep) -> dict[str, Any]:
    _check_id(game_id)
    try:
        table = tables.load(game_id, player)
    except GameNotFound:
        raise HTTPException(404, NOT_FOUND) from None
    return state_json(game_id, table, tables.sheet(game_id, table))


@router.post(
    "/games/{game_id}/actions",
    response_model=schemas.Step,
    responses={**_ERRORS, **_CONFLICT},
)
def act(
    game_id: str,
    body: schemas.TableAction,
    request: Request,
    player: StepPlayerDep,
    tables: TablesDep,
) -> dict[str, Any] | JSONResponse:
    """Take your action; the reply holds every event up to your next decision."""
    return take_step(
        request,
        game_id,
        player,
        lambda charges, now: tables.act(game_id, player, body.action, body.version, charges, now),
    )


@router.post(
    "/games/{game_id}/next-hand",
    response_model=schemas.Step,
    responses={**_ERRORS, **_CONFLICT},
)
def next_hand(
    game_id: str,
    body: schemas.NextHandIn,
    request: Request,
    player: StepPlayerDep,
    tables: TablesDep,
) -> dict[str, Any] | JSONResponse:
    """Deal the next hand, once the current one is over."""
    return take_step(
        request,
        game_id,
        player,
        lambda charges, now: tables.next_hand(game_id, player, body.version, charges, now),
    )


@router.get(
    "/games/{game_id}/hands/{number}/record",
    responses={
        200: {"content": {"application/json": {}}, "description": "The hand record"},
        **_ERRORS,
    },
)
def hand_record(game_id: str, number: int, player: PlayerDep, tables: TablesDep) -> Response:
    """A finished hand's record (hand-record.md), as a file to download."""
    _check_id(game_id)
    try:
        table = tables.load(game_id, player)
    except GameNotFound:
        raise HTTPException(404, NOT_FOUND) from None
    record = table.hand_record(number)
    if record is None:
        raise HTTPException(404, f"hand {number} is not over")
    return Response(
        json.dumps(record, indent=1) + "\n",
        media_type="application/json",
        headers={
            "content-disposition": (
                f'attachment; filename="sheepshead-{game_id[:8]}-hand-{number}.json"'
            )
        },
    )


@router.get(
    "/verify", response_model=schemas.Deal, responses={422: _ERRORS[422]}, tags=["fairness"]
)
def verify(
    seed: Annotated[str, Query(min_length=2, max_length=256, description="The seed, in hex")],
    players: Annotated[int, Query(ge=3, le=6)] = 5,
) -> dict[str, Any]:
    """Re-derive a deal from its seed: each seat's cards (seat 0 first) and the blind."""
    return deal_json(seed, players)


def deal_json(seed_hex: str, players: int) -> dict[str, Any]:
    """The deal of a seed; raises HTTPException 422 for a seed that is not hex."""
    try:
        seed = bytes.fromhex(seed_hex.strip())
    except ValueError:
        raise HTTPException(422, "the seed is written in hexadecimal (0-9, a-f)") from None
    if not seed:
        raise HTTPException(422, "the seed is empty")
    rules = Rules(players=players)
    hands, blind = deal_cards(seed, rules.players, rules.cards_per_seat)
    return {
        "seed_sha256": seed_commitment(seed),
        "players": players,
        "hands": [[c.text for c in cards] for cards in hands],
        "blind": [c.text for c in blind],
    }
