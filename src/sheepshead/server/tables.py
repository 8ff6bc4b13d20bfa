"""Live tables kept in the store: load (replay), act, save with the version check.

The database is the truth: a step's write goes through only if the game's version is
still the one the step started from (``Store.save``). So any worker can serve any
game, and of two copies of one action exactly one applies.

Two things are kept per process, to save work, and neither can make an answer wrong:

- ``Live``: each game's table as this process last saw it committed, with its score
  sheet. An action whose version is that table's starts from it without reading the
  database; the write's version check still decides. Versions only grow, one per
  change, and only committed tables are kept, so a version names one table.
- ``Settled``: the match as a game's finished hands left it (finished hands never
  change), so a table this process has not seen at its latest version replays only
  the hands after them. An entry is used only if the stored seeds and moves of those
  hands are the ones it was built from.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sheepshead.match import Match, sheet_line
from sheepshead.rules import Rules
from sheepshead.server.me_record import free_hand_ended
from sheepshead.server.observability import bots_thinking
from sheepshead.store import Store, StoredGame, StoredHand
from sheepshead.store.rates import Charge
from sheepshead.table import Table, TableConflict, Turn

#: Bytes in a hand's seed: as many as SHA-256 gives, so no seed can be guessed.
SEED_BYTES = 32


class GameNotFound(LookupError):
    """No such game for this player (whether or not another player has one)."""


class GameConflict(Exception):
    """The game is not where the request thought it was; carries the game as it is."""

    def __init__(
        self,
        reason: str,
        game_id: str,
        table: Table,
        code: str,
        params: dict[str, Any] | None = None,
        sheet: Sequence[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.game_id = game_id
        self.table = table
        self.code = code
        self.params = params or {}
        self.sheet = sheet


class RateRefused(Exception):
    """A rate limit refused the step; nothing was written. ``wait`` in microseconds."""

    def __init__(self, wait: int) -> None:
        super().__init__("rate limited")
        self.wait = wait


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def state_json(
    game_id: str, table: Table, sheet: Sequence[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The API's TableState; ``sheet``, the stored score sheet, if the caller has it."""
    return {"id": game_id, **table.state(sheet=sheet)}


def step_json(
    game_id: str, turn: Turn, sheet: Sequence[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {"state": state_json(game_id, turn.table, sheet), "events": turn.events_json()}


def _stored_hands(table: Table, numbers: Sequence[int]) -> list[StoredHand]:
    """The hands to write; a hand that has just ended gets its score-sheet line and the
    running scores (every finished hand before it was written when it ended)."""
    last = table.hand_number
    hands = []
    for n in numbers:
        seed, moves = table.hand(n)
        done = n < last or table.hand_over
        game = table.finished(n) if done and n == len(table.match.hands) else None
        if game is None:
            hands.append(StoredHand(n, seed, tuple(moves), done))
        else:
            line = sheet_line(n, game, seed)
            hands.append(StoredHand(n, seed, tuple(moves), done, line, table.match.scores))
    return hands


@dataclass(frozen=True, slots=True)
class Live:
    """A game as this process last saw it committed: its table and score sheet."""

    player_id: str
    table: Table
    sheet: tuple[dict[str, Any], ...]


class LiveTables:
    """Per game, its ``Live`` table (least recently used dropped)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._entries: OrderedDict[str, Live] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, player_id: str, version: int) -> Live | None:
        with self._lock:
            live = self._entries.get(game_id)
            if live is None or live.player_id != player_id or live.table.version != version:
                return None
            self._entries.move_to_end(game_id)
            return live

    def put(self, game_id: str, live: Live) -> None:
        with self._lock:
            known = self._entries.get(game_id)
            if known is not None and known.table.version > live.table.version:
                return  # a later step of this process got there first
            self._entries[game_id] = live
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def peek(self, game_id: str) -> Live | None:
        with self._lock:
            return self._entries.get(game_id)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._entries.pop(game_id, None)


def _fingerprint(hands: Sequence[StoredHand]) -> bytes:
    return _digest((hand.seed, hand.moves) for hand in hands)


def _fingerprint_of(table: Table) -> bytes:
    return _digest(table.hands())


def _digest(hands: Iterable[tuple[bytes, Sequence[str]]]) -> bytes:
    digest = hashlib.sha256()
    for seed, moves in hands:
        digest.update(seed)
        digest.update("\n".join(moves).encode() + b"\0")
    return digest.digest()


class Settled:
    """Per game, the match as its finished hands left it (least recently used dropped)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._entries: OrderedDict[str, tuple[bytes, Match]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, stored: StoredGame) -> Match | None:
        with self._lock:
            entry = self._entries.get(stored.id)
            if entry is not None:
                self._entries.move_to_end(stored.id)
        if entry is None:
            return None
        fingerprint, match = entry
        count = len(match.hands)
        if count > len(stored.hands) or _fingerprint(stored.hands[:count]) != fingerprint:
            return None
        return match

    def put(self, stored: StoredGame, match: Match) -> None:
        count = len(match.hands)
        if count == 0:
            return
        fingerprint = _fingerprint(stored.hands[:count])
        with self._lock:
            self._entries[stored.id] = (fingerprint, match)
            self._entries.move_to_end(stored.id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)


class Tables:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.settled = Settled()
        self.live = LiveTables()

    def restore(self, stored: StoredGame) -> Table:
        rules = Rules.from_record(stored.rules)
        start = self.settled.get(stored)
        table = Table.restore(
            rules,
            stored.level,
            stored.bot_seed,
            stored.first_dealer,
            [(h.seed, h.moves) for h in stored.hands],
            settled=start,
        )
        settled = table.settled()
        if start is None or len(settled.hands) > len(start.hands):
            self.settled.put(stored, settled)
        return table

    def _live(self, stored: StoredGame) -> Live:
        """The stored game as a live table: this process's own if it is at the stored
        version, else restored (and kept)."""
        known = self.live.get(stored.id, stored.player_id, stored.version)
        if known is not None and _fingerprint_of(known.table) == _fingerprint(stored.hands):
            # Read anyway (a page, a conflict): the stored hands are checked, so that
            # a game changed behind the app's back is not answered from memory.
            return known
        table = self.restore(stored)
        stored_lines = [h.sheet for h in stored.hands if h.done]
        lines = [line for line in stored_lines if line is not None]
        if len(lines) != len(table.match.hands) or len(lines) != len(stored_lines):
            # Hands written before their lines were kept (a process of an older version).
            lines = table.score_sheet()
        live = Live(stored.player_id, table, tuple(lines))
        self.live.put(stored.id, live)
        return live

    def sheet(self, game_id: str, table: Table) -> tuple[dict[str, Any], ...] | None:
        """The stored score sheet of ``table``, if this process keeps it."""
        live = self.live.peek(game_id)
        return live.sheet if live is not None and live.table is table else None

    def create(self, player_id: str, rules: Rules, level: str) -> tuple[str, Turn]:
        """Start a game; raises ValueError for a level that cannot be played."""
        turn = Table.start(rules, level, secrets.randbits(63), new_seed())
        table = turn.table
        game_id = self.store.create_game(
            player_id,
            rules.to_record(),
            level,
            table.match.first_dealer,
            table.bot_seed,
            table.version,
            _stored_hands(table, [1]),
        )
        self.live.put(game_id, Live(player_id, table, ()))
        return game_id, turn

    def load(self, game_id: str, player_id: str) -> Table:
        return self._load(game_id, player_id).table

    def _load(self, game_id: str, player_id: str) -> Live:
        stored = self.store.load_game(game_id, player_id)
        if stored is None:
            raise GameNotFound(game_id)
        return self._live(stored)

    def latest(self, player_id: str) -> tuple[str, Table]:
        game_id = self.store.latest_game_id(player_id)
        if game_id is None:
            raise GameNotFound(player_id)
        return game_id, self.load(game_id, player_id)

    def _start(self, game_id: str, player_id: str, version: int) -> Live:
        """Where a step starts: this process's table if it is at the version the player
        saw (no read: the write checks it), else the stored game."""
        known = self.live.get(game_id, player_id, version)
        return known if known is not None else self._load(game_id, player_id)

    def act(
        self,
        game_id: str,
        player_id: str,
        action: str,
        version: int,
        charges: Sequence[Charge] = (),
        now: int = 0,
    ) -> Turn:
        """The human's action and the bots' replies, saved, and the request taken from
        its rate ``charges`` in the same transaction. Raises GameNotFound, GameConflict,
        RateRefused, and the table's BadAction or IllegalAction (nothing saved)."""
        live = self._start(game_id, player_id, version)
        table = live.table
        try:
            with bots_thinking(table.level):
                turn = table.act(action, version)
        except TableConflict as exc:
            raise GameConflict(
                exc.reason, game_id, table, exc.code, exc.params, live.sheet
            ) from None
        self._save(game_id, player_id, live, turn, charges, now, changed=[table.hand_number])
        return turn

    def next_hand(
        self,
        game_id: str,
        player_id: str,
        version: int,
        charges: Sequence[Charge] = (),
        now: int = 0,
    ) -> Turn:
        live = self._start(game_id, player_id, version)
        table = live.table
        try:
            with bots_thinking(table.level):
                turn = table.next_hand(new_seed(), version)
        except TableConflict as exc:
            raise GameConflict(
                exc.reason, game_id, table, exc.code, exc.params, live.sheet
            ) from None
        self._save(game_id, player_id, live, turn, charges, now, added=[turn.table.hand_number])
        return turn

    def _save(
        self,
        game_id: str,
        player_id: str,
        before: Live,
        turn: Turn,
        charges: Sequence[Charge],
        now: int,
        changed: Sequence[int] = (),
        added: Sequence[int] = (),
    ) -> None:
        after = turn.table
        changed_hands = _stored_hands(after, changed)
        added_hands = _stored_hands(after, added)
        hand_ended = after.hand_over and not before.table.hand_over
        saved = self.store.save(
            game_id,
            player_id,
            before.table.version,
            after.version,
            changed=changed_hands,
            added=added_hands,
            charges=charges,
            now=now,
            # A hand that ended goes into the player's statistics in the same transaction.
            also=free_hand_ended(player_id, game_id, after) if hand_ended else None,
        )
        if saved.wait is not None:
            raise RateRefused(saved.wait)
        if not saved.written:
            # Another request (a second tab, a double tap, another worker) got there first.
            self.live.drop(game_id)
            live = self._load(game_id, player_id)
            raise GameConflict(
                "this game changed while your action was on its way",
                game_id,
                live.table,
                "changed-on-the-way",
                sheet=live.sheet,
            )
        ended = [h.sheet for h in (*changed_hands, *added_hands) if h.sheet is not None]
        sheet = before.sheet + tuple(ended)
        self.live.put(game_id, Live(player_id, after, sheet))
