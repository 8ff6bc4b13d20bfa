"""Clubs: groups of players who see the daily board filtered to themselves
(``docs/clubs.md``). Migration ``clubs_0001``.

A club has a name (checked and unique as display names are, by the same two keys, in
a namespace of its own), a creator (the ``owner``, who may remove members and hand the
club on), an invitation token and its members. A member is known outside the store by
a random member id, never by the player's id. The board itself is the site's: a club's
lines are the ``daily_results`` of its members, with their site-wide rank and
matchpoints.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    String,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from sheepshead.store.daily_models import DailyResult
from sheepshead.store.daily_store import _DEAL_COLUMNS
from sheepshead.store.games import new_id
from sheepshead.store.identity import DisplayName, shown_name
from sheepshead.store.instants import utc
from sheepshead.store.models import Base


def _now() -> datetime:
    return datetime.now(UTC)


def new_invitation() -> str:
    """An invitation token: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


class ClubRow(Base):
    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    #: The name's two keys, unique among clubs as display names' are among players.
    key: Mapped[str] = mapped_column(String(128), unique=True)
    look: Mapped[str] = mapped_column(String(256), unique=True)
    #: Hidden by a moderator (``sheepshead admin hide-club``): the name stays taken.
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    owner_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id"))
    #: Whoever holds it may join; the owner can replace it (the old one goes stale).
    invitation: Mapped[str] = mapped_column(String(32), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClubMember(Base):
    __tablename__ = "club_members"

    club_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    #: What pages and the API name a member by: random, never the player's id.
    member_id: Mapped[str] = mapped_column(String(32), unique=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_club_members_player", "player_id"),)


# Values handed to the server ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Club:
    id: str
    #: None when a moderator hid it.
    name: str | None
    owner_id: str
    invitation: str
    members: int


@dataclass(frozen=True, slots=True)
class Member:
    member_id: str
    player_id: str
    #: The display name, or None (no name, or hidden): the server shows the label.
    name: str | None
    joined_at: datetime


@dataclass(frozen=True, slots=True)
class ClubLine:
    """A member's line on the site's board of a day (as of the last refresh)."""

    player_id: str
    name: str | None
    points: tuple[int, ...]
    total: int
    mp: int
    rank: int


class ClubRefused(Exception):
    """Why a change to a club is refused: a code (``server/clubs.py`` words it) and its
    parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def _club(row: Any, members: int) -> Club:
    return Club(
        id=row.id,
        name=None if row.hidden else row.name,
        owner_id=row.owner_id,
        invitation=row.invitation,
        members=members,
    )


def _joined(when: datetime) -> datetime:
    return utc(when)


def _count(conn: Connection, *where: Any) -> int:
    return int(
        conn.execute(select(func.count()).select_from(ClubMember).where(*where)).scalar_one()
    )


def _join(conn: Connection, club_id: str, player_id: str) -> None:
    conn.execute(
        insert(ClubMember).values(
            club_id=club_id, player_id=player_id, member_id=new_id(), joined_at=_now()
        )
    )


def _pass_on(conn: Connection, club_id: str, leaving: str) -> None:
    """The club without ``leaving`` (its owner): to its longest-standing other member,
    or deleted when it has none."""
    heir = conn.execute(
        select(ClubMember.player_id)
        .where(ClubMember.club_id == club_id, ClubMember.player_id != leaving)
        .order_by(ClubMember.joined_at, ClubMember.member_id)
        .limit(1)
    ).scalar()
    if heir is None:
        conn.execute(delete(ClubMember).where(ClubMember.club_id == club_id))
        conn.execute(delete(ClubRow).where(ClubRow.id == club_id))
    else:
        conn.execute(update(ClubRow).where(ClubRow.id == club_id).values(owner_id=heir))


def _leave(conn: Connection, club_id: str, player_id: str, owner_id: str) -> None:
    if owner_id == player_id:
        _pass_on(conn, club_id, player_id)
    conn.execute(
        delete(ClubMember).where(ClubMember.club_id == club_id, ClubMember.player_id == player_id)
    )


def forget_player(conn: Connection, player_id: str) -> None:
    """In the deletion of an identity (``DailyStore.delete_player``'s transaction): its
    memberships go, and each club it created passes to its longest-standing member, or
    is deleted when it has none."""
    owned = conn.execute(select(ClubRow.id).where(ClubRow.owner_id == player_id)).scalars()
    for club_id in list(owned):
        _pass_on(conn, club_id, player_id)
    conn.execute(delete(ClubMember).where(ClubMember.player_id == player_id))


class ClubStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # Reading ----------------------------------------------------------------------

    def club(self, club_id: str) -> Club | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(ClubRow).where(ClubRow.id == club_id)).first()
            if row is None:
                return None
            return _club(row, _count(conn, ClubMember.club_id == club_id))

    def by_invitation(self, invitation: str) -> Club | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(ClubRow).where(ClubRow.invitation == invitation)).first()
            if row is None:
                return None
            return _club(row, _count(conn, ClubMember.club_id == row.id))

    def clubs_of(self, player_id: str) -> list[Club]:
        """The player's clubs, in the order they joined them."""
        query = (
            select(ClubRow)
            .join(ClubMember, ClubMember.club_id == ClubRow.id)
            .where(ClubMember.player_id == player_id)
            .order_by(ClubMember.joined_at, ClubRow.id)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            return [_club(r, _count(conn, ClubMember.club_id == r.id)) for r in rows]

    def is_member(self, club_id: str, player_id: str) -> bool:
        with self.engine.connect() as conn:
            return (
                _count(conn, ClubMember.club_id == club_id, ClubMember.player_id == player_id) > 0
            )

    def members(self, club_id: str) -> list[Member]:
        """The members, longest-standing first."""
        query = (
            select(
                ClubMember.member_id,
                ClubMember.player_id,
                ClubMember.joined_at,
                DisplayName.text,
                DisplayName.hidden,
            )
            .outerjoin(DisplayName, DisplayName.player_id == ClubMember.player_id)
            .where(ClubMember.club_id == club_id)
            .order_by(ClubMember.joined_at, ClubMember.member_id)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            Member(r.member_id, r.player_id, shown_name(r.text, r.hidden), _joined(r.joined_at))
            for r in rows
        ]

    def day_lines(self, club_id: str, day: date) -> list[ClubLine]:
        """The members' lines on the site's board of the day, best first (those the
        last refresh ranked)."""
        query = (
            select(
                DailyResult.player_id,
                *(getattr(DailyResult, c) for c in _DEAL_COLUMNS),
                DailyResult.total,
                DailyResult.mp,
                DailyResult.rank,
                DisplayName.text,
                DisplayName.hidden,
            )
            .join(ClubMember, ClubMember.player_id == DailyResult.player_id)
            .outerjoin(DisplayName, DisplayName.player_id == DailyResult.player_id)
            .where(
                ClubMember.club_id == club_id,
                DailyResult.day == day,
                DailyResult.rank.is_not(None),
            )
            .order_by(DailyResult.rank, DailyResult.player_id)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            ClubLine(
                player_id=r.player_id,
                name=shown_name(r.text, r.hidden),
                points=tuple(getattr(r, c) for c in _DEAL_COLUMNS),
                total=r.total,
                mp=r.mp or 0,
                rank=r.rank,
            )
            for r in rows
        ]

    # Changes ----------------------------------------------------------------------

    def create(self, owner_id: str, name: str, key: str, look: str, max_clubs: int) -> Club:
        """A new club with its creator as its first member. Refused: ``club-limit`` (the
        creator is in ``max_clubs`` clubs already), ``club-name-taken``."""
        club_id = new_id()
        try:
            with self.engine.begin() as conn:
                if _count(conn, ClubMember.player_id == owner_id) >= max_clubs:
                    raise ClubRefused("club-limit", limit=max_clubs)
                clash = conn.execute(
                    select(ClubRow.id).where(or_(ClubRow.key == key, ClubRow.look == look))
                ).first()
                if clash is not None:
                    raise ClubRefused("club-name-taken")
                conn.execute(
                    insert(ClubRow).values(
                        id=club_id,
                        name=name,
                        key=key,
                        look=look,
                        hidden=False,
                        owner_id=owner_id,
                        invitation=new_invitation(),
                        created_at=_now(),
                    )
                )
                _join(conn, club_id, owner_id)
        except IntegrityError:
            raise ClubRefused("club-name-taken") from None
        found = self.club(club_id)
        assert found is not None
        return found

    def join(self, invitation: str, player_id: str, max_members: int, max_clubs: int) -> Club:
        """The player joins the club of this invitation (a member already: nothing
        changes). Refused: ``club-invitation-stale``, ``club-full``, ``club-limit``."""
        with self.engine.begin() as conn:
            # Locks the club's row on PostgreSQL, so that two joins cannot both take
            # its last place; SQLite writes one transaction at a time anyway.
            row = conn.execute(
                select(ClubRow).where(ClubRow.invitation == invitation).with_for_update()
            ).first()
            if row is None:
                raise ClubRefused("club-invitation-stale")
            mine = ClubMember.club_id == row.id, ClubMember.player_id == player_id
            if _count(conn, *mine) == 0:
                if _count(conn, ClubMember.club_id == row.id) >= max_members:
                    raise ClubRefused("club-full", limit=max_members)
                if _count(conn, ClubMember.player_id == player_id) >= max_clubs:
                    raise ClubRefused("club-limit", limit=max_clubs)
                _join(conn, row.id, player_id)
            return _club(row, _count(conn, ClubMember.club_id == row.id))

    def leave(self, club_id: str, player_id: str) -> None:
        """The player leaves (the owner too: the club passes on, or goes if empty)."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(ClubRow.owner_id).where(ClubRow.id == club_id).with_for_update()
            ).first()
            if row is not None:
                _leave(conn, club_id, player_id, row.owner_id)

    def _owned(self, conn: Connection, club_id: str, owner_id: str) -> None:
        found = conn.execute(
            select(ClubRow.id)
            .where(ClubRow.id == club_id, ClubRow.owner_id == owner_id)
            .with_for_update()
        ).first()
        if found is None:
            raise ClubRefused("club-owner-only")

    def _member(self, conn: Connection, club_id: str, member_id: str) -> str:
        player = conn.execute(
            select(ClubMember.player_id).where(
                ClubMember.club_id == club_id, ClubMember.member_id == member_id
            )
        ).scalar()
        if player is None:
            raise ClubRefused("club-no-such-member")
        return str(player)

    def remove(self, club_id: str, owner_id: str, member_id: str) -> None:
        """The owner removes a member (not themselves: they leave, or hand on)."""
        with self.engine.begin() as conn:
            self._owned(conn, club_id, owner_id)
            player = self._member(conn, club_id, member_id)
            if player == owner_id:
                raise ClubRefused("club-remove-self")
            conn.execute(
                delete(ClubMember).where(
                    ClubMember.club_id == club_id, ClubMember.player_id == player
                )
            )

    def hand_on(self, club_id: str, owner_id: str, member_id: str) -> None:
        """The owner makes another member the club's owner."""
        with self.engine.begin() as conn:
            self._owned(conn, club_id, owner_id)
            player = self._member(conn, club_id, member_id)
            conn.execute(update(ClubRow).where(ClubRow.id == club_id).values(owner_id=player))

    def new_invitation(self, club_id: str, owner_id: str) -> str:
        """A new invitation token for the club; the old one goes stale."""
        token = new_invitation()
        with self.engine.begin() as conn:
            self._owned(conn, club_id, owner_id)
            conn.execute(update(ClubRow).where(ClubRow.id == club_id).values(invitation=token))
        return token

    def hide(self, key: str, looks: Sequence[str] = (), hidden: bool = True) -> int:
        """Hide (or show again) every club named with this case-folded key or one of
        these look keys; returns how many match."""
        match = or_(ClubRow.key == key, ClubRow.look.in_(list(looks)))
        with self.engine.begin() as conn:
            done = conn.execute(update(ClubRow).where(match).values(hidden=hidden))
        return int(done.rowcount)
