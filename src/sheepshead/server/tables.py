"""Live tables kept in the store: load (replay), act, save with the version check.

Nothing about a game stays in process memory between requests: each request
replays the game from the database, and its write goes through only if the
game's version is still the one it loaded (``Store.save``). So any worker can
serve any game, and of two copies of one action exactly one applies.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from sheepshead.rules import Rules
from sheepshead.store import Store, StoredGame, StoredHand
from sheepshead.table import Table, TableConflict, Turn

#: Bytes in a hand's seed: as many as SHA-256 gives, so no seed can be guessed.
SEED_BYTES = 32


class GameNotFound(LookupError):
    """No such game for this player (whether or not another player has one)."""


class GameConflict(Exception):
    """The game is not where the request thought it was; carries the game as it is."""

    def __init__(self, reason: str, game_id: str, table: Table) -> None:
        super().__init__(reason)
        self.reason = reason
        self.game_id = game_id
        self.table = table


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def state_json(game_id: str, table: Table) -> dict[str, Any]:
    return {"id": game_id, **table.state()}


def step_json(game_id: str, turn: Turn) -> dict[str, Any]:
    return {"state": state_json(game_id, turn.table), "events": turn.events_json()}


def _stored_hands(table: Table, numbers: Sequence[int]) -> list[StoredHand]:
    hands = table.hands()
    last = len(hands)
    return [
        StoredHand(n, hands[n - 1][0], tuple(hands[n - 1][1]), n < last or table.hand_over)
        for n in numbers
    ]


class Tables:
    def __init__(self, store: Store) -> None:
        self.store = store

    def restore(self, stored: StoredGame) -> Table:
        rules = Rules.from_record(stored.rules)
        return Table.restore(
            rules,
            stored.level,
            stored.bot_seed,
            stored.first_dealer,
            [(h.seed, h.moves) for h in stored.hands],
        )

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
            turn = table.act(action, version)
        except TableConflict as exc:
            raise GameConflict(exc.reason, game_id, table) from None
        self._save(game_id, player_id, table, turn, changed=[table.hand_number])
        return turn

    def next_hand(self, game_id: str, player_id: str, version: int) -> Turn:
        table = self.load(game_id, player_id)
        try:
            turn = table.next_hand(new_seed(), version)
        except TableConflict as exc:
            raise GameConflict(exc.reason, game_id, table) from None
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
            )
