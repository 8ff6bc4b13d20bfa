"""The clubs' pages, rendered on the server (``clubs.py`` has the API and the service):

- ``/clubs``: the player's clubs and the form that creates one;
- ``/clubs/<id>``: a club's board of a day (``?date=``) or of its week (``?week=1``),
  its members and, for its creator, the forms that remove a member or hand the club on;
- ``/clubs/join/<invitation>``: an invitation, with its Join button.

The forms post plain HTML forms (no script needed) to the same paths; a refusal
re-renders the page with the reason in the reader's language and the refusal's status.
Every POST goes through the guard's checks of origin and rate (``security.py``).
Pages that show a player's clubs are never stored by a cache (``no-store``).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated, Any
from urllib.parse import parse_qsl

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from sheepshead import daily_game as daily
from sheepshead.server.club_service import Clubs, ClubsDep, invitation_path, message
from sheepshead.server.daily_service import NowDep
from sheepshead.server.identity import KnownPlayerDep, PlayerDep
from sheepshead.server.refused import Refused
from sheepshead.store.clubs import Club

router = APIRouter(include_in_schema=False)
#: A form's fields are short: a club's name, a member's id.
_MAX_FIELD = 200


async def form_fields(request: Request) -> dict[str, str]:
    """An ``application/x-www-form-urlencoded`` body's fields (the guard has limited
    its size already)."""
    body = (await request.body()).decode("utf-8", errors="replace")
    return {k: v[:_MAX_FIELD] for k, v in parse_qsl(body, keep_blank_values=True)}


FormDep = Annotated[dict[str, str], Depends(form_fields)]


def _render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    templates: Jinja2Templates = request.app.state.templates
    response = templates.TemplateResponse(
        request, template, {"page": "clubs", **context}, status_code=status
    )
    # A player's clubs and their results: for this browser only, and not kept.
    response.headers["cache-control"] = "private, no-store"
    return response


def _see(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303)


# The player's clubs ----------------------------------------------------------------


def _clubs_page(
    request: Request,
    clubs: Clubs,
    player: str | None,
    error: str | None = None,
    status: int = 200,
    typed: str = "",
) -> HTMLResponse:
    mine = [] if player is None else clubs.store.clubs_of(player)
    name = None if player is None else clubs.daily.identities.name_of(player)
    return _render(
        request,
        "clubs.html",
        status,
        clubs=[(c, clubs.name(c), c.owner_id == player) for c in mine],
        has_name=name is not None and not name[1],
        error=error,
        typed=typed,
        limit=clubs.settings.clubs_per_player,
    )


@router.get("/clubs", response_class=HTMLResponse)
def clubs_page(request: Request, player: KnownPlayerDep, clubs: ClubsDep) -> HTMLResponse:
    return _clubs_page(request, clubs, player)


@router.post("/clubs", response_class=HTMLResponse)
def create_club_form(
    request: Request, form: FormDep, player: KnownPlayerDep, clubs: ClubsDep
) -> Response:
    typed = form.get("name", "")
    try:
        if player is None:
            # A club needs its creator's display name: a new visitor has none yet.
            raise Refused(409, "", "club-needs-name")
        club = clubs.create(player, typed)
    except Refused as exc:
        return _clubs_page(request, clubs, player, message(exc), exc.status_code, typed)
    return _see(f"/clubs/{club.id}")


# A club ------------------------------------------------------------------------------


def _shown_day(text: str | None, today: date) -> date:
    if text:
        try:
            return min(date.fromisoformat(text), today)
        except ValueError:
            pass
    return today


def _club_page(
    request: Request,
    clubs: Clubs,
    club: Club,
    player: str,
    at: datetime,
    error: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    today = daily.day_of(at)
    day = _shown_day(request.query_params.get("date"), today)
    week = request.query_params.get("week") == "1"
    context: dict[str, Any] = {
        "club": club,
        "club_name": clubs.name(club),
        "detail": clubs.club_json(club, player),
        "day": day.isoformat(),
        "today": today.isoformat(),
        "before": (day - timedelta(days=1)).isoformat(),
        "after": (day + timedelta(days=1)).isoformat() if day < today else None,
        "week": week,
        "error": error,
        "invitation_url": str(request.base_url).rstrip("/") + invitation_path(club.invitation),
    }
    if week:
        context["board"] = clubs.week_board(club, player, day)
    else:
        context["board"] = clubs.day_board(club, player, day, at)
    return _render(request, "club.html", status, **context)


@router.get("/clubs/{club_id}", response_class=HTMLResponse)
def club_page(
    request: Request, club_id: str, player: KnownPlayerDep, clubs: ClubsDep, at: NowDep
) -> HTMLResponse:
    try:
        club = clubs.member_club(club_id, player)
    except Refused as exc:
        return _clubs_page(request, clubs, player, message(exc), exc.status_code)
    assert player is not None
    return _club_page(request, clubs, club, player, at)


def _club_change(
    request: Request, clubs: Clubs, club_id: str, player: str | None, at: NowDep, change: Any
) -> Response:
    """Make a change from the club's page, then show the page again (or the list of
    the player's clubs when they are no longer a member)."""
    try:
        club = clubs.member_club(club_id, player)
    except Refused as exc:
        return _clubs_page(request, clubs, player, message(exc), exc.status_code)
    assert player is not None
    try:
        change()
    except Refused as exc:
        return _club_page(request, clubs, club, player, at, message(exc), exc.status_code)
    if not clubs.store.is_member(club_id, player):
        return _see("/clubs")
    return _see(f"/clubs/{club_id}")


@router.post("/clubs/{club_id}/leave", response_class=HTMLResponse)
def leave_form(
    request: Request, club_id: str, player: KnownPlayerDep, clubs: ClubsDep, at: NowDep
) -> Response:
    return _club_change(request, clubs, club_id, player, at, lambda: clubs.leave(club_id, player))


@router.post("/clubs/{club_id}/remove", response_class=HTMLResponse)
def remove_form(
    request: Request,
    club_id: str,
    form: FormDep,
    player: KnownPlayerDep,
    clubs: ClubsDep,
    at: NowDep,
) -> Response:
    member = form.get("member", "")
    return _club_change(
        request, clubs, club_id, player, at, lambda: clubs.remove(club_id, player, member)
    )


@router.post("/clubs/{club_id}/owner", response_class=HTMLResponse)
def hand_on_form(
    request: Request,
    club_id: str,
    form: FormDep,
    player: KnownPlayerDep,
    clubs: ClubsDep,
    at: NowDep,
) -> Response:
    member = form.get("member", "")
    return _club_change(
        request, clubs, club_id, player, at, lambda: clubs.hand_on(club_id, player, member)
    )


@router.post("/clubs/{club_id}/invitation", response_class=HTMLResponse)
def invitation_form(
    request: Request, club_id: str, player: KnownPlayerDep, clubs: ClubsDep, at: NowDep
) -> Response:
    return _club_change(
        request, clubs, club_id, player, at, lambda: clubs.new_invitation(club_id, player)
    )


# An invitation ------------------------------------------------------------------------


@router.get("/clubs/join/{invitation}", response_class=HTMLResponse)
def join_page(
    request: Request, invitation: str, player: KnownPlayerDep, clubs: ClubsDep
) -> HTMLResponse:
    try:
        club = clubs.invited(invitation)
    except Refused as exc:
        return _render(request, "club_join.html", exc.status_code, club=None, error=message(exc))
    member = player is not None and clubs.store.is_member(club.id, player)
    return _render(
        request,
        "club_join.html",
        club=club,
        club_name=clubs.name(club),
        member=member,
        invitation=invitation,
        error=None,
    )


@router.post("/clubs/join/{invitation}", response_class=HTMLResponse)
def join_form(request: Request, invitation: str, player: PlayerDep, clubs: ClubsDep) -> Response:
    try:
        club = clubs.join(invitation, player)
    except Refused as exc:
        found = (
            clubs.store.by_invitation(invitation) if exc.code != "club-invitation-stale" else None
        )
        return _render(
            request,
            "club_join.html",
            exc.status_code,
            club=found,
            club_name=None if found is None else clubs.name(found),
            member=False,
            invitation=invitation,
            error=message(exc),
        )
    return _see(f"/clubs/{club.id}")
