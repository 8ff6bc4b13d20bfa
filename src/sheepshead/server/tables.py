"""Live tables kept in the store: load (replay), act, save with the version check.

Nothing about a game that matters stays in process memory between requests: each
request loads the game from the database, and its write goes through only if the
game's version is still the one it loaded (``Store.save``). So any worker can
serve any game, and of two copies of one action exactly one applies.

One thing is kept, to save time: finished hands never change, so each process
remembers, per game, the match as its finished hands left it (``Settled``) and
replays only the hands after them. An entry is used only if the stored seeds and
moves of those hands are the ones it was built from.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from sheepshead.match import Match
from sheepshead.rules import Rules
from sheepshead.server.me_record import free_hand_ended
from sheepshead.server.observability import bots_thinking
from sheepshead.store import Store, StoredGame, StoredHand
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
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.game_id = game_id
        self.table = table
        self.code = code
        self.params = params or {}


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def state_json(game_id: str, table: Table) -> dict[str, Any]:
    return {"id": game_id, **table.state()}


def step_json(game_id: str, turn: Turn) -> dict[str, Any]:
    return {"state": state_json(game_id, turn.table), "events": turn.events_json()}


def _stored_hands(table: Table, numbers: Sequence[int]) -> list[StoredHand]:
    last = table.hand_number
    hands = []
    for n in numbers:
        seed, moves = table.hand(n)
        hands.append(StoredHand(n, seed, tuple(moves), n < last or table.hand_over))
    return hands


def _fingerprint(hands: Sequence[StoredHand]) -> bytes:
    digest = hashlib.sha256()
    for hand in hands:
        digest.update(hand.seed)
        digest.update("\n".join(hand.moves).encode() + b"\0")
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
        return game_id, turn

    def load(self, game_id: str, player_id: str) -> Table:
        stored = self.store.load_game(game_id, player_id)
        if stored is None:
            raise GameNotFound(game_id)
        return self.restore(stored)

    def latest(self, player_id: str) -> tuple[str, Table]:
        game_id = self.store.latest_game_id(player_id)
        if game_id is None:
            raise GameNotFound(player_id)
        return game_id, self.load(game_id, player_id)

    def act(self, game_id: str, player_id: str, action: str, version: int) -> Turn:
        """The human's action and the bots' replies, saved. Raises GameNotFound,
        GameConflict, and the table's BadAction or IllegalAction (nothing saved)."""
        table = self.load(game_id, player_id)
        try:
            with bots_thinking(table.level):
                turn = table.act(action, version)
        except TableConflict as exc:
            raise GameConflict(exc.reason, game_id, table, exc.code, exc.params) from None
        self._save(game_id, player_id, table, turn, changed=[table.hand_number])
        return turn

    def next_hand(self, game_id: str, player_id: str, version: int) -> Turn:
        table = self.load(game_id, player_id)
        try:
            with bots_thinking(table.level):
                turn = table.next_hand(new_seed(), version)
        except TableConflict as exc:
            raise GameConflict(exc.reason, game_id, table, exc.code, exc.params) from None
        self._save(game_id, player_id, table, turn, added=[turn.table.hand_number])
        return turn

    def _save(
        self,
        game_id: str,
        player_id: str,
        before: Table,
        turn: Turn,
        changed: Sequence[int] = (),
        added: Sequence[int] = (),
    ) -> None:
        after = turn.table
        saved = self.store.save(
            game_id,
            player_id,
            before.version,
            after.version,
            changed=_stored_hands(after, changed),
            added=_stored_hands(after, added),
        )
        if not saved:
            # Another request (a second tab, a double tap) got there first.
            raise GameConflict(
                "this game changed while your action was on its way",
                game_id,
                self.load(game_id, player_id),
                "changed-on-the-way",
            )
        if after.hand_over and not before.hand_over:
            free_hand_ended(self.store.engine, player_id, game_id, after)
