"""The daily game's attempts: ``/api/v1/daily/attempts/...`` (``daily_web.py`` has the
board and pages, and includes this router; ``players.py`` the names and codes).

An attempt is a ``Table`` whose hands are the day's five deals: each request
replays it from the moves stored, applies the player's action and the computer
players' replies, and saves with a version check, as the table's own routes do.
A result is computed here, from that replay, never taken from the browser.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from sheepshead import daily_game
from sheepshead.refusals import IllegalAction
from sheepshead.server import refused
from sheepshead.server.daily_service import Daily, DailyDep, NowDep, _refresh_now, day_players
from sheepshead.server.identity import PlayerDep
from sheepshead.server.me_record import daily_saved
from sheepshead.server.observability import bots_thinking
from sheepshead.server.refused import Refused
from sheepshead.server.schemas import Conflict, Error
from sheepshead.store.daily_store import Attempt, Day
from sheepshead.store.day_end import DayEndStore
from sheepshead.store.moderation import record_play
from sheepshead.table import BadAction, Table, TableConflict, Turn

API = "/api/v1/daily"
router = APIRouter(tags=["daily"])

#: Below this field the board is refreshed as each result comes in; above, at most
#: every ``REFRESH_SECONDS`` (a refresh rewrites every line of the day).
LIVE_FIELD = 1000
REFRESH_SECONDS = 10.0
BOARD_SIZE = 100
NOT_FOUND = "no such attempt"
#: Today's deals are played once, ranked; replaying them would let one identity scout
#: them for another (and a replay shows every card), so replays wait for the day's end.
REPLAY_LATER = (
    "today's deals are played once, ranked: replays of them open when the day is over, "
    "from the day's archive page"
)
RECORD_LATER = (
    "a daily deal's record holds every seat's cards: it can be downloaded when the day "
    "is over, from the day's archive page"
)
_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
#: The answers besides 200 and validation's 422, for the OpenAPI document.
_404: dict[int | str, dict[str, Any]] = {
    404: {"model": Error, "description": "No such attempt (for this player)"}
}
_409: dict[int | str, dict[str, Any]] = {
    409: {"model": Conflict, "description": "Stale version or closed attempt: it as it is now"}
}


def _answers(code: int, description: str) -> dict[int | str, dict[str, Any]]:
    """An answer besides 200 and validation's 422, for the OpenAPI document."""
    return {code: {"model": Error, "description": description}}


_503: dict[int | str, dict[str, Any]] = {
    503: {"model": Error, "description": "The day's computer players are not this server's"}
}


# Bodies ----------------------------------------------------------------------------


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActionIn(_In):
    action: str = Field(min_length=1, max_length=64)
    version: int = Field(ge=0, le=2**31 - 1)


class VersionIn(_In):
    version: int = Field(ge=0, le=2**31 - 1)


class NameIn(_In):
    name: str = Field(max_length=200)


class CodeIn(_In):
    code: str = Field(max_length=64)


# Attempts --------------------------------------------------------------------------


def _state(svc: Daily, attempt: Attempt, table: Table, at: datetime) -> dict[str, Any]:
    over = daily_game.is_over(attempt.day, at)
    # Until the day is over its deals stay sealed, even once played: a finished deal
    # shows what seat 0 saw, nothing a scout could pass on to another identity.
    state = table.state(sealed=not over)
    if state["summary"] is not None:
        state["summary"]["sealed"] = not over
    # The table shows a hand's seed once it is over; a daily deal's seed stays secret
    # until the day ends (it would let a finished player pass the deals on as data).
    seed = daily_game.deal_seed(svc.seed(attempt.day), table.hand_number - 1)
    state["seed"] = seed.hex() if over and table.hand_over else None
    if not over:
        for line in state["score_sheet"]:
            line["seed"] = None
    state["id"] = attempt.id
    finished = table.hand_over and table.hand_number == daily_game.DEALS
    state["daily"] = {
        "date": attempt.day.isoformat(),
        "deal": table.hand_number,
        "deals": daily_game.DEALS,
        "ranked": attempt.ranked,
        "finished": finished,
        "void": attempt.ranked and over and not finished,
        "commitment": daily_game.commitment(svc.seed(attempt.day)),
        "next_day_starts": daily_game.day_end(attempt.day).isoformat(),
    }
    return state


def _step(svc: Daily, attempt: Attempt, turn: Turn, at: datetime) -> dict[str, Any]:
    return {"state": _state(svc, attempt, turn.table, at), "events": turn.events_json()}


def _load(svc: Daily, attempt_id: str, player: str) -> Attempt:
    if len(attempt_id) != 32 or not all(c in "0123456789abcdef" for c in attempt_id):
        raise HTTPException(404, NOT_FOUND)
    attempt = svc.store.attempt(attempt_id, player)
    if attempt is None:
        raise HTTPException(404, NOT_FOUND)
    return attempt


def _conflict(
    svc: Daily,
    attempt: Attempt,
    reason: str,
    at: datetime,
    code: str,
    params: dict[str, Any] | None = None,
) -> JSONResponse:
    fresh = svc.store.attempt(attempt.id, attempt.player_id) or attempt
    state = _state(svc, fresh, svc.table(fresh), at)
    return JSONResponse(
        status_code=409, content={**refused.body(reason, code, params), "state": state}
    )


def _moves(table: Table) -> list[list[str]]:
    return [moves for _, moves in table.hands()]


def _points(table: Table) -> list[int]:
    out = []
    for game in table.match.hands:
        result = game.result()
        assert result is not None
        out.append(result.scores[daily_game.PLAYER_SEAT])
    return out


@router.post(
    f"{API}/attempts",
    status_code=201,
    response_model=None,
    responses=_503 | _answers(409, "Today's attempt is finished: replays wait for the day's end"),
)
def start_attempt(
    request: Request, player: PlayerDep, svc: DailyDep, at: NowDep
) -> dict[str, Any] | JSONResponse:
    """Start today's attempt, or carry on with the one in progress (then 200).

    Today's deals are played once, ranked: once that attempt is finished, 409 (a
    replay of them opens when the day is over, at ``POST /days/{date}/replays``).
    """
    day = daily_game.day_of(at)
    row = svc.day_row(day)
    svc.playable(row)
    # Ready long before the first player finishes and looks at the board.
    svc.expert_later(row)
    attempts = svc.store.attempts(player, day)
    if not attempts:
        return _begin(request, player, svc, row, 1, at)
    if attempts[0].ranked and not attempts[0].finished:
        return _resume(svc, attempts[0], at)
    raise HTTPException(409, REPLAY_LATER)


def _resume(svc: Daily, attempt: Attempt, at: datetime) -> JSONResponse:
    """The reply for an attempt in progress: as it stands (200)."""
    content = {"state": _state(svc, attempt, svc.table(attempt), at), "events": []}
    return JSONResponse(status_code=200, content=content)


def _begin(
    request: Request, player: str, svc: Daily, row: Day, number: int, at: datetime
) -> dict[str, Any] | JSONResponse:
    """Deal attempt ``number`` of the day (1, the ranked one; later, an unranked replay
    of a day that is over) with the day's own computer players."""
    day = row.day
    seed = svc.seed(day)
    level, version = day_players(row)
    turn = Table.start(
        daily_game.RULES,
        level,
        svc.bot_seed(day),
        daily_game.deal_seed(seed, 0),
        daily_game.FIRST_DEALER,
        bot_version=version,
    )
    address = svc.address(request, day) if number == 1 else None
    created = svc.store.create_attempt(
        player, day, number, _moves(turn.table), turn.table.version, address
    )
    if created is None:
        # A second tab or a double click started it a moment ago: show that one.
        current = svc.store.attempts(player, day)[-1]
        content = {"state": _state(svc, current, svc.table(current), at), "events": []}
        return JSONResponse(status_code=200, content=content)
    return _step(svc, created, turn, at)


@router.get(f"{API}/attempts/current", responses=_404)
def current_attempt(player: PlayerDep, svc: DailyDep, at: NowDep) -> dict[str, Any]:
    """Today's attempt in progress, else today's latest attempt; 404 if none."""
    attempts = svc.store.attempts(player, daily_game.day_of(at))
    if not attempts:
        raise HTTPException(404, "you have not started today's game")
    unfinished = [a for a in attempts if not a.finished]
    attempt = unfinished[-1] if unfinished else attempts[-1]
    return _state(svc, attempt, svc.table(attempt), at)


@router.get(f"{API}/attempts/{{attempt_id}}", responses=_404)
def get_attempt(attempt_id: str, player: PlayerDep, svc: DailyDep, at: NowDep) -> dict[str, Any]:
    attempt = _load(svc, attempt_id, player)
    return _state(svc, attempt, svc.table(attempt), at)


DAY_OVER = "the day is over: an attempt unfinished at its end does not count"


def _check_open(svc: Daily, attempt: Attempt, at: datetime) -> tuple[str, str] | None:
    """Why the attempt takes no more moves, and its code; None while it is open."""
    if attempt.finished:
        return "this attempt is finished", "attempt-finished"
    over = daily_game.is_over(attempt.day, at)
    if attempt.ranked and over:
        return DAY_OVER, "day-over"
    if not attempt.ranked and not over:
        # A replay begun before replays of a day waited for its end.
        return REPLAY_LATER, "replay-later"
    return None


def _lost_race(svc: Daily, attempt: Attempt, changed: str, at: datetime) -> JSONResponse:
    """The 409 of a save refused: the day ended in the database meanwhile, or another
    request changed the attempt first."""
    ended = attempt.ranked and DayEndStore(svc.store.engine).ended(attempt.day)
    if ended:
        return _conflict(svc, attempt, DAY_OVER, at, "day-over")
    return _conflict(svc, attempt, changed, at, "changed-on-the-way")


def _open(
    svc: Daily, attempt_id: str, player: str, at: datetime
) -> tuple[Attempt, Table] | JSONResponse:
    """The player's attempt and its table, ready for a change; the 409 reply instead if
    the attempt is closed (404 and 503 are raised)."""
    attempt = _load(svc, attempt_id, player)
    closed = _check_open(svc, attempt, at)
    if closed is not None:
        return _conflict(svc, attempt, closed[0], at, closed[1])
    row = svc.store.day(attempt.day)
    assert row is not None
    svc.playable(row)
    return attempt, svc.table(attempt)


def _save(svc: Daily, attempt: Attempt, turn: Turn, played_from: str | None = None) -> bool:
    table = turn.table
    finished = table.hand_over and table.hand_number == daily_game.DEALS
    points = _points(table) if finished and attempt.ranked else None
    evidence = None
    if played_from is not None and attempt.ranked:
        evidence = record_play(attempt, played_from, None if points is None else sum(points))
    saved = svc.store.save_attempt(
        attempt, _moves(table), table.version, finished, points, evidence
    )
    if saved and points is not None:
        row = svc.store.day(attempt.day)
        assert row is not None  # the attempt's day row comes before the attempt
        _refresh(svc, row, after_result=True)
    if saved:
        daily_saved(svc.store.engine, attempt, table, points is not None)
    return saved


def _refresh(svc: Daily, row: Day, after_result: bool = False) -> bool:
    """Refresh the day's board if it is due; True if that was done within this call
    (then ``row`` is out of date), False if not due or left to the background."""
    day = row.day
    due = row.refreshed_at is None or (
        datetime.now(UTC) - row.refreshed_at >= timedelta(seconds=REFRESH_SECONDS)
    )
    if after_result and row.field >= LIVE_FIELD and not due:
        return False
    if not after_result and not (due and svc.store.has_unranked(day)):
        return False
    if row.field < LIVE_FIELD:
        # Fast on a small field, and the player who just finished sees their rank at once.
        _refresh_now(svc, day)
        return True
    # Seconds on a large one: no player's request waits for it.
    svc.refresh_later(day)
    return False


@router.post(
    f"{API}/attempts/{{attempt_id}}/actions", response_model=None, responses=_404 | _409 | _503
)
def act(
    request: Request,
    attempt_id: str,
    body: ActionIn,
    player: PlayerDep,
    svc: DailyDep,
    at: NowDep,
) -> dict[str, Any] | JSONResponse:
    """Your action in the current deal; the reply holds every event up to your next
    decision. 409 (with the attempt as it is) for a stale version or a closed attempt."""
    opened = _open(svc, attempt_id, player, at)
    if isinstance(opened, JSONResponse):
        return opened
    attempt, table = opened
    try:
        with bots_thinking(table.level):
            turn = table.act(body.action, body.version)
    except TableConflict as exc:
        return _conflict(svc, attempt, exc.reason, at, exc.code, exc.params)
    except IllegalAction as exc:
        raise Refused(422, exc.reason, exc.refusal.code, exc.refusal.params) from None
    except BadAction as exc:
        raise Refused(422, exc.reason, "bad-action") from None
    # Every move of a ranked attempt is evidence for the moderators: from which network,
    # and when (a look at the page, without a move, is not).
    address = svc.address(request, attempt.day) if attempt.ranked else None
    if not _save(svc, attempt, turn, address):
        return _lost_race(svc, attempt, "this attempt changed while your action was on its way", at)
    return _step(svc, attempt, turn, at)


@router.post(
    f"{API}/attempts/{{attempt_id}}/next-deal", response_model=None, responses=_404 | _409 | _503
)
def next_deal(
    attempt_id: str, body: VersionIn, player: PlayerDep, svc: DailyDep, at: NowDep
) -> dict[str, Any] | JSONResponse:
    """Deal the day's next deal, once the current one is over."""
    opened = _open(svc, attempt_id, player, at)
    if isinstance(opened, JSONResponse):
        return opened
    attempt, table = opened
    if table.hand_number >= daily_game.DEALS:
        return _conflict(svc, attempt, "that was the day's last deal", at, "last-deal")
    seed = daily_game.deal_seed(svc.seed(attempt.day), table.hand_number)
    try:
        with bots_thinking(table.level):
            turn = table.next_hand(seed, body.version)
    except TableConflict as exc:
        return _conflict(svc, attempt, exc.reason, at, exc.code, exc.params)
    if not _save(svc, attempt, turn):
        return _lost_race(
            svc, attempt, "this attempt changed while your request was on its way", at
        )
    return _step(svc, attempt, turn, at)


@router.get(
    f"{API}/attempts/{{attempt_id}}/deals/{{number}}/record",
    responses=_404 | _answers(409, "The day is not over: its deals stay secret until then"),
)
def deal_record(
    attempt_id: str, number: int, player: PlayerDep, svc: DailyDep, at: NowDep
) -> Response:
    """A finished deal's hand record (hand-record.md), as a file to download, once the
    day is over: a record holds every seat's cards."""
    import json

    attempt = _load(svc, attempt_id, player)
    if not daily_game.is_over(attempt.day, at):
        raise HTTPException(409, RECORD_LATER)
    record = svc.table(attempt).hand_record(number)
    if record is None:
        raise HTTPException(404, f"deal {number} is not over")
    name = f"sheepshead-daily-{attempt.day.isoformat()}-deal-{number}.json"
    return Response(
        json.dumps(record, indent=1) + "\n",
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )
