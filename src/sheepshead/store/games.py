"""Queries: players, and games as seeds plus moves (the game itself is not known here).

Every write that changes a game checks its version in the UPDATE's WHERE clause, in
the same transaction as the rest of the write: of two requests that saw the same
version, the database lets exactly one through, whichever process served it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, and_, exists, func, insert, select, update

from sheepshead.store.models import GameRow, HandRow


def new_id() -> str:
    """A random id: 128 bits, lowercase hex."""
    return secrets.token_hex(16)


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class StoredHand:
    number: int
    seed: bytes
    moves: tuple[str, ...]
    done: bool


@dataclass(frozen=True, slots=True)
class StoredGame:
    id: str
    player_id: str
    rules: dict[str, Any]
    level: str
    first_dealer: int
    bot_seed: int
    version: int
    hands: tuple[StoredHand, ...]


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # Games ----------------------------------------------------------------

    def create_game(
        self,
        player_id: str,
        rules: dict[str, Any],
        level: str,
        first_dealer: int,
        bot_seed: int,
        version: int,
        hands: Sequence[StoredHand],
    ) -> str:
        game_id = new_id()
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(
                insert(GameRow).values(
                    id=game_id,
                    player_id=player_id,
                    rules=rules,
                    level=level,
                    first_dealer=first_dealer,
                    bot_seed=bot_seed,
                    version=version,
                    created_at=now,
                    updated_at=now,
                )
            )
            for hand in hands:
                conn.execute(insert(HandRow).values(_hand_values(game_id, hand)))
        return game_id

    def load_game(self, game_id: str, player_id: str) -> StoredGame | None:
        """The game, if it exists and belongs to this player."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(GameRow).where(GameRow.id == game_id, GameRow.player_id == player_id)
            ).first()
            if row is None:
                return None
            hands = conn.execute(
                select(HandRow.number, HandRow.seed, HandRow.moves, HandRow.done)
                .where(HandRow.game_id == game_id)
                .order_by(HandRow.number)
            ).all()
        return StoredGame(
            id=row.id,
            player_id=row.player_id,
            rules=dict(row.rules),
            level=row.level,
            first_dealer=row.first_dealer,
            bot_seed=row.bot_seed,
            version=row.version,
            hands=tuple(StoredHand(h.number, bytes(h.seed), tuple(h.moves), h.done) for h in hands),
        )

    def latest_game_id(self, player_id: str) -> str | None:
        """The player's most recently started game."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(GameRow.id)
                .where(GameRow.player_id == player_id)
                .order_by(GameRow.created_at.desc(), GameRow.id.desc())
                .limit(1)
            ).scalar()

    def save(
        self,
        game_id: str,
        player_id: str,
        expected_version: int,
        version: int,
        changed: Sequence[StoredHand] = (),
        added: Sequence[StoredHand] = (),
    ) -> bool:
        """Write a game's new version and hands, if it is still at ``expected_version``.

        Returns False, writing nothing, when another request changed it first.
        """
        with self.engine.begin() as conn:
            # The version check comes first: it takes the row's write lock, so a
            # concurrent writer waits here and then finds the version moved on.
            bumped = conn.execute(
                update(GameRow)
                .where(
                    GameRow.id == game_id,
                    GameRow.player_id == player_id,
                    GameRow.version == expected_version,
                )
                .values(version=version, updated_at=_now())
            )
            if bumped.rowcount != 1:
                conn.rollback()
                return False
            for hand in changed:
                conn.execute(
                    update(HandRow)
                    .where(HandRow.game_id == game_id, HandRow.number == hand.number)
                    .values(moves=list(hand.moves), done=hand.done)
                )
            for hand in added:
                conn.execute(insert(HandRow).values(_hand_values(game_id, hand)))
        return True


def _hand_values(game_id: str, hand: StoredHand) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "number": hand.number,
        "seed": hand.seed,
        "seed_sha256": hashlib.sha256(hand.seed).hexdigest(),
        "moves": list(hand.moves),
        "done": hand.done,
    }


def games_in_progress(conn: Connection, since: datetime) -> int:
    """Games whose current hand is not over, played since ``since`` (a gauge)."""
    unfinished = exists().where(HandRow.game_id == GameRow.id, HandRow.done.is_(False))
    games = select(func.count()).where(and_(GameRow.updated_at >= since, unfinished))
    return int(conn.execute(games).scalar_one())
