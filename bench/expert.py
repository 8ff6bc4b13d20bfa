"""Benchmark of the expert level: time per decision, and illegal moves.

    .venv/bin/python bench/expert.py                  # both parts, default sizes
    .venv/bin/python bench/expert.py --latency 300 --illegal 0
    .venv/bin/python bench/expert.py --latency 0 --illegal 20000

Latency: every decision the expert takes in seeded 5-handed ``standard`` hands, where
the expert sits in one seat (turning round the table from deal to deal) and the
standard bot in the others; p50/p95/p99 of the milliseconds per decision, over all
of its decisions and over the card plays it searched. CPU time of this process
(``time.process_time``), which other programs on the machine do not inflate, and
wall time beside it.

Illegal moves: random positions (every preset, a few rule options; a hand played with
random legal actions to a random point), the expert deciding for the seat to act;
an action not among the view's legal actions counts as illegal. Must be 0.

Variants (``--compare DEALS --variant worlds=80,budget=12000 ...``): the default
expert and each variant against the standard field on the same duplicate deals of
the tuning set ``expert-tuning`` (not the evaluation set), with the paired
difference of each variant's edge from the default's and its 95% interval:

    .venv/bin/python bench/expert.py --latency 0 --illegal 0 --compare 400 \
        --variant worlds=80,budget=12000 --variant search_bury=1,search_call=1

The big decisions' keys (``bigsearch.py``): ``search_pick=1|0`` (unset: the tables of
``PICK_BONUS``), ``search_bury=1|0`` and ``search_call=1|0`` (unset: the tables of
``BURY_TABLES`` and ``CALL_TABLES``),
``pick_worlds``, ``pick_margin``, ``pick_bonus``, ``pick_shift`` (with
``pick_worlds=0``: no search, the threshold moved); ``--preset`` sets the table, and
``--rule cracking=true`` a house rule on it for the latency part.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import sys
import time
from typing import Any

from sheepshead.bots import seed_rng
from sheepshead.bots.bigsearch import PICK_MARGIN, PICK_WORLDS
from sheepshead.bots.expert import ExpertBot
from sheepshead.bots.rng import Rng
from sheepshead.bots.rulebot import RuleBot
from sheepshead.cli import _rules_with
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import PRESETS, LeasterBlind, NobodyPicks, Rules, RulesError


def _percentiles(values: list[float]) -> str:
    if not values:
        return "no decisions"
    v = sorted(values)

    def at(q: float) -> float:
        return v[min(len(v) - 1, int(q * len(v)))]

    return f"p50 {at(0.5):6.2f}  p95 {at(0.95):6.2f}  p99 {at(0.99):6.2f}  max {v[-1]:6.2f} ms"


def latency(
    hands: int, expert: ExpertBot, preset: str = "standard", house: tuple[str, ...] = ()
) -> None:
    rules = _rules_with(PRESETS[preset], list(house))
    n = rules.players
    standard = RuleBot("standard")
    cpu_all: list[float] = []
    wall_all: list[float] = []
    cpu_search: list[float] = []
    wall_search: list[float] = []
    cpu_big: list[float] = []
    wall_big: list[float] = []
    for i in range(hands):
        seed = hashlib.sha256(f"bench-expert/{i}".encode()).digest()
        game = Game.deal(rules, i % n, seed)
        seat = (i // n) % n
        while not game.is_done:
            assert game.turn is not None
            view = game.view(game.turn)
            if game.turn != seat:
                game = game.apply(standard.choose(view, seed_rng("standard", view)))
                continue
            rng = seed_rng("expert", view)
            c0, w0 = time.process_time(), time.perf_counter()
            action = expert.choose(view, rng)
            cpu, wall = (time.process_time() - c0) * 1e3, (time.perf_counter() - w0) * 1e3
            cpu_all.append(cpu)
            wall_all.append(wall)
            if view.phase is Phase.PLAYING and len(view.legal) > 1:
                cpu_search.append(cpu)
                wall_search.append(wall)
            elif view.phase in _BIG and len(view.legal) > 1:
                cpu_big.append(cpu)
                wall_big.append(wall)
            game = game.apply(action)
    table = preset + "".join(", " + r for r in house)
    print(
        f"latency ({table}): {hands} hands, {len(cpu_all)} expert decisions, "
        f"{len(cpu_search)} card plays"
    )
    print(f"  all decisions, CPU   {_percentiles(cpu_all)}")
    print(f"  all decisions, wall  {_percentiles(wall_all)}")
    print(f"  card plays,    CPU   {_percentiles(cpu_search)}")
    print(f"  card plays,    wall  {_percentiles(wall_search)}")
    print(f"  pick/bury/call CPU   {_percentiles(cpu_big)}  ({len(cpu_big)} decisions)")
    print(f"  pick/bury/call wall  {_percentiles(wall_big)}")


#: The decisions before the play: pick or pass, bury, call (searched with --search-bury,
#: --search-call).
_BIG = (Phase.PICKING, Phase.BURYING, Phase.CALLING)


_OPTIONS: list[tuple[str, Any]] = [
    ("cracking", True),
    ("nobody_picks", NobodyPicks.DOUBLER),
    ("nobody_picks", NobodyPicks.FORCED_PICK),
    ("leaster_blind", LeasterBlind.NAMED_TRICK),
    ("leaster_blind", LeasterBlind.ASIDE),
    ("second_partner", True),
    ("jd_picker_holds", "call-jack-of-hearts"),
]


def _random_rules(rng: Rng) -> Rules:
    presets = sorted(PRESETS)
    rules = PRESETS[presets[rng.below(len(presets))]]
    for name, value in _OPTIONS:
        if rng.below(4) == 0:
            with contextlib.suppress(RulesError):  # an option this head count lacks
                rules = rules.replace(**{name: value})
    return rules


def illegal(positions: int, expert: ExpertBot) -> None:
    rng = Rng.from_bytes(b"bench-expert-illegal")
    bad = 0
    searched = 0
    start = time.process_time()
    for i in range(positions):
        rules = _random_rules(rng)
        game = Game.deal(rules, rng.below(rules.players), b"illegal/%d" % i)
        stop = rng.below(rules.players * rules.tricks + 6)
        steps = 0
        while not game.is_done and steps < stop:
            game = game.apply(rng.choice(game.legal_actions()))
            steps += 1
        if game.is_done:
            continue
        assert game.turn is not None
        view = game.view(game.turn)
        action = expert.choose(view, seed_rng("expert", view, i))
        searched += view.phase is Phase.PLAYING and len(view.legal) > 1
        if action not in view.legal:
            bad += 1
            print(f"illegal: position {i}: {action} not in {[str(a) for a in view.legal]}")
    cpu = time.process_time() - start
    print(
        f"illegal moves: {bad} in {positions} random positions "
        f"({searched} card plays searched; {cpu:.0f} s CPU)"
    )
    if bad:
        sys.exit(1)


def compare(
    deals: int,
    variants: list[str],
    deal_set: str = "expert-tuning",
    first: int = 0,
    preset: str = "standard",
) -> None:
    from sheepshead.bots.arena import bootstrap_ci, bot_policy, play_deal

    rules = PRESETS[preset]
    baseline = bot_policy(RuleBot("standard"))
    edges: dict[str, list[float]] = {}
    for spec in ["default", *variants]:
        options = dict(item.partition("=")[::2] for item in spec.split(",") if "=" in item)
        bot = ExpertBot(
            worlds=int(options["worlds"]) if "worlds" in options else None,
            budget=int(options["budget"]) if "budget" in options else None,
            search_bury={"1": True, "0": False}.get(options.get("search_bury", "")),
            search_call={"1": True, "0": False}.get(options.get("search_call", "")),
            search_pick={"1": True, "0": False}.get(options.get("search_pick", "")),
            pick_worlds=int(options.get("pick_worlds", PICK_WORLDS)),
            pick_margin=float(options.get("pick_margin", PICK_MARGIN)),
            pick_bonus=float(options["pick_bonus"]) if "pick_bonus" in options else None,
            pick_shift=float(options.get("pick_shift", 0.0)),
        )
        policy = bot_policy(bot)
        start = time.process_time()
        edges[spec] = [
            play_deal(rules, i, deal_set, policy, baseline).edge
            for i in range(first, first + deals)
        ]
        lo, hi = bootstrap_ci(edges[spec])
        mean = sum(edges[spec]) / deals
        cpu = time.process_time() - start
        print(
            f"{spec}: edge {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] over {deals} deals "
            f"of {deal_set!r} from {first} at {preset}, {cpu:.0f} s CPU",
            flush=True,
        )
        if spec != "default":
            # Each variant's paired difference as soon as it is known.
            diff = [a - b for a, b in zip(edges[spec], edges["default"], strict=True)]
            lo, hi = bootstrap_ci(diff)
            print(f"{spec} - default: {sum(diff) / deals:+.3f} [{lo:+.3f}, {hi:+.3f}]", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=int, default=300, help="hands for the latency part")
    parser.add_argument("--illegal", type=int, default=20000, help="random positions")
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    parser.add_argument(
        "--worlds", type=int, default=None, help="default: the table's (expert.WORLDS_BY_PLAYERS)"
    )
    parser.add_argument(
        "--budget", type=int, default=None, help="default: the table's (expert.BUDGET_BY_PLAYERS)"
    )
    parser.add_argument("--compare", type=int, default=0, help="deals for variant comparisons")
    parser.add_argument("--variant", action="append", default=[], help="e.g. worlds=80")
    parser.add_argument("--deal-set", default="expert-tuning", help="--compare's deal set")
    parser.add_argument("--first", type=int, default=0, help="--compare's first deal")
    parser.add_argument("--search-bury", action="store_true", help="the searched bury on")
    parser.add_argument("--search-call", action="store_true", help="the searched call on")
    parser.add_argument("--search-pick", action="store_true", help="the searched pick on")
    parser.add_argument(
        "--rule", action="append", default=[], help="a house rule for --latency (cracking=true)"
    )
    args = parser.parse_args()
    expert = ExpertBot(
        worlds=args.worlds,
        budget=args.budget,
        search_bury=args.search_bury or None,
        search_call=args.search_call or None,
        search_pick=args.search_pick or None,
    )
    print(
        f"expert: {args.worlds or 'the table' + chr(39) + 's'} worlds,"
        f" budget {args.budget or 'the table' + chr(39) + 's'} simulated plays per decision"
        f"{', searched bury' if args.search_bury else ''}"
        f"{', searched call' if args.search_call else ''}"
        f"{', searched pick' if args.search_pick else ''}"
    )
    if args.latency:
        latency(args.latency, expert, args.preset, tuple(args.rule))
    if args.illegal:
        illegal(args.illegal, expert)
    if args.compare:
        compare(args.compare, args.variant, args.deal_set, args.first, args.preset)


if __name__ == "__main__":
    main()
