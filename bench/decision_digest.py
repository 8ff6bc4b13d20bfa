"""A SHA-256 digest of every decision of the computer players, per preset: a speed-up
of the search must leave each one unchanged.

    .venv/bin/python bench/decision_digest.py [--hands 6] [--levels expert,standard]

Plays ``--hands`` hands (deal set ``decision-digest``, the dealer rotating) of every
preset and of ``second-partner`` (six-handed with a second partner, the named-trick
leaster blind and cracking), with the level in every seat, each decision asked of
``bots.decide`` as a table asks it. The digest of a level and preset hashes every
action taken and, for the expert, the outcome of every playout the big decisions'
search (``bigsearch.py``) plays, the scores and card points of each seat and the tricks
each took, and each card search's weighted sum of every candidate's playouts
(``worlds.world_values``, which runs compiled). So an evaluation that moves without
moving the chosen card moves the digest too. Equal digests before and after a change
are the check; the last line digests all of them.
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Callable
from typing import Any

from sheepshead import bots
from sheepshead.actions import Action
from sheepshead.bots import bigsearch, expert
from sheepshead.bots.arena import deal_seed, play_hand
from sheepshead.bots.sim import SimHand
from sheepshead.game import Game
from sheepshead.rules import PRESETS, LeasterBlind, Rules

RULES: dict[str, Rules] = {
    **PRESETS,
    "second-partner": Rules(
        players=6, second_partner=True, leaster_blind=LeasterBlind.NAMED_TRICK, cracking=True
    ),
}


def _hashing_playout(digest: Any, playout: Callable[[SimHand], None]) -> Callable[[SimHand], None]:
    """``playout``, then the hand's outcome into ``digest``."""

    def run(sim: SimHand) -> None:
        playout(sim)
        outcome = (sim.scores(), [sim.own_points(s) for s in range(sim.n)], sim.won_tricks)
        digest.update(repr(outcome).encode())

    return run


def _hashing_values(digest: Any, values: Callable[..., Any]) -> Callable[..., Any]:
    """``worlds.world_values``, then each candidate's weighted sum and the weights' into
    ``digest``: one playout's outcome apart moves a sum."""

    def run(*args: Any) -> Any:
        result = values(*args)
        digest.update(repr(result).encode())
        return result

    return run


def digest_of(level: str, name: str, hands: int) -> str:
    digest = hashlib.sha256()
    rules = RULES[name]
    # The big decisions' search calls ``playout`` by the name it imports, and the card
    # search ``world_values``: wrap them there. The card search's own playouts run in
    # compiled code when the search is built (``sheepshead.native``), where no wrapper
    # reaches them, so its worlds' values stand for them.
    original = vars(bigsearch)["playout"]
    vars(bigsearch)["playout"] = _hashing_playout(digest, original)
    values = vars(expert)["world_values"]
    vars(expert)["world_values"] = _hashing_values(digest, values)
    try:

        def act(game: Game) -> Action:
            assert game.turn is not None
            action = bots.decide(level, game.view(game.turn))
            digest.update(f"{game.turn} {action}\n".encode())
            return action

        for index in range(hands):
            seed = deal_seed("decision-digest", index)
            play_hand(
                rules, index % rules.players, seed, [act] * rules.players, [None] * rules.players
            )
    finally:
        vars(bigsearch)["playout"] = original
        vars(expert)["world_values"] = values
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--levels", default="expert,standard")
    args = parser.parse_args()
    whole = hashlib.sha256()
    for level in args.levels.split(","):
        for name in RULES:
            value = digest_of(level, name, args.hands)
            whole.update(value.encode())
            print(f"{level:9} {name:24} {value}", flush=True)
    print(f"all       {whole.hexdigest()}")


if __name__ == "__main__":
    main()
