"""The daily game's moderation: the evidence of which networks played each day, the
flags it raises, and a moderator's verdicts (``sheepshead admin flags``, ``void-result``).

The evidence (``DailyAddressPlay``) is written by ``record_play``, in the transaction
in which ``DailyStore.save_attempt`` saves each move of a ranked attempt: the keyed
hash of the network, the attempt's id, its first and last move from that network, and
once finished its result. No name and no identity: it outlives the deletion of any
identity involved, and is forgotten after ``ADDRESS_DAYS``. The flags are read from it
alone, so they do not depend on who played first, nor on who deleted itself since.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, select, text, update

from sheepshead.store.daily_models import DailyAddressPlay, DailyAttempt, DailyResult
from sheepshead.store.daily_store import Attempt, DailyStore, Evidence
from sheepshead.store.identity import DisplayName
from sheepshead.store.instants import utc
from sheepshead.store.stats import StatsStore

#: How many days the evidence is kept for the moderators (``forget_addresses``).
ADDRESS_DAYS = 30


@dataclass(frozen=True, slots=True)
class Play:
    """A ranked attempt of the day as the evidence keeps it: no name, no identity."""

    attempt_id: str
    #: The keyed hashes of the networks its moves came from.
    networks: tuple[str, ...]
    first_move: datetime
    last_move: datetime
    finished_at: datetime | None
    #: Its game points once finished (kept after its identity is deleted).
    total: int | None

    def overlaps(self, other: Play) -> bool:
        """Whether the two were being played at the same time."""
        return self.first_move <= other.last_move and other.first_move <= self.last_move


@dataclass(frozen=True, slots=True)
class Flag:
    """A flagged attempt, for a moderator: another identity played the day from one of
    its networks, before, during or after it."""

    play: Play
    #: Its identity still exists (False once deleted: then only the evidence is left).
    kept: bool
    #: Its identity's display name, if it has one.
    name: str | None
    #: Its result stands on the board (``void_result`` can take it off).
    on_board: bool
    #: The other attempts played from its networks, first first, each with the network
    #: shared and whether the two overlapped in time.
    same_network: tuple[tuple[Play, str, bool], ...]


def record_play(attempt: Attempt, address: str, total: int | None) -> Evidence:
    """The evidence of a move in a ranked attempt, from the network of keyed hash
    ``address``, for ``save_attempt`` to write; ``total``: the attempt's game points if
    this move finished it. Flags the attempt and the others played from that network,
    whichever played first."""

    def write(conn: Connection, now: datetime) -> None:
        _note_play(conn, attempt, address, now)
        if total is not None:
            conn.execute(
                update(DailyAddressPlay)
                .where(
                    DailyAddressPlay.day == attempt.day,
                    DailyAddressPlay.attempt_id == attempt.id,
                )
                .values(finished_at=now, total=total)
            )

    return write


def _note_play(conn: Connection, attempt: Attempt, address: str, now: datetime) -> None:
    # Runs after the attempt's version check: one request per attempt gets here.
    # Most moves come from a network the attempt has played from already.
    known = conn.execute(
        update(DailyAddressPlay)
        .where(
            DailyAddressPlay.day == attempt.day,
            DailyAddressPlay.address == address,
            DailyAddressPlay.attempt_id == attempt.id,
        )
        .values(last_at=now)
    )
    if known.rowcount == 1:
        return
    # Two attempts' first moves from one network may get here at once: on PostgreSQL
    # each would miss the other's uncommitted row, so they take turns (SQLite writes
    # one at a time).
    if conn.dialect.name == "postgresql":
        key = int.from_bytes(hashlib.sha256(address.encode()).digest()[:8], "big", signed=True)
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
    others = set(
        conn.execute(
            select(DailyAddressPlay.attempt_id).where(
                DailyAddressPlay.day == attempt.day,
                DailyAddressPlay.address == address,
                DailyAddressPlay.attempt_id != attempt.id,
            )
        ).scalars()
    )
    conn.execute(
        insert(DailyAddressPlay).values(
            day=attempt.day, address=address, attempt_id=attempt.id, created_at=now, last_at=now
        )
    )
    if others:
        # The whole group is flagged, whichever of them played first.
        conn.execute(
            update(DailyAttempt)
            .where(DailyAttempt.id.in_(sorted(others | {attempt.id})))
            .values(flagged=True)
        )


class ModerationStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def forget_addresses(self, before: date) -> None:
        """Drop the evidence of the days before ``before``, and the networks' hashes kept
        with the attempts: they serve the moderators while a day's flags are fresh, and
        no longer (``ADDRESS_DAYS``)."""
        with self.engine.begin() as conn:
            conn.execute(delete(DailyAddressPlay).where(DailyAddressPlay.day < before))
            conn.execute(
                update(DailyAttempt)
                .where(DailyAttempt.day < before, DailyAttempt.address.is_not(None))
                .values(address=None)
            )

    def flags(self, day: date) -> list[Flag]:
        """Every ranked attempt of the day played from a network that another one of
        the day was also played from, whatever the order, deleted identities' included."""
        shared = (
            select(DailyAddressPlay.address)
            .where(DailyAddressPlay.day == day)
            .group_by(DailyAddressPlay.address)
            .having(func.count() > 1)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(DailyAddressPlay).where(
                    DailyAddressPlay.day == day, DailyAddressPlay.address.in_(shared)
                )
            ).all()
            ids = sorted({r.attempt_id for r in rows})
            live = {
                r.id: r
                for r in conn.execute(
                    select(
                        DailyAttempt.id,
                        DailyAttempt.finished,
                        DisplayName.text,
                        DailyResult.total,
                        DailyResult.attempt_id.label("result_of"),
                    )
                    .outerjoin(DisplayName, DisplayName.player_id == DailyAttempt.player_id)
                    .outerjoin(DailyResult, DailyResult.attempt_id == DailyAttempt.id)
                    .where(DailyAttempt.id.in_(ids))
                )
            }
        by_attempt: dict[str, list[Any]] = defaultdict(list)
        by_network: dict[str, list[str]] = defaultdict(list)
        for r in rows:
            by_attempt[r.attempt_id].append(r)
            by_network[r.address].append(r.attempt_id)
        plays = {a: _play(a, mine, live.get(a)) for a, mine in by_attempt.items()}
        out = []
        for play in sorted(plays.values(), key=lambda p: (p.first_move, p.attempt_id)):
            others: dict[str, str] = {}
            for network in play.networks:
                for other in by_network[network]:
                    if other != play.attempt_id:
                        others.setdefault(other, network)
            same = sorted(
                ((plays[o], n, play.overlaps(plays[o])) for o, n in others.items()),
                key=lambda x: (x[0].first_move, x[0].attempt_id),
            )
            found = live.get(play.attempt_id)
            out.append(
                Flag(
                    play=play,
                    kept=found is not None,
                    name=None if found is None else found.text,
                    on_board=found is not None and found.result_of is not None,
                    same_network=tuple(same),
                )
            )
        return out

    def void_result(self, day: date, attempt_id: str) -> bool:
        """A moderator's verdict on a flagged attempt: its result leaves the board (the
        attempt stays finished, so it cannot be played ranked again). False if there is
        no such result."""
        with self.engine.begin() as conn:
            done = conn.execute(
                delete(DailyResult).where(
                    DailyResult.day == day, DailyResult.attempt_id == attempt_id
                )
            )
        if done.rowcount != 1:
            return False
        # The day stops counting in its player's streak.
        StatsStore(self.engine).void_day(day, attempt_id)
        DailyStore(self.engine).refresh_board(day)
        return True


def _play(attempt_id: str, rows: list[Any], live: Any) -> Play:
    first = min(utc(r.created_at) for r in rows)
    last = max(utc(r.last_at or r.created_at) for r in rows)
    finished = next((utc(r.finished_at) for r in rows if r.finished_at is not None), None)
    total = next((r.total for r in rows if r.total is not None), None)
    if total is None and live is not None:
        # Evidence written before flags_0001 kept no result: the board's, if it stands.
        total = live.total
    return Play(
        attempt_id=attempt_id,
        networks=tuple(sorted({r.address for r in rows})),
        first_move=first,
        last_move=max(last, finished) if finished is not None else last,
        finished_at=finished,
        total=total,
    )
