"""Clubs on the web: ``/api/v1/clubs...`` here, the pages ``/clubs...`` in
``club_pages.py`` (included here, so the app registers one router). ``docs/clubs.md``
says what a club is; ``store/clubs.py`` keeps them.

What a request may see: a club's members and boards only if it is a member; on a
club's board only display names (or the board's label) and daily results, with the
per-deal game points only once the member has finished that day, or the day is over,
as on the site's board. A member is named by a random member id, never by an identity.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from sheepshead.server.club_pages import router as pages_router
from sheepshead.server.club_service import REFUSALS, ClubsDep, invitation_path, refused
from sheepshead.server.daily_service import NowDep
from sheepshead.server.daily_web import DateQuery, _day_param
from sheepshead.server.identity import KnownPlayerDep, PlayerDep
from sheepshead.server.schemas import Error

API = "/api/v1/clubs"
router = APIRouter(tags=["clubs"])

ClubId = Annotated[str, Path(max_length=32)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClubIn(_In):
    name: str = Field(max_length=200)


class InvitationIn(_In):
    invitation: str = Field(max_length=64)


class MemberIn(_In):
    member: str = Field(max_length=32)


def _answers(*codes: str) -> dict[int | str, dict[str, Any]]:
    out: dict[int | str, dict[str, Any]] = {}
    for code in codes:
        status, sentence = REFUSALS[code]
        out.setdefault(status, {"model": Error, "description": ""})
        described = out[status]["description"]
        out[status]["description"] = f"{described} {sentence}".strip()
    return out


# The API ------------------------------------------------------------------------------


@router.get(API)
def my_clubs(player: KnownPlayerDep, clubs: ClubsDep) -> dict[str, Any]:
    """The player's clubs (none, and no identity made, for a visitor without one)."""
    mine = [] if player is None else clubs.store.clubs_of(player)
    return {
        "clubs": [
            {"id": c.id, "name": c.name, "owner": c.owner_id == player, "members": c.members}
            for c in mine
        ],
        "limits": {
            "clubs_per_player": clubs.settings.clubs_per_player,
            "members_per_club": clubs.settings.members_per_club,
        },
    }


@router.post(
    API,
    status_code=201,
    responses=_answers("club-needs-name", "club-name-taken", "club-limit"),
)
def create_club(body: ClubIn, player: KnownPlayerDep, clubs: ClubsDep) -> dict[str, Any]:
    """A new club, its creator its first member (422 a refused name, with the reason).
    Its creator needs a display name, so a visitor without an identity is refused
    (and given none)."""
    if player is None:
        raise refused("club-needs-name")
    return clubs.club_json(clubs.create(player, body.name), player)


@router.post(
    f"{API}/join",
    responses=_answers("club-invitation-stale", "club-full", "club-limit"),
)
def join_club(body: InvitationIn, player: PlayerDep, clubs: ClubsDep) -> dict[str, Any]:
    """Join the club of an invitation (a member already: nothing changes)."""
    return clubs.club_json(clubs.join(body.invitation, player), player)


@router.get(f"{API}/invitations/{{invitation}}", responses=_answers("club-invitation-stale"))
def invitation(
    invitation: Annotated[str, Path(max_length=64)], player: KnownPlayerDep, clubs: ClubsDep
) -> dict[str, Any]:
    """What an invitation opens: the club's name and size, and whether the player is
    a member already."""
    club = clubs.invited(invitation)
    return {
        "name": club.name,
        "members": club.members,
        "full": club.members >= clubs.settings.members_per_club,
        "member": player is not None and clubs.store.is_member(club.id, player),
    }


@router.get(f"{API}/{{club_id}}", responses=_answers("no-such-club"))
def club(club_id: ClubId, player: KnownPlayerDep, clubs: ClubsDep) -> dict[str, Any]:
    """A club: its name, members and invitation link (members only)."""
    found = clubs.member_club(club_id, player)
    assert player is not None
    return clubs.club_json(found, player)


@router.post(f"{API}/{{club_id}}/leave", status_code=204, responses=_answers("no-such-club"))
def leave_club(club_id: ClubId, player: KnownPlayerDep, clubs: ClubsDep) -> Response:
    """Leave the club; its creator's leaving hands it to the longest-standing member."""
    clubs.leave(club_id, player)
    return Response(status_code=204)


@router.delete(
    f"{API}/{{club_id}}/members/{{member}}",
    status_code=204,
    responses=_answers(
        "no-such-club", "club-owner-only", "club-no-such-member", "club-remove-self"
    ),
)
def remove_member(
    club_id: ClubId,
    member: Annotated[str, Path(max_length=32)],
    player: KnownPlayerDep,
    clubs: ClubsDep,
) -> Response:
    """The creator removes a member."""
    clubs.remove(club_id, player, member)
    return Response(status_code=204)


@router.post(
    f"{API}/{{club_id}}/owner",
    responses=_answers("no-such-club", "club-owner-only", "club-no-such-member"),
)
def hand_on(
    club_id: ClubId, body: MemberIn, player: KnownPlayerDep, clubs: ClubsDep
) -> dict[str, Any]:
    """The creator hands the club on to another member."""
    clubs.hand_on(club_id, player, body.member)
    found = clubs.member_club(club_id, player)
    assert player is not None
    return clubs.club_json(found, player)


@router.post(f"{API}/{{club_id}}/invitation", responses=_answers("no-such-club", "club-owner-only"))
def new_invitation(club_id: ClubId, player: KnownPlayerDep, clubs: ClubsDep) -> dict[str, Any]:
    """A new invitation link (the creator's); the old one stops working."""
    return {"invitation": invitation_path(clubs.new_invitation(club_id, player))}


@router.get(f"{API}/{{club_id}}/board", responses=_answers("no-such-club"))
def club_board(
    club_id: ClubId, player: KnownPlayerDep, clubs: ClubsDep, at: NowDep, date_: DateQuery = None
) -> dict[str, Any]:
    """The day's board of the club: the members' site-wide ranks and matchpoints with
    their club rank. ``points`` null until the player has finished that day."""
    found = clubs.member_club(club_id, player)
    assert player is not None
    return clubs.day_board(found, player, _day_param(date_, at), at)


@router.get(f"{API}/{{club_id}}/week", responses=_answers("no-such-club"))
def club_week(
    club_id: ClubId, player: KnownPlayerDep, clubs: ClubsDep, at: NowDep, date_: DateQuery = None
) -> dict[str, Any]:
    """The week's board of the club (Monday to Sunday of the given day)."""
    found = clubs.member_club(club_id, player)
    assert player is not None
    return clubs.week_board(found, player, _day_param(date_, at))


router.include_router(pages_router)

__all__ = ["router"]
