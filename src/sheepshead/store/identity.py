"""Players and what identifies them: a player's creation, display name, recovery
code (its keyed hash), and the deletion of a player with everything kept about them.
Tables ``players`` (``models.py``), ``display_names`` and ``recovery_codes``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime

from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    String,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from sheepshead.store.daily_models import DailyAttempt, DailyResult
from sheepshead.store.games import new_id
from sheepshead.store.models import Base, Player


def _now() -> datetime:
    return datetime.now(UTC)


class DisplayName(Base):
    """A player's name on the board. Both keys are unique: see ``sheepshead.names``."""

    __tablename__ = "display_names"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    text: Mapped[str] = mapped_column(String(64))
    key: Mapped[str] = mapped_column(String(128), unique=True)
    look: Mapped[str] = mapped_column(String(256), unique=True)
    #: Hidden by a moderator: shown as the label of a player without a name
    #: (``names.player_label``), and the name stays taken.
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RecoveryCode(Base):
    """The keyed hash of a player's recovery code (never the code itself)."""

    __tablename__ = "recovery_codes"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def shown_name(text_: str | None, hidden: bool | None) -> str | None:
    """The display name the board may show, or None (no name, or hidden): the server
    then shows the player's label, a keyed hash that says nothing of the id."""
    if text_ is None or hidden:
        return None
    return text_


#: Between a look key and the player's id in the keys of a name that a change of the
#: rules made a look-alike of an older one (``rekey_names``): never in a name.
KEY_SEPARATOR = "\n"


class NameTaken(ValueError):
    """The name, or a look-alike of it, belongs to another player."""


class IdentityStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # Players --------------------------------------------------------------

    def new_player(self) -> str:
        player_id = new_id()
        with self.engine.begin() as conn:
            conn.execute(insert(Player).values(id=player_id, created_at=_now()))
        return player_id

    def has_player(self, player_id: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(select(Player.id).where(Player.id == player_id)).first()
        return found is not None

    # Names and recovery codes -----------------------------------------------------------

    def name_of(self, player_id: str) -> tuple[str, bool] | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(DisplayName.text, DisplayName.hidden).where(
                    DisplayName.player_id == player_id
                )
            ).first()
        return None if row is None else (row.text, row.hidden)

    def set_name(self, player_id: str, text_: str, key: str, look: str) -> None:
        """Give the player this name. Raises NameTaken if another player's name has the
        same key or look-alike key (a hidden name stays taken)."""
        with self.engine.begin() as conn:
            clash = conn.execute(
                select(DisplayName.player_id).where(
                    (DisplayName.key == key) | (DisplayName.look == look),
                    DisplayName.player_id != player_id,
                )
            ).first()
            if clash is not None:
                raise NameTaken(text_)
            conn.execute(delete(DisplayName).where(DisplayName.player_id == player_id))
            try:
                conn.execute(
                    insert(DisplayName).values(
                        player_id=player_id,
                        text=text_,
                        key=key,
                        look=look,
                        hidden=False,
                        created_at=_now(),
                    )
                )
            except IntegrityError:
                raise NameTaken(text_) from None

    def hide_name(self, key: str, looks: Sequence[str] = (), hidden: bool = True) -> int:
        """Hide (or show again) every name with this case-folded key or one of these
        look keys; returns how many names match. Hiding also finds the names re-keyed
        as look-alikes of this one (``name_keys``); showing again leaves them hidden."""
        alikes = [
            DisplayName.look.startswith(look + KEY_SEPARATOR, autoescape=True)
            for look in (looks if hidden else ())
        ]
        match = or_(DisplayName.key == key, DisplayName.look.in_(list(looks)), *alikes)
        with self.engine.begin() as conn:
            done = conn.execute(update(DisplayName).where(match).values(hidden=hidden))
        return int(done.rowcount)

    def set_recovery_code(self, player_id: str, code_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(RecoveryCode).where(RecoveryCode.player_id == player_id))
            conn.execute(
                insert(RecoveryCode).values(
                    player_id=player_id, code_hash=code_hash, created_at=_now()
                )
            )

    def has_recovery_code(self, player_id: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(RecoveryCode.player_id).where(RecoveryCode.player_id == player_id)
            ).first()
        return found is not None

    def player_of_code(self, code_hash: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(
                select(RecoveryCode.player_id).where(RecoveryCode.code_hash == code_hash)
            ).scalar()

    def delete_player(
        self, player_id: str, *, also: Sequence[Callable[[Connection, str], None]]
    ) -> list[date]:
        """The player and everything kept about them: games, attempts, results, name,
        code. Returns the days whose boards they left (to be refreshed)."""
        with self.engine.begin() as conn:
            days = list(
                conn.execute(
                    select(DailyResult.day).where(DailyResult.player_id == player_id)
                ).scalars()
            )
            # What the other rooms keep about the player (``store/forget.py``), first:
            # their rows point at the player's.
            for forget in also:
                forget(conn, player_id)
            # Explicit, not only ON DELETE CASCADE: SQLite enforces it only with the pragma.
            for table in (DailyResult, DailyAttempt, DisplayName, RecoveryCode):
                conn.execute(delete(table).where(table.player_id == player_id))
            conn.execute(delete(Player).where(Player.id == player_id))
        return days
