"""The daily game's moderation: the networks that played each day, the flags they
raise, and a moderator's verdicts (``sheepshead admin flags``, ``void-result``).

The records themselves are written by ``DailyStore.save_attempt``, in the transaction
that saves the player's first move (``DailyAddressPlay``); this module reads them, and
forgets them after ``ADDRESS_DAYS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import Engine, delete, select, update

from sheepshead.store.daily import (
    DailyAddressPlay,
    DailyAttempt,
    DailyResult,
    DailyStore,
    DisplayName,
)

#: How many days the networks' hashes are kept for the moderators (``forget_addresses``).
ADDRESS_DAYS = 30


@dataclass(frozen=True, slots=True)
class Flag:
    """A flagged attempt, for a moderator."""

    attempt_id: str
    player_id: str
    name: str | None
    finished: bool
    #: Its game points, if it is finished and its result still stands.
    total: int | None
    #: The other ranked attempts of the day played from its network, first first:
    #: (attempt id, player id or None when that identity was deleted).
    same_network: tuple[tuple[str, str | None], ...]


class ModerationStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def forget_addresses(self, before: date) -> None:
        """Drop the networks' hashes of the days before ``before``: they serve the
        moderators while a day's flags are fresh, and no longer (``ADDRESS_DAYS``)."""
        with self.engine.begin() as conn:
            conn.execute(delete(DailyAddressPlay).where(DailyAddressPlay.day < before))
            conn.execute(
                update(DailyAttempt)
                .where(DailyAttempt.day < before, DailyAttempt.address.is_not(None))
                .values(address=None)
            )

    def flags(self, day: date) -> list[Flag]:
        """The day's flagged attempts, each with the ranked attempts played from its
        network (those of deleted identities included, as "deleted")."""
        with self.engine.connect() as conn:
            flagged = conn.execute(
                select(
                    DailyAttempt.id,
                    DailyAttempt.player_id,
                    DailyAttempt.finished,
                    DailyResult.total,
                    DisplayName.text,
                )
                .outerjoin(DailyResult, DailyResult.attempt_id == DailyAttempt.id)
                .outerjoin(DisplayName, DisplayName.player_id == DailyAttempt.player_id)
                .where(DailyAttempt.day == day, DailyAttempt.flagged.is_(True))
                .order_by(DailyAttempt.created_at, DailyAttempt.id)
            ).all()
            out = []
            for row in flagged:
                mine = select(DailyAddressPlay.address).where(
                    DailyAddressPlay.day == day, DailyAddressPlay.attempt_id == row.id
                )
                others = conn.execute(
                    select(DailyAddressPlay.attempt_id, DailyAttempt.player_id)
                    .outerjoin(DailyAttempt, DailyAttempt.id == DailyAddressPlay.attempt_id)
                    .where(
                        DailyAddressPlay.day == day,
                        DailyAddressPlay.address.in_(mine),
                        DailyAddressPlay.attempt_id != row.id,
                    )
                    .order_by(DailyAddressPlay.created_at)
                ).all()
                out.append(
                    Flag(
                        attempt_id=row.id,
                        player_id=row.player_id,
                        name=row.text,
                        finished=row.finished,
                        total=row.total,
                        same_network=tuple((o.attempt_id, o.player_id) for o in others),
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
        DailyStore(self.engine).refresh_board(day)
        return True
