"""CPU of the expert's card search alone, on fixed positions (issue 16).

    .venv/bin/python bench/search_cost.py [--preset standard] [--hands 40] [--repeat 3]

Plays ``--hands`` hands of the preset with the standard level in every seat (deal set
``search-cost``), keeps every position where the seat to play has two candidates or
more after the expert's filters, then times ``ExpertBot.search`` on each of them
(CPU, ``time.process_time``), each with the same generator seed, ``--repeat`` times;
prints the best round's mean milliseconds a decision and a digest of the cards chosen.
The positions and choices depend only on the code's play, so two checkouts that decide
alike (``bench/decision_digest.py``) print the same digest, and their times compare
the cost of the same work: run it in each, side by side.
"""

from __future__ import annotations

import argparse
import hashlib
import time

from sheepshead import bots, native
from sheepshead.actions import Action
from sheepshead.bots.arena import deal_seed, play_hand
from sheepshead.bots.expert import ExpertBot, candidates
from sheepshead.bots.knowledge import read_view
from sheepshead.bots.rng import Rng
from sheepshead.cards import Card
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import PRESETS
from sheepshead.view import SeatView


def positions(preset: str, hands: int, bot: ExpertBot) -> list[tuple[SeatView, list[Card]]]:
    rules = PRESETS[preset]
    found: list[tuple[SeatView, list[Card]]] = []

    def act(game: Game) -> Action:
        assert game.turn is not None
        view = game.view(game.turn)
        if view.phase is Phase.PLAYING and len(view.legal) > 1:
            options = candidates(view, read_view(view), bot.filters)
            if len(options) > 1:
                found.append((view, options))
        return bots.decide("standard", view)

    for index in range(hands):
        seed = deal_seed("search-cost", index)
        play_hand(rules, index % rules.players, seed, [act] * rules.players, [None] * rules.players)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=int, default=None, help="default: the table's")
    args = parser.parse_args()
    bot = ExpertBot(budget=args.budget)
    found = positions(args.preset, args.hands, bot)
    best = float("inf")
    digest = hashlib.sha256()
    for round_ in range(args.repeat):
        start = time.process_time()
        chosen = [bot.search(view, options, Rng.from_int(7)) for view, options in found]
        best = min(best, time.process_time() - start)
        if round_ == 0:
            digest.update(" ".join(str(card) for card in chosen).encode())
    print(
        f"{args.preset}: {len(found)} searched decisions, best of {args.repeat}:"
        f" {best * 1000 / len(found):.3f} ms CPU a decision"
        f" (search {native.STATUS}; choices {digest.hexdigest()[:16]})"
    )


if __name__ == "__main__":
    main()
