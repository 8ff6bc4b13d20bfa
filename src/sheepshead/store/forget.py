"""Deleting a player: every room that keeps something about a player forgets it, in
the one transaction that deletes the player (``IdentityStore.delete_player``).

A room with rows that point at a player adds its step here; the identity store knows
none of them, so no room imports it back.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from sqlalchemy import Connection

from sheepshead.store.clubs import forget_player as forget_clubs
from sheepshead.store.identity import IdentityStore
from sheepshead.store.stats import forget_player as forget_stats

#: Run before the player's own rows go: memberships leave, a created club passes on;
#: the statistics, the history and the streak go.
STEPS: tuple[Callable[[Connection, str], None], ...] = (forget_clubs, forget_stats)


def delete_player(identities: IdentityStore, player_id: str) -> list[date]:
    """The player and everything kept about them; the days whose boards they left."""
    return identities.delete_player(player_id, also=STEPS)
