"""What the expert's card search loses to its own sampling noise (issue 16).

    .venv/bin/python bench/search_noise.py --hands 60 --judge 2000 \
        --variant "" --variant budget=12000 --variant budget=24000

Plays ``--hands`` hands of the preset (deal set ``search-noise``) with the live expert
in every seat and keeps every card decision with two or more candidates. Each is then
judged twice, independently, by the expert's own evaluation (this code's sampler and
playout policy, every candidate in the same worlds) with ``--judge`` worlds and no
budget: judge A names the best candidate, judge B values them, and a variant's loss at
a decision is B's value of A's choice less B's value of the variant's card (so the
noise of the judge does not flatter it). Summed over the decisions and divided by
the seat-hands, the loss is in game points a hand a seat, the unit of the arena.

This measures the search's noise only, against a search with the same evaluation and
far more worlds: not the evaluation's own faults (the playout policy's model of the
other seats), which only a match shows. A variant is an ``expert_ablate.py`` spec
(``budget=N``, ``worlds=N``, ``merge=1``, ...). Its cost is the simulated card plays
its search would spend (worlds x candidates x cards left), mean and p95 per searched
decision.
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from expert_ablate import Hybrid, _merged
from sheepshead.actions import Action
from sheepshead.bots import expert as live
from sheepshead.bots import seed_rng
from sheepshead.bots.arena import deal_seed, play_hand
from sheepshead.bots.knowledge import read_view
from sheepshead.bots.rng import Rng
from sheepshead.bots.sampler import Sampler
from sheepshead.bots.worlds import world_values
from sheepshead.cards import Card
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.kernel import bit
from sheepshead.rules import PRESETS
from sheepshead.view import SeatView


def judge(view: SeatView, options: list[Card], rng: Rng, worlds: int) -> list[float]:
    """Each option's weighted mean game points over ``worlds`` sampled worlds."""
    # The search's own sums (``worlds.world_values``), game points alone.
    bits = [bit(c) for c in options]
    values, total = world_values(view, Sampler(view), rng, worlds, bits, 0.0)
    return [v / total for v in values]


def cost(bot: Hybrid, view: SeatView, options: list[Card]) -> int:
    """The simulated card plays the variant's search spends on ``view``."""
    played = sum(len(t.cards) for t in view.tricks) + len(view.trick.cards)
    plays_left = view.players * view.rules.tricks - played
    budget = bot.bot.budget_at(view.players)
    worlds = min(
        bot.bot.worlds_at(view.players),
        max(live.MIN_WORLDS, budget // (len(options) * plays_left)),
    )
    return worlds * len(options) * plays_left


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--judge", type=int, default=2000)
    parser.add_argument("--variant", action="append", default=[])
    args = parser.parse_args()
    rules = PRESETS[args.preset]
    n = rules.players
    recorder = live.ExpertBot()
    views: list[SeatView] = []

    def record(game: Game) -> Action:
        assert game.turn is not None
        view = game.view(game.turn)
        if view.phase is Phase.PLAYING and len(view.legal) > 1:
            views.append(view)
        return recorder.choose(view, seed_rng("expert", view, 0))

    for i in range(args.hands):
        play_hand(rules, i % n, deal_seed("search-noise", i), [record] * n, [None] * n, None)
    variants = args.variant or [""]
    bots = {
        text: Hybrid(dict(item.partition("=")[::2] for item in text.split(",") if "=" in item))
        for text in variants
    }
    loss: dict[str, list[float]] = {text: [] for text in variants}
    spent: dict[str, list[int]] = {text: [] for text in variants}
    by_trick: dict[str, dict[int, float]] = {text: {} for text in variants}
    judged = 0
    for j, view in enumerate(views):
        options = live.candidates(view, read_view(view))
        if len(options) < 2:
            continue
        judged += 1
        pick = judge(view, options, Rng.from_bytes(b"search-noise A %d" % j), args.judge)
        value = judge(view, options, Rng.from_bytes(b"search-noise B %d" % j), args.judge)
        best = value[max(range(len(options)), key=pick.__getitem__)]
        for text, bot in bots.items():
            action: Any = bot.choose(view, seed_rng("expert", view, 0))
            lost = best - value[options.index(action.card)]
            loss[text].append(lost)
            trick = len(view.tricks) + 1
            by_trick[text][trick] = by_trick[text].get(trick, 0.0) + lost
            searched = _merged(view, options) if bot.spec.get("merge") == "1" else options
            if len(searched) > 1:
                spent[text].append(cost(bot, view, searched))
    seat_hands = args.hands * n
    for text in variants:
        plays = sorted(spent[text])
        row = {
            "variant": text or "live",
            "preset": args.preset,
            "hands": args.hands,
            "judge_worlds": args.judge,
            "decisions": judged,
            "loss_per_seat_hand": sum(loss[text]) / seat_hands,
            "loss_per_decision": statistics.mean(loss[text]),
            "loss_by_trick_per_seat_hand": {
                t: v / seat_hands for t, v in sorted(by_trick[text].items())
            },
            "plays_mean": statistics.mean(plays),
            "plays_p95": plays[int(0.95 * (len(plays) - 1))],
        }
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
