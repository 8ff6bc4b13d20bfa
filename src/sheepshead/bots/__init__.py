"""Computer players: each decides from its seat's view alone.

A bot is ``choose(view, rng) -> Action``: it reads only a ``SeatView`` (never a
``Game``, so it cannot see another seat's cards) and is stateless between calls.
``decide`` seeds the generator from the level, a table seed and the view's
canonical text, so the same view always gets the same answer, on any machine.

Levels, weakest first: ``beginner`` and ``standard`` (``rulebot.py``) and
``expert`` (``expert.py``, which searches sampled worlds with the standard bot as
its playout policy).
"""

from __future__ import annotations

import hashlib
from importlib import import_module
from typing import Protocol

from sheepshead.actions import Action
from sheepshead.bots.rng import Rng
from sheepshead.view import SeatView

__all__ = ["LEVELS", "VERSION", "Bot", "Rng", "decide", "make_bot", "seed_rng"]

#: The levels a player can choose, weakest first.
LEVELS: tuple[str, ...] = ("beginner", "standard", "expert")

#: The version of the bots' play. A daily game is stored with the version it started
#: with, and a server running another version refuses to go on with that day, so every
#: player of a day meets the same bots. Any change to what a bot decides must bump it:
#: ``tests/test_bot_version.py`` pins each version's decisions and fails until it is.
VERSION = "1"


class Bot(Protocol):
    #: The level's name, as on the command line.
    level: str

    def choose(self, view: SeatView, rng: Rng) -> Action:
        """One of ``view.legal``. Must depend only on the view and the generator."""
        ...


def make_bot(level: str) -> Bot:
    """A fresh bot of the named level. Raises ValueError for an unknown level."""
    if level in ("beginner", "standard"):
        from sheepshead.bots.rulebot import RuleBot

        return RuleBot(level)
    if level == "expert":
        # Imported by name: the expert lives in its own module and may not be built yet.
        module = import_module("sheepshead.bots.expert")
        bot: Bot = module.ExpertBot()
        return bot
    raise ValueError(f"no bot level {level!r}; levels: {', '.join(LEVELS)}")


_BOTS: dict[str, Bot] = {}


def _bot(level: str) -> Bot:
    bot = _BOTS.get(level)
    if bot is None:
        bot = _BOTS[level] = make_bot(level)
    return bot


def seed_rng(level: str, view: SeatView, seed: int = 0) -> Rng:
    """The generator for one decision: SHA-256 of the level, the seed and everything
    the seat knows (never the deal's seed, which would leak the hidden cards)."""
    text = f"{level}\x00{seed}\x00{view.canonical_text()}".encode()
    return Rng.from_bytes(hashlib.sha256(text).digest())


def decide(level: str, view: SeatView, seed: int = 0) -> Action:
    """The action the level's bot takes in this view (it must be the seat's turn)."""
    if not view.legal:
        raise ValueError(f"seat {view.seat} has nothing to decide: it is not its turn")
    return _bot(level).choose(view, seed_rng(level, view, seed))
