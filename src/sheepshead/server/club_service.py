"""Clubs' service: what the API (``clubs.py``) and the pages (``club_pages.py``) both
do to a club, and the refusals they answer, in English for the API and in the
reader's language for a page (``message``). ``docs/clubs.md`` says what a club is;
``store/clubs.py`` keeps them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request

from sheepshead import daily_game as daily
from sheepshead.names import NameRefused, check_name
from sheepshead.server import i18n
from sheepshead.server.daily_play import _refresh
from sheepshead.server.daily_service import Daily, DailyDep
from sheepshead.server.i18n import N_
from sheepshead.server.refused import Refused
from sheepshead.server.settings import Settings
from sheepshead.store.clubs import Club, ClubLine, ClubRefused, ClubStore

T = TypeVar("T")

#: Each refusal: its status and its sentence (English in the API's ``detail``; the
#: pages say it in the reader's language, ``message``).
REFUSALS: dict[str, tuple[int, str]] = {
    "club-needs-name": (
        409,
        N_(
            "Choose your display name first (on the leaderboard): a club shows its members by name."
        ),
    ),
    "club-name-taken": (409, N_("A club with that name, or one that looks like it, exists.")),
    "club-limit": (
        409,
        N_("You are in {limit} clubs already: that is the most one player can be in."),
    ),
    "club-full": (409, N_("This club is full: it has {limit} members, the most a club can have.")),
    "club-invitation-stale": (
        404,
        N_("This invitation is no longer valid: ask a member of the club for the new link."),
    ),
    "no-such-club": (404, N_("There is no such club, or you are not one of its members.")),
    "club-owner-only": (403, N_("Only the club's creator can do that.")),
    "club-no-such-member": (404, N_("That player is not a member of this club.")),
    "club-remove-self": (
        422,
        N_("You cannot remove yourself: leave the club, or hand it on first."),
    ),
}
_ID = re.compile(r"[0-9a-f]{32}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def refused(code: str, **params: Any) -> Refused:
    status, sentence = REFUSALS[code]
    return Refused(status, sentence.format(**params), code, params)


def message(exc: Refused) -> str:
    """A refusal in the reader's language, for a page."""
    if exc.code == "name-refused":
        return name_reason(str(exc.detail))
    sentence = REFUSALS.get(exc.code)
    if sentence is None:
        return i18n.gettext(str(exc.detail))
    params = {k: i18n.number(v) if isinstance(v, int) else v for k, v in exc.params.items()}
    return i18n.gettext(sentence[1]).format(**params)


#: A name's reasons with a part that varies, as ``static/js/words.js`` reads them.
_NAME_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"A name needs at least (\d+) characters\."),
        "A name needs at least {n} characters.",
    ),
    (
        re.compile(r"A name has at most (\d+) characters\."),
        "A name has at most {n} characters.",
    ),
)


def name_reason(reason: str) -> str:
    """A name's refusal (``names.check_name``'s English) in the reader's language: the
    fixed sentences through the catalog, those with a number through their pattern;
    the rest through a sentence that says what is checked."""
    for pattern, msgid in _NAME_PATTERNS:
        found = pattern.fullmatch(reason)
        if found:
            return i18n.gettext(msgid).format(n=i18n.number(int(found[1])))
    translated = i18n.gettext(reason)
    if translated != reason or i18n.current() == i18n.DEFAULT:
        return translated
    return i18n.gettext(
        "That name is refused: a name uses letters and digits of one script, with no "
        "symbols, and does not pose as the site, its staff or a computer player."
    )


# The service: the API's and the pages' one way to clubs ----------------------------


@dataclass(frozen=True, slots=True)
class Clubs:
    store: ClubStore
    daily: Daily
    settings: Settings

    def member_club(self, club_id: str, player: str | None) -> Club:
        """The club, if the player is one of its members (else 404: whether a club
        exists is nobody else's business)."""
        club = None
        if player is not None and _ID.fullmatch(club_id):
            club = self.store.club(club_id)
        if club is None or player is None or not self.store.is_member(club.id, player):
            raise refused("no-such-club")
        return club

    def create(self, player: str, raw_name: str) -> Club:
        own = self.daily.identities.name_of(player)
        if own is None or own[1]:
            raise refused("club-needs-name")
        try:
            name = check_name(raw_name)
        except NameRefused as exc:
            raise Refused(422, exc.reason, "name-refused") from None
        return self._do(
            self.store.create,
            player,
            name.text,
            name.key,
            name.look,
            self.settings.clubs_per_player,
        )

    def join(self, invitation: str, player: str) -> Club:
        if not _TOKEN.fullmatch(invitation):
            raise refused("club-invitation-stale")
        limits = self.settings.members_per_club, self.settings.clubs_per_player
        return self._do(self.store.join, invitation, player, *limits)

    def invited(self, invitation: str) -> Club:
        club = self.store.by_invitation(invitation) if _TOKEN.fullmatch(invitation) else None
        if club is None:
            raise refused("club-invitation-stale")
        return club

    @staticmethod
    def _do(change: Callable[..., T], *args: Any) -> T:
        try:
            return change(*args)
        except ClubRefused as exc:
            raise refused(exc.code, **exc.params) from None

    def leave(self, club_id: str, player: str | None) -> None:
        self.member_club(club_id, player)
        assert player is not None
        self.store.leave(club_id, player)

    def remove(self, club_id: str, player: str | None, member_id: str) -> None:
        self.member_club(club_id, player)
        self._do(self.store.remove, club_id, player, member_id)

    def hand_on(self, club_id: str, player: str | None, member_id: str) -> None:
        self.member_club(club_id, player)
        self._do(self.store.hand_on, club_id, player, member_id)

    def new_invitation(self, club_id: str, player: str | None) -> str:
        self.member_club(club_id, player)
        return self._do(self.store.new_invitation, club_id, player)

    def name(self, club: Club) -> str:
        return club.name if club.name is not None else i18n.gettext("A club (name hidden)")

    def club_json(self, club: Club, player: str) -> dict[str, Any]:
        members = self.store.members(club.id)
        return {
            "id": club.id,
            "name": club.name,
            "hidden": club.name is None,
            "owner": club.owner_id == player,
            "invitation": invitation_path(club.invitation),
            "members": [
                {
                    "member": m.member_id,
                    "name": self.daily.shown(m.player_id, m.name),
                    "you": m.player_id == player,
                    "owner": m.player_id == club.owner_id,
                    # The day joined, as the daily game counts days (Chicago).
                    "joined": daily.day_of(m.joined_at).isoformat(),
                }
                for m in members
            ],
            "limits": {"members_per_club": self.settings.members_per_club},
        }

    # Boards ---------------------------------------------------------------------------

    def day_board(self, club: Club, player: str, day: date, at: datetime) -> dict[str, Any]:
        svc = self.daily
        row = svc.store.day(day)
        if row is not None and _refresh(svc, row):
            row = svc.store.day(day)
        field = 0 if row is None else row.field
        over = daily.is_over(day, at)
        finished = any(a.ranked and a.finished for a in svc.store.attempts(player, day))
        open_book = finished or over
        lines = self.store.day_lines(club.id, day) if row is not None else []
        return {
            "date": day.isoformat(),
            "final": over,
            "field": field,
            "players": len(lines),
            "deals_shown": open_book,
            "top": [
                self._day_line(line, club_rank(lines, line), field, player, open_book)
                for line in lines
            ],
        }

    def _day_line(
        self, line: ClubLine, rank: int, field: int, player: str, open_book: bool
    ) -> dict[str, Any]:
        return {
            "club_rank": rank,
            "rank": line.rank,
            "name": self.daily.shown(line.player_id, line.name),
            "you": line.player_id == player,
            "score": round(daily.score_percent(line.mp, field), 2),
            "mp": line.mp,
            "total": line.total,
            # Another's deals are no business of a member who has not played them yet.
            "points": list(line.points) if open_book else None,
        }

    def week_board(self, club: Club, player: str, day: date) -> dict[str, Any]:
        monday = daily.week_of(day)
        rows = self.daily.store.week(monday, monday + timedelta(days=6))
        standings = daily.rank_week(
            [
                daily.WeekEntry(p, tuple(daily.score_percent(mp, f) for mp, f in days), total)
                for p, _, days, total in rows
            ]
        )
        members = {m.player_id: m for m in self.store.members(club.id)}
        ours = [s for s in standings if s.player in members]
        top = []
        for s in ours:
            above = sum(1 for o in ours if o.rank < s.rank)
            top.append(
                {
                    "club_rank": above + 1,
                    "rank": s.rank,
                    "name": self.daily.shown(s.player, members[s.player].name),
                    "you": s.player == player,
                    "score": round(s.score, 2),
                    "days": s.days,
                    "total": s.total,
                }
            )
        return {"week_of": monday.isoformat(), "players": len(top), "top": top}


def club_rank(lines: list[ClubLine], line: ClubLine) -> int:
    """The line's rank among the club's: shared as the site's is ("1, 2, 2, 4")."""
    return 1 + sum(1 for other in lines if other.rank < line.rank)


def invitation_path(token: str) -> str:
    return f"/clubs/join/{token}"


def clubs_service(request: Request, svc: DailyDep) -> Clubs:
    state = request.app.state
    return Clubs(ClubStore(state.engine), svc, state.settings)


ClubsDep = Annotated[Clubs, Depends(clubs_service)]
