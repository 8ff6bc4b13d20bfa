"""Where does the expert part from version 1's, and what does it come to? (issue 16)

    .venv/bin/python bench/expert_divergence.py --first 0 --deals 250 > div0.jsonl
    .venv/bin/python bench/expert_divergence.py --summary div0.jsonl div250.jsonl

The duplicate match of ``expert_ablate.py --variant ""``: this code's expert in each
seat in turn among version 1's experts, against the table of version 1's experts on
the same deal. At each of its decisions the candidate also asks version 1's expert
what it would do there; the first decision where the two differ is written, one JSON
line per seat and deal (its phase; for a card, the trick, lead or follow, whether
each card takes the trick so far, their points), with the seat's role in the hand
and ``diff``, the seat's game points less version 1's in that seat. A seat that never
differs plays the hand as version 1 did (``diff`` 0) and is not written. Everything
after the first difference is put down to it: a sum by kind says which kinds of
difference gain, not why.

``--summary`` sums ``diff`` by role, by trick and by lead or follow, each with its
mean and a normal 95% interval.

``--agreement N``: how well each model predicts version 1's expert. N hands of version
1's experts in every seat (deal set ``agree``); at each card decision with a choice,
how often version 1's standard level (its playout policy), this code's standard level
(the one policy this code's playouts play every seat by) and this code's expert pick
the card version 1's expert played.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from sheepshead import bots
from sheepshead.actions import Action, Play
from sheepshead.bots import seed_rng
from sheepshead.bots.arena import deal_seed, play_hand, role_of
from sheepshead.bots.expert import ExpertBot
from sheepshead.bots.knowledge import beats, read_view
from sheepshead.cli import _rules_with
from sheepshead.game import Game
from sheepshead.rules import PRESETS
from sheepshead.view import SeatView


def _difference(view: SeatView, ours: Action, theirs: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"phase": view.phase.value, "ours": str(ours), "theirs": str(theirs)}
    if isinstance(ours, Play) and isinstance(theirs, Play):
        k = read_view(view)
        a, b = ours.card, theirs.card
        best = k.best
        takes = None
        if not k.leading and best is not None:
            takes = [beats(a, best, k.led), beats(b, best, k.led)]
        out.update(
            trick=len(view.tricks) + 1,
            lead=k.leading,
            trump=[a.is_trump, b.is_trump],
            points=[a.points, b.points],
            takes=takes,
        )
    return out


def play(preset: str, rules_args: list[str], first: int, deals: int, deal_set: str) -> None:
    rules = _rules_with(PRESETS[preset], rules_args)
    n = rules.players
    bot = ExpertBot()

    def baseline(game: Game) -> Action:
        assert game.turn is not None
        return bots.decide("expert", game.view(game.turn), 0, "1")

    for index in range(first, first + deals):
        seed = deal_seed(deal_set, index)
        dealer = index % n
        base = play_hand(rules, dealer, seed, [baseline] * n, [None] * n, None).result()
        assert base is not None
        for seat in range(n):
            found: dict[str, Any] = {}

            def candidate(game: Game, found: dict[str, Any] = found) -> Action:
                assert game.turn is not None
                view = game.view(game.turn)
                ours = bot.choose(view, seed_rng("expert", view, 0))
                if not found:
                    theirs = bots.decide("expert", view, 0, "1")
                    if ours != theirs:
                        found.update(_difference(view, ours, theirs))
                return ours

            policies: list[Callable[[Game], Action]] = [baseline] * n
            policies[seat] = candidate
            game = play_hand(rules, dealer, seed, policies, [None] * n, None)
            result = game.result()
            assert result is not None
            if found:
                found.update(
                    deal=index,
                    seat=seat,
                    role=role_of(game, seat),
                    diff=result.scores[seat] - base.scores[seat],
                )
                print(json.dumps(found), flush=True)


def agreement(preset: str, rules_args: list[str], hands: int) -> None:
    rules = _rules_with(PRESETS[preset], rules_args)
    n = rules.players
    models: dict[str, tuple[str, str | None]] = {
        "version 1's standard": ("standard", "1"),
        "standard": ("standard", None),
        "expert": ("expert", None),
    }
    agree = dict.fromkeys(models, 0)
    decisions = 0

    def field(game: Game) -> Action:
        nonlocal decisions
        assert game.turn is not None
        view = game.view(game.turn)
        played = bots.decide("expert", view, 0, "1")
        if isinstance(played, Play) and len(view.legal) > 1:
            decisions += 1
            for name, (level, version) in models.items():
                agree[name] += bots.decide(level, view, 0, version) == played
        return played

    for index in range(hands):
        play_hand(rules, index % n, deal_seed("agree", index), [field] * n, [None] * n, None)
    shares = {name: round(count / max(1, decisions), 3) for name, count in agree.items()}
    print(json.dumps({"preset": preset, "hands": hands, "decisions": decisions, "agree": shares}))


def summary(files: list[str]) -> None:
    rows: list[dict[str, Any]] = []
    for name in files:
        with open(name) as lines:
            rows += [json.loads(line) for line in lines if line.startswith("{")]
    print(f"{len(rows)} first differences, {sum(r['diff'] for r in rows):+d} game points in all")
    keys: dict[str, Callable[[dict[str, Any]], object]] = {
        "role": lambda r: r["role"],
        "trick": lambda r: r.get("trick", r["phase"]),
        "lead or follow": lambda r: (
            ("lead" if r["lead"] else "follow") if "lead" in r else r["phase"]
        ),
    }
    for title, key in keys.items():
        print(f"by {title}:")
        groups: dict[object, list[int]] = defaultdict(list)
        for r in rows:
            groups[key(r)].append(r["diff"])
        for group, diffs in sorted(groups.items(), key=lambda kv: str(kv[0])):
            count = len(diffs)
            mean = sum(diffs) / count
            var = sum((d - mean) ** 2 for d in diffs) / max(1, count - 1)
            half = 1.96 * math.sqrt(var / count)
            print(f"  {group!s:10} n={count:4d} sum={sum(diffs):+5d} mean={mean:+.2f} ±{half:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--rule", action="append", default=[], help="a house rule (cracking=true)")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--deals", type=int, default=250)
    parser.add_argument("--deal-seed", default="issue3-eval")
    parser.add_argument("--summary", nargs="+", metavar="FILE", help="sum earlier runs' lines")
    parser.add_argument("--agreement", type=int, metavar="HANDS", help="models against version 1")
    args = parser.parse_args()
    if args.summary:
        summary(args.summary)
    elif args.agreement:
        agreement(args.preset, args.rule, args.agreement)
    else:
        play(args.preset, args.rule, args.first, args.deals, args.deal_seed)


if __name__ == "__main__":
    main()
