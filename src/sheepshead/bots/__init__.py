"""Computer players: each decides from its seat's view alone.

A bot is ``choose(view, rng) -> Action``: it reads only a ``SeatView`` (never a
``Game``, so it cannot see another seat's cards) and is stateless between calls.
``decide`` seeds the generator from the level, a table seed and the view's
canonical text, so the same view always gets the same answer, on any machine.

Levels, weakest first: ``beginner`` and ``standard`` (``rulebot.py``) and
``expert`` (``expert.py``, which searches sampled worlds with the standard bot as
its playout policy).

Versions: ``VERSION`` is the play of this code. A daily game keeps the version its day
started with, even when a deployment brings new play during the day, and a past day is
replayed from its archive with its own, so a server also runs every earlier version,
kept in ``FROZEN`` for good: a copy of this package as it was at that version, under
``sheepshead.bots.frozen``, made by ``tools/freeze_bots.py`` (``docs/bots.md`` has the
steps).
"""

from __future__ import annotations

import hashlib
from importlib import import_module
from types import ModuleType
from typing import Protocol

from sheepshead.actions import Action
from sheepshead.bots.rng import Rng
from sheepshead.view import SeatView

__all__ = [
    "FROZEN",
    "LEVELS",
    "SEAT_NAMES",
    "VERSION",
    "Bot",
    "Rng",
    "UnknownVersion",
    "decide",
    "make_bot",
    "seed_rng",
    "versions",
]

#: The levels a player can choose, weakest first.
LEVELS: tuple[str, ...] = ("beginner", "standard", "expert")
#: The computer players' names at a table, seat 1 onwards (seat 0 is the human's). The
#: display-name check refuses a name that puts one beside a computer word ("Ann Bot").
SEAT_NAMES: tuple[str, ...] = ("Ann", "Bob", "Cal", "Dot", "Eve")

#: The version of this code's play. A daily game is stored with the version it started
#: with and played with it to the day's end, so every player of a day meets the same
#: bots. Any change to what a bot decides under the daily game's rules (5-handed
#: ``standard``) must bump it: ``tests/test_bot_version.py`` pins each version's
#: decisions and fails until it is.
VERSION = "11"

#: The earlier versions this code still plays, each the module of a frozen copy of this
#: package. ``tools/freeze_bots.py`` writes the copy and rewrites this assignment in it
#: to an empty one; ``tests/test_bot_version.py`` fails if a pinned version is missing.
FROZEN: dict[str, str] = {
    "1": "sheepshead.bots.frozen.v1",
    "2": "sheepshead.bots.frozen.v2",
    "3": "sheepshead.bots.frozen.v3",
    "4": "sheepshead.bots.frozen.v4",
    "5": "sheepshead.bots.frozen.v5",
    "6": "sheepshead.bots.frozen.v6",
    "7": "sheepshead.bots.frozen.v7",
    "8": "sheepshead.bots.frozen.v8",
    "9": "sheepshead.bots.frozen.v9",
    "10": "sheepshead.bots.frozen.v10",
}


class UnknownVersion(ValueError):
    """A version of the bots' play that this code does not have."""


def versions() -> tuple[str, ...]:
    """Every version of the bots' play this code runs, oldest first."""
    return (*FROZEN, VERSION)


def _frozen(version: str) -> ModuleType:
    module = FROZEN.get(version)
    if module is None:
        raise UnknownVersion(
            f"no version {version!r} of the computer players here; versions: "
            f"{', '.join(versions())}"
        )
    return import_module(module)


class Bot(Protocol):
    #: The level's name, as on the command line.
    level: str

    def choose(self, view: SeatView, rng: Rng) -> Action:
        """One of ``view.legal``. Must depend only on the view and the generator."""
        ...


def make_bot(level: str, version: str | None = None) -> Bot:
    """A fresh bot of the named level and version (by default, this code's). Raises
    ValueError for an unknown level, UnknownVersion (a ValueError) for an unknown version."""
    if version is not None and version != VERSION:
        frozen: Bot = _frozen(version).make_bot(level)
        return frozen
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


def decide(level: str, view: SeatView, seed: int = 0, version: str | None = None) -> Action:
    """The action the level's bot takes in this view (it must be the seat's turn), with
    the play of the given version, by default this code's."""
    if version is not None and version != VERSION:
        action: Action = _frozen(version).decide(level, view, seed)
        return action
    if not view.legal:
        raise ValueError(f"seat {view.seat} has nothing to decide: it is not its turn")
    return _bot(level).choose(view, seed_rng(level, view, seed))
