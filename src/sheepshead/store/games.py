"""Queries: players, and games as seeds plus moves (the game itself is not known here).

Every write that changes a game checks its version in the UPDATE's WHERE clause, in
the same transaction as the rest of the write: of two requests that saw the same
version, the database lets exactly one through, whichever process served it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Row,
    and_,
    bindparam,
    exists,
    func,
    insert,
    select,
    update,
)

from sheepshead.store import rates
from sheepshead.store.models import GameRow, HandRow
from sheepshead.store.rates import Charge


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
    #: Once the hand is over: its score-sheet line and every seat's running score.
    sheet: dict[str, Any] | None = None
    scores: tuple[int, ...] | None = None


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


#: Built once: building a statement costs more CPU than running it.
_LOAD = (
    select(
        GameRow.rules,
        GameRow.level,
        GameRow.first_dealer,
        GameRow.bot_seed,
        GameRow.version,
        HandRow.number,
        HandRow.seed,
        HandRow.moves,
        HandRow.done,
        HandRow.sheet,
        HandRow.scores,
    )
    .join(HandRow, HandRow.game_id == GameRow.id)
    .where(GameRow.id == bindparam("game_id"), GameRow.player_id == bindparam("player_id"))
    .order_by(HandRow.number)
)


@dataclass(frozen=True, slots=True)
class Saved:
    """How a step's write went: ``written`` unless the game's version had moved on;
    ``wait`` (microseconds) when a rate limit refused it, and then nothing was written."""

    written: bool
    wait: int | None = None

    def __bool__(self) -> bool:
        return self.written


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # Reads of one statement need no transaction: no BEGIN and no ROLLBACK sent.
        self.reader = engine.execution_options(isolation_level="AUTOCOMMIT")

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
        """The game, if it exists and belongs to this player: one statement, the game's
        row beside each of its hands."""
        with self.reader.connect() as conn:
            rows = conn.execute(_LOAD, {"game_id": game_id, "player_id": player_id}).all()
        if not rows:
            return None
        first = rows[0]
        return StoredGame(
            id=game_id,
            player_id=player_id,
            rules=dict(first.rules),
            level=first.level,
            first_dealer=first.first_dealer,
            bot_seed=first.bot_seed,
            version=first.version,
            hands=tuple(_stored_hand(row) for row in rows),
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
        charges: Sequence[Charge] = (),
        now: int = 0,
        also: Callable[[Connection], None] | None = None,
    ) -> Saved:
        """Write a game's new version and hands, if it is still at ``expected_version``,
        and take the request from its rate buckets (``charges`` at ``now``, in
        microseconds): one transaction, so an action costs one commit.

        Nothing is written when another request changed the game first (``written``
        False; the buckets are still charged, as for any request) or when a bucket
        refuses (``wait``; then nothing at all, as ``RateStore.take``). ``also``: more
        to write in the same transaction once the step is written (the statistics of a
        hand that ended, ``store/stats.py``).
        """
        token = secrets.token_hex(16)
        step = _Step(game_id, player_id, expected_version, version, changed, added)
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                written, waits = _save_postgresql(conn, step, charges, now, token)
            else:
                written, waits = _save_each(conn, step, charges, now, token)
            if waits:
                conn.rollback()
                return Saved(False, max(waits))
            if written and also is not None:
                also(conn)
        return Saved(written)


@dataclass(frozen=True, slots=True)
class _Step:
    game_id: str
    player_id: str
    expected_version: int
    version: int
    changed: Sequence[StoredHand]
    added: Sequence[StoredHand]


def _bump(step: _Step) -> Any:
    return (
        update(GameRow)
        .where(
            GameRow.id == step.game_id,
            GameRow.player_id == step.player_id,
            GameRow.version == step.expected_version,
        )
        .values(version=step.version, updated_at=_now())
    )


def _hand_update(game_id: Any, hand: StoredHand) -> Any:
    return (
        update(HandRow)
        .where(HandRow.game_id == game_id, HandRow.number == hand.number)
        .values(
            moves=list(hand.moves),
            done=hand.done,
            sheet=hand.sheet,
            scores=None if hand.scores is None else list(hand.scores),
        )
    )


def _save_each(
    conn: Connection, step: _Step, charges: Sequence[Charge], now: int, token: str
) -> tuple[bool, list[int]]:
    """One statement after another (SQLite: in process, a statement costs no trip)."""
    waits = rates.take_in(conn, charges, now, token)
    if waits:
        return False, waits
    if conn.execute(_bump(step)).rowcount != 1:
        return False, []
    for hand in step.changed:
        conn.execute(_hand_update(step.game_id, hand))
    for hand in step.added:
        conn.execute(insert(HandRow).values(_hand_values(step.game_id, hand)))
    return True, []


def _save_postgresql(
    conn: Connection, step: _Step, charges: Sequence[Charge], now: int, token: str
) -> tuple[bool, list[int]]:
    """The version check, the hands and the rate buckets in one statement (data-modifying
    CTEs): with BEGIN and COMMIT, three round trips to the database. Written as SQL,
    once per shape: building it with SQLAlchemy's expressions cost more CPU than the
    database spends on it."""
    ordered = rates.in_key_order(charges)
    sql = _step_sql(len(step.changed), len(step.added), len(ordered))
    params: dict[str, Any] = {
        "game_id": step.game_id,
        "player_id": step.player_id,
        "expected": step.expected_version,
        "version": step.version,
        "updated_at": _now(),
        "now": now,
        "token": token,
    }
    for prefix, hands in (("c", step.changed), ("a", step.added)):
        for i, hand in enumerate(hands):
            values = _hand_values(step.game_id, hand)
            for name in _HAND_COLUMNS:
                value = values[name]
                if name in _JSON_COLUMNS and value is not None:
                    value = json.dumps(value, separators=(",", ":"))
                params[f"{prefix}{i}_{name}"] = value
    for i, charge in enumerate(ordered):
        params[f"b{i}_key"] = charge.key
        params[f"b{i}_interval"] = charge.interval
        params[f"b{i}_tolerance"] = charge.tolerance
    row = conn.exec_driver_sql(sql, params).one()
    waits = []
    for i, charge in enumerate(ordered):
        refused = rates.wait(charge, now, token, row[1 + 2 * i], row[2 + 2 * i])
        if refused is not None:
            waits.append(refused)
    return row[0] == 1, waits


_HAND_COLUMNS = ("number", "seed", "seed_sha256", "moves", "done", "sheet", "scores")
_JSON_COLUMNS = frozenset({"moves", "sheet", "scores"})


@functools.cache
def _step_sql(changed: int, added: int, buckets: int) -> str:
    """The statement of ``_save_postgresql`` for so many changed and added hands and
    rate buckets (psycopg's ``%(name)s`` parameters)."""

    def value(prefix: str, name: str) -> str:
        return f"%({prefix}_{name})s" + ("::json" if name in _JSON_COLUMNS else "")

    parts = [
        "bumped AS (UPDATE games SET version = %(version)s, updated_at = %(updated_at)s"
        " WHERE id = %(game_id)s AND player_id = %(player_id)s AND version = %(expected)s"
        " RETURNING id)"
    ]
    for i in range(changed):
        sets = ", ".join(f"{n} = {value(f'c{i}', n)}" for n in ("moves", "done", "sheet", "scores"))
        parts.append(
            f"changed_{i} AS (UPDATE hands SET {sets} FROM bumped"
            f" WHERE hands.game_id = bumped.id AND hands.number = %(c{i}_number)s"
            " RETURNING hands.number)"
        )
    for i in range(added):
        columns = ", ".join(_HAND_COLUMNS)
        values = ", ".join(value(f"a{i}", n) for n in _HAND_COLUMNS)
        parts.append(
            f"added_{i} AS (INSERT INTO hands (game_id, {columns})"
            f" SELECT bumped.id, {values} FROM bumped RETURNING number)"
        )
    outputs = ["(SELECT count(*) FROM bumped)"]
    for i in range(buckets):
        through = f"bucket.tat - %(now)s <= %(b{i}_tolerance)s"
        parts.append(
            f"bucket_{i} AS (INSERT INTO rate_buckets AS bucket (key, tat, token)"
            f" VALUES (%(b{i}_key)s, %(now)s + %(b{i}_interval)s, %(token)s)"
            " ON CONFLICT (key) DO UPDATE SET"
            f" tat = CASE WHEN {through}"
            f" THEN GREATEST(bucket.tat, %(now)s) + %(b{i}_interval)s ELSE bucket.tat END,"
            f" token = CASE WHEN {through} THEN %(token)s ELSE bucket.token END"
            " RETURNING tat, token)"
        )
        outputs += [f"(SELECT tat FROM bucket_{i})", f"(SELECT token FROM bucket_{i})"]
    return f"WITH {', '.join(parts)} SELECT {', '.join(outputs)}"


def _stored_hand(row: Row[Any]) -> StoredHand:
    return StoredHand(
        row.number,
        bytes(row.seed),
        tuple(row.moves),
        row.done,
        None if row.sheet is None else dict(row.sheet),
        None if row.scores is None else tuple(row.scores),
    )


def _hand_values(game_id: str, hand: StoredHand) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "number": hand.number,
        "seed": hand.seed,
        "seed_sha256": hashlib.sha256(hand.seed).hexdigest(),
        "moves": list(hand.moves),
        "done": hand.done,
        "sheet": hand.sheet,
        "scores": None if hand.scores is None else list(hand.scores),
    }


def games_in_progress(conn: Connection, since: datetime) -> int:
    """Games whose current hand is not over, played since ``since`` (a gauge)."""
    unfinished = exists().where(HandRow.game_id == GameRow.id, HandRow.done.is_(False))
    games = select(func.count()).where(and_(GameRow.updated_at >= since, unfinished))
    return int(conn.execute(games).scalar_one())
