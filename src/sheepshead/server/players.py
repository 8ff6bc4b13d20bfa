"""A player's identity on the web: ``/api/v1/daily/me`` (the name shown on the
board, whether a recovery code is held), choosing a name, a new recovery code,
recovering an identity with its code, and deleting an identity (``docs/daily.md``,
``docs/api.md``). Included in the daily game's router (``daily_web.py``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from sheepshead.names import CodeRefused, NameRefused, check_name, code_from_bytes, normalize_code
from sheepshead.phrases import refusal_english
from sheepshead.server.daily_play import API, CodeIn, NameIn, _answers
from sheepshead.server.daily_service import Daily, DailyDep
from sheepshead.server.identity import COOKIE, KnownPlayerDep, PlayerDep, cookie_header
from sheepshead.server.refused import Refused
from sheepshead.store import forget
from sheepshead.store.identity import NameTaken

router = APIRouter(tags=["daily"])

_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}


@router.get(f"{API}/me")
def me(player: KnownPlayerDep, svc: DailyDep) -> dict[str, Any]:
    """The player's name and whether they hold a recovery code (a visitor without an
    identity gets the same, empty, without being given one)."""
    if player is None:
        return {"name": None, "hidden": False, "recovery_code": False}
    name = svc.identities.name_of(player)
    return {
        "name": None if name is None else name[0],
        "hidden": bool(name and name[1]),
        "recovery_code": svc.identities.has_recovery_code(player),
    }


@router.put(f"{API}/me/name", responses=_answers(409, "That name, or a look-alike, is taken"))
def set_name(body: NameIn, player: PlayerDep, svc: DailyDep) -> dict[str, Any]:
    """Choose the name shown on the board (422 with the reason; 409 if it is taken)."""
    try:
        name = check_name(body.name)
    except NameRefused as exc:
        raise Refused(422, exc.reason, exc.code, exc.params) from None
    try:
        svc.identities.set_name(player, name.text, name.key, name.look)
    except NameTaken:
        raise Refused(409, refusal_english("name-taken", {}), "name-taken") from None
    return {"name": name.text}


def _code_hash(svc: Daily, code: str) -> str:
    return hmac.new(svc.secret, b"recovery:" + code.encode(), hashlib.sha256).hexdigest()


@router.post(f"{API}/me/recovery-code")
def new_recovery_code(player: PlayerDep, svc: DailyDep) -> dict[str, Any]:
    """A new recovery code (the old one stops working). Shown once: the server keeps
    only its keyed hash."""
    code = code_from_bytes(secrets.token_bytes(8))
    svc.identities.set_recovery_code(player, _code_hash(svc, code))
    return {"code": code}


def _secure(request: Request) -> bool:
    local = request.url.scheme == "http" and request.url.hostname in _LOCAL_HOSTS
    return not (svc_dev(request) and local)


def svc_dev(request: Request) -> bool:
    return bool(request.app.state.settings.dev)


@router.post(f"{API}/recover", responses=_answers(404, "No player has that recovery code"))
def recover(body: CodeIn, request: Request, svc: DailyDep) -> Response:
    """Carry an identity to this browser: its cookie is set to the code's player."""
    try:
        code = normalize_code(body.code)
    except CodeRefused as exc:
        raise Refused(422, str(exc), exc.code, exc.params) from None
    player = svc.identities.player_of_code(_code_hash(svc, code))
    if player is None:
        raise Refused(404, refusal_english("no-such-recovery-code", {}), "no-such-recovery-code")
    response = JSONResponse({"ok": True})
    response.headers.append("set-cookie", cookie_header(player, _secure(request)))
    return response


@router.delete(f"{API}/me", status_code=204)
def delete_me(request: Request, player: KnownPlayerDep, svc: DailyDep) -> Response:
    """Delete this identity and everything kept about it. The cookie is cleared (a
    browser without an identity has nothing to delete, and is not given one)."""
    for day in [] if player is None else forget.delete_player(svc.identities, player):
        svc.store.refresh_board(day)
    response = Response(status_code=204)
    secure = "; Secure" if _secure(request) else ""
    response.headers.append(
        "set-cookie", f"{COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax{secure}"
    )
    return response


__all__ = ["router"]
