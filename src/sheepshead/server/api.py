"""The JSON API, ``/api/v1``: games, their actions and hands, and deal verification.

Handlers are plain functions: FastAPI runs them in its thread pool, so the bots'
thinking (inside ``Tables.act``) never holds up the event loop or another table.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response

from sheepshead.deal import deal_cards, seed_commitment
from sheepshead.refusals import IllegalAction
from sheepshead.rules import Rules, RulesError
from sheepshead.server import refused, schemas
from sheepshead.server.identity import PlayerDep
from sheepshead.server.refused import Refused
from sheepshead.server.tables import GameConflict, GameNotFound, Tables, state_json, step_json
from sheepshead.table import BadAction

router = APIRouter(prefix="/api/v1", tags=["games"])

NOT_FOUND = "no such game"


def tables_of(request: Request) -> Tables:
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
            "state": state_json(exc.game_id, exc.table),
        },
    )


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
    return step_json(game_id, turn)


@router.get("/games/current", response_model=schemas.TableState, responses={404: _ERRORS[404]})
def current_game(player: PlayerDep, tables: TablesDep) -> dict[str, Any]:
    """Your latest game."""
    try:
        game_id, table = tables.latest(player)
    except GameNotFound:
        raise HTTPException(404, "you have no game yet") from None
    return state_json(game_id, table)


@router.get("/games/{game_id}", response_model=schemas.TableState, responses=_ERRORS)
def get_game(game_id: str, player: PlayerDep, tables: TablesDep) -> dict[str, Any]:
    _check_id(game_id)
    try:
        return state_json(game_id, tables.load(game_id, player))
    except GameNotFound:
        raise HTTPException(404, NOT_FOUND) from None


@router.post(
    "/games/{game_id}/actions",
    response_model=schemas.Step,
    responses={**_ERRORS, **_CONFLICT},
)
def act(
    game_id: str, body: schemas.TableAction, player: PlayerDep, tables: TablesDep
) -> dict[str, Any] | JSONResponse:
    """Take your action; the reply holds every event up to your next decision."""
    _check_id(game_id)
    try:
        turn = tables.act(game_id, player, body.action, body.version)
    except GameNotFound:
        raise HTTPException(404, NOT_FOUND) from None
    except GameConflict as exc:
        return _conflict(exc)
    except IllegalAction as exc:
        raise Refused(422, exc.reason, exc.refusal.code, exc.refusal.params) from None
    except BadAction as exc:
        raise Refused(422, exc.reason, "bad-action") from None
    return step_json(game_id, turn)


@router.post(
    "/games/{game_id}/next-hand",
    response_model=schemas.Step,
    responses={**_ERRORS, **_CONFLICT},
)
def next_hand(
    game_id: str, body: schemas.NextHandIn, player: PlayerDep, tables: TablesDep
) -> dict[str, Any] | JSONResponse:
    """Deal the next hand, once the current one is over."""
    _check_id(game_id)
    try:
        turn = tables.next_hand(game_id, player, body.version)
    except GameNotFound:
        raise HTTPException(404, NOT_FOUND) from None
    except GameConflict as exc:
        return _conflict(exc)
    return step_json(game_id, turn)


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
