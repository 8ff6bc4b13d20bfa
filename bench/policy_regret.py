"""Where the one policy loses, by the expert's own evaluation (issue 16).

    .venv/bin/python bench/policy_regret.py --hands 200 --judge 400 > regret.jsonl
    .venv/bin/python bench/policy_regret.py --summary regret.jsonl

Plays ``--hands`` hands of the preset with version 1's experts in every seat (turn 1's
play, the field of the issue's matches; deal set ``policy-regret``). At each card
decision with two or more legal cards, every legal card is judged twice,
independently, as ``search_noise.py`` does (this code's sampler and playout policy,
``--judge`` worlds each): judge A names the best card and judge B values them. A
player's regret there is B's value of A's choice less B's value of the player's card,
in game points; summed and divided by the seat-hands it is in game points a hand a
seat. The players: this code's one policy (the standard level's card play, which the
playouts play every seat by), this code's expert, and version 1's expert (what the
field played).

One JSON line per decision: the trick, lead or follow, the seat's place in the trick,
its role as it knows it, and each player's card with its kind (``T`` trump or ``F``
fail; ``p`` a point card of 10 or 11, ``m`` of 2 to 4, ``0`` none; ``w`` when it
takes the trick so far) and regret; and for the expert's filters (``FILTERS``: the
whole of ``expert.candidates``, and with one rule off) the regret of the best card
they allow, which is what each filter costs by the judges' measure. ``--summary``
sums the regrets by role, trick, lead or follow, and by the pair of kinds (the
policy's card, the judges' best).

It finds where the policy's play is worst by the search's own measure, and set
against the arena it shows where that measure is wrong: the judges share the
policy's faults, so a mend it suggests is adopted only by a match (docs/bots.md,
"Where the one policy loses").
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import replace
from typing import Any

from search_noise import judge
from sheepshead import bots
from sheepshead.actions import Action, Play
from sheepshead.bots import expert as live
from sheepshead.bots import seed_rng
from sheepshead.bots.arena import deal_seed, play_hand
from sheepshead.bots.expert import ExpertBot
from sheepshead.bots.knowledge import Knowledge, beats, read_view
from sheepshead.bots.rng import Rng
from sheepshead.cards import Card
from sheepshead.cli import _rules_with
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import PRESETS
from sheepshead.view import SeatView

#: The expert's convention and follow filters (``expert.candidates``), whole and with a
#: rule off: what each costs by the judges' measure.
FILTERS = {
    "filter": live.Filters(),
    "risky off": replace(live.Filters(), risky=False),
    "version 7 (risky in defence too)": replace(
        live.Filters(), risky_defence_tables=frozenset({5, 6})
    ),
    "schmear off": replace(live.Filters(), schmear=False),
    "called lead off": replace(live.Filters(), called_lead=False),
}


def kind(card: Card, k: Knowledge) -> str:
    text = "T" if card.is_trump else "F"
    text += "p" if card.points >= 10 else "m" if card.points else "0"
    if not k.leading and k.best is not None and beats(card, k.best, k.led):
        text += "w"
    return text


def role(k: Knowledge) -> str:
    if k.leaster:
        return "leaster"
    if k.me_picker:
        return "picker"
    if k.me_partner:
        return "partner"
    return "defender"


def record(view: SeatView, played: Card, j: int, worlds: int, expert: ExpertBot) -> dict[str, Any]:
    k = read_view(view)
    options = [a.card for a in view.legal if isinstance(a, Play)]
    pick = judge(view, options, Rng.from_bytes(b"policy-regret A %d" % j), worlds)
    value = judge(view, options, Rng.from_bytes(b"policy-regret B %d" % j), worlds)
    best = options[max(range(len(options)), key=pick.__getitem__)]
    top = value[options.index(best)]
    filters = {name: live.candidates(view, k, config) for name, config in FILTERS.items()}
    allowed = {
        name: top - value[options.index(max(cands, key=lambda c: pick[options.index(c)]))]
        for name, cands in filters.items()
    }
    policy = bots.decide("standard", view, 0, None)
    mine = expert.choose(view, seed_rng("expert", view, 0))
    assert isinstance(policy, Play)
    assert isinstance(mine, Play)
    cards = {"policy": policy.card, "expert": mine.card, "field": played}
    return {
        "trick": len(view.tricks) + 1,
        "lead": k.leading,
        "place": len(view.trick.cards),
        "role": role(k),
        "best": kind(best, k),
        **{f"{name}_kind": kind(card, k) for name, card in cards.items()},
        **{
            f"{name}_regret": round(top - value[options.index(card)], 4)
            for name, card in cards.items()
        },
        "options": len(options),
        "filter_regret": {name: round(v, 4) for name, v in allowed.items()},
        "cards": {"best": str(best), **{name: str(card) for name, card in cards.items()}},
        "hand": " ".join(str(c) for c in view.cards),
        "trick_cards": " ".join(str(c) for c in view.trick.cards if c is not None),
        "values": {str(c): round(v, 3) for c, v in zip(options, value, strict=True)},
    }


def play(preset: str, rules_args: list[str], first: int, hands: int, worlds: int) -> None:
    rules = _rules_with(PRESETS[preset], rules_args)
    n = rules.players
    expert = ExpertBot()
    count = 0

    def field(game: Game) -> Action:
        nonlocal count
        assert game.turn is not None
        view = game.view(game.turn)
        played = bots.decide("expert", view, 0, "1")
        if view.phase is Phase.PLAYING and len(view.legal) > 1:
            assert isinstance(played, Play)
            row = record(view, played.card, count, worlds, expert)
            row["deal"] = game_index
            count += 1
            print(json.dumps(row), flush=True)
        return played

    for game_index in range(first, first + hands):
        play_hand(
            rules,
            game_index % n,
            deal_seed("policy-regret", game_index),
            [field] * n,
            [None] * n,
            None,
        )
    print(json.dumps({"preset": preset, "hands": hands, "seat_hands": hands * n}), flush=True)


def summary(files: list[str]) -> None:
    rows: list[dict[str, Any]] = []
    seat_hands = 0
    for name in files:
        with open(name) as lines:
            for line in lines:
                row = json.loads(line)
                if "seat_hands" in row:
                    seat_hands += row["seat_hands"]
                else:
                    rows.append(row)
    seat_hands = seat_hands or 1
    players = ("policy", "expert", "field")
    print(f"{len(rows)} decisions, {seat_hands} seat-hands")
    print(
        "regret a seat-hand:",
        {p: round(sum(r[f"{p}_regret"] for r in rows) / seat_hands, 4) for p in players},
    )
    filtered = defaultdict(float)
    for r in rows:
        for name, v in r.get("filter_regret", {}).items():
            filtered[name] += v
    print(
        "the expert's filters, their judged cost a seat-hand "
        "(the best card allowed, against the best):"
    )
    for name, v in filtered.items():
        print(f"  {name}: {v / seat_hands:+.4f}")
    keys = {
        "role": lambda r: r["role"],
        "trick": lambda r: r["trick"],
        "lead": lambda r: "lead" if r["lead"] else f"follow {r['place']}",
        "role+lead": lambda r: (r["role"], "lead" if r["lead"] else "follow"),
        "kinds (policy -> best)": lambda r: (
            r["role"],
            "lead" if r["lead"] else "follow",
            r["policy_kind"],
            r["best"],
        ),
    }
    for title, key in keys.items():
        sums: dict[Any, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0])
        for r in rows:
            s = sums[key(r)]
            for i, p in enumerate(players):
                s[i] += r[f"{p}_regret"]
            s[3] += 1
        print(f"\nby {title}: regret a seat-hand (policy, expert, field), decisions")
        ranked = sorted(sums.items(), key=lambda kv: -kv[1][0])
        for name, s in ranked[:25]:
            shares = " ".join(f"{v / seat_hands:+.4f}" for v in s[:3])
            print(f"  {name!s:55} {shares} {s[3]:6d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--judge", type=int, default=400)
    parser.add_argument("--summary", nargs="+", metavar="FILE")
    args = parser.parse_args()
    if args.summary:
        summary(args.summary)
    else:
        play(args.preset, args.rule, args.first, args.hands, args.judge)


if __name__ == "__main__":
    main()
