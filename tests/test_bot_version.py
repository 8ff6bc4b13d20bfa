"""The bots' version moves with their play, so a daily game can keep the bots it began with.

A daily game stores ``bots.VERSION`` when its day starts, and a server whose bots have
another version refuses to go on with that day. That only protects the players if any
change to what a bot decides also changes the version: this test pins each version's
decisions over a fixed set of hands, and fails when they change under the same version.
"""

from __future__ import annotations

import hashlib

import pytest

from sheepshead import bots
from sheepshead.game import Game
from sheepshead.rules import PRESETS

#: What each level decides over the pinned hands, per version. When a bot change makes
#: this test fail, bump ``bots.VERSION`` and add the new line; never edit an old one.
PINNED: dict[str, dict[str, str]] = {
    "1": {
        "beginner": "03f124ff70660a72",
        "standard": "8f929ad3310d84fc",
        "expert": "d8779181ff2969ee",
    },
}


def fingerprint(level: str) -> str:
    """Every decision of four seats of ``level`` and itself over twelve seeded hands."""
    digest = hashlib.sha256()
    for i in range(12):
        game = Game.deal(PRESETS["standard"], i % 5, f"bot-version-{i}".encode())
        while not game.is_done:
            seat = game.turn
            assert seat is not None
            action = bots.decide(level, game.view(seat), seed=i)
            digest.update(f"{seat} {action};".encode())
            game = game.apply(action)
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("level", bots.LEVELS)
def test_a_change_of_play_comes_with_a_new_version(level: str) -> None:
    assert bots.VERSION in PINNED, f"add the decisions of version {bots.VERSION} to PINNED"
    assert fingerprint(level) == PINNED[bots.VERSION][level], (
        f"the {level} bot now decides differently: bump bots.VERSION and pin the new play"
    )
