"""Which part of the expert's card play costs against version 1? (issue 16)

    nice -n 5 .venv/bin/python bench/expert_ablate.py --deals 300 --deal-seed tune \
        --variant filter=v1 --variant policy=v1,sim=v1

The arena's duplicate match in one process, as ``bot_identity.py --edge``: a hybrid
expert in each seat in turn among version 1 experts (``--baseline-version``). The
hybrid is this code's expert (``ExpertBot``) with any of its parts turned back to
version 1's, or changed, by ``key=value`` items:

- ``filter=v1``: version 1's convention filter (``frozen.v1.expert.candidates``, over
  version 1's ``read_view``) instead of this code's (``expert.candidates``).
- ``sampler=v1`` (version 1's sampler), ``sampler=noread`` (this code's, every world
  alike: ``Sampler(view, read=False)``), ``sampler=v2`` (this code's, the default);
  ``cracks=0``: this code's, the cracks and no cracks not read; ``bury=1``: this
  code's, the picker's cards split as it buries (``Sampler(view, bury=True)``; the
  live expert's ``read_bury=1`` does the same in its own search).
- ``sim=v1``: the worlds built and played in version 1's ``SimHand`` (no reading of
  the play in the playouts); ``sim=v2`` (default).
- ``policy=vK``: version K's playout policy (``frozen.vK.playout.playout``, K from 1 to
  5), its worlds built in version K's ``SimHand`` unless ``sim`` says otherwise
  (``policy=v1`` alone keeps this code's ``SimHand``, as it always has); ``live``
  (default, ``playout.playout``).
- ``no_waste=0``, ``schmear=0``, ``risky=0``: a rule of this code's follow filter off
  (``expert.Filters``; ``no_waste=0|1`` at every table, three-handed included: 0 banks
  freely, 1 never banks; ``risky=0|1`` likewise at every table, by default on only at
  ``Filters.risky_tables``; ``risky_fail=0``: the risky rule binds only the ten and ace
  of diamonds, not a fail ace or ten; ``risky_below=N``: it binds on tricks worth under
  N points, 10 by default; ``sure_cut=0``, ``take_rich=0``: the follow filter's other
  rules off, ``expert.Filters``; ``fewest_loser=0`` (or ``3+4+5+6``, version 9;
  ``3+4+6``, version 10): the tables of ``Filters.fewest_loser_tables``).
  ``bank_margin=X``: at three- and four-handed tables a bank must beat the cheaper
  sure card by X game points (``expert.bank_handicap``).
- ``playread=EPS``: reading the play with the policy: each card another seat played
  that the policy would not have played there, in a world (asked with that seat's
  knowledge at that moment), multiplies the world's weight by EPS (``_replay``).
- ``sir=K``: the worlds drawn by importance resampling: K times the worlds are
  sampled and weighed, then as many as the search plays are drawn from them in
  proportion to their weights (systematic resampling), each then weighing alike; so
  the playouts go to the likely worlds instead of being spent on unlikely ones.
  ``pscale=X``: the reading of the pick with a step ``X`` wide instead of
  ``sampler.PASS_SCALE`` (sharper when smaller); ``pshift=D``: centred ``D`` above
  the picker's threshold (having taken the blind and buried its worst, a standard
  picker's cards at its first lead score 3.0 above its threshold on average).
  ``ptrump=1``: the pick read by the picker's trumps (in hand and played) instead, as
  likely as among the standard level's pickers against six random cards
  (``PICKER_TRUMPS``: a standard picker keeps 4.7 trumps of 6 on average, where the
  sampler's worlds gave it 3.4).
- ``merge=1``: of candidates that are equivalent (the same suit, trump or fail, the
  same points, and no card that might still be played ranked between them; never the
  called card), only the lowest is searched; with one left, no search at all.
- ``mix=vK``: every other world played out with version K's policy instead of this
  code's (a search less tied to one model of the other seats' play).
- ``absurd=unknown+lead+overtake`` (any of them): the convention filter
  (``cardplay.absurd``) loosened, that part of it left to the search (``_loosened``).
- ``unknown_points=0`` (or ``5+6``...): the tables where an ace or ten may go to a
  trick a seat of unknown side is taking (``Filters.unknown_points_tables``); 0 is
  version 8's filter.
- ``auction=v1``: every decision but a card to play (pick, bury, call, alone, crack)
  by version 1's expert, the card play by this code's.
- any ``ExpertBot`` option the live code takes (``worlds=N``, ``budget=N``,
  ``point_weight=X``, ``crack_pick=S``: with ``--rule cracking=true``, the pick's
  threshold raised by S from the dealer's left down to 0 at the dealer, ...). With
  no part of version 1's, the hybrid is the live ``ExpertBot`` with those options,
  its own search.

With every part at v1 the hybrid is version 1's expert (an edge of exactly 0).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from dataclasses import replace
from typing import Any

from sheepshead import bots
from sheepshead.actions import Action, Play
from sheepshead.bots import expert as live
from sheepshead.bots import seed_rng
from sheepshead.bots.arena import bootstrap_ci, run, summarize
from sheepshead.bots.frozen.v1 import expert as v1_expert
from sheepshead.bots.frozen.v1 import knowledge as v1_knowledge
from sheepshead.bots.frozen.v1 import playout as v1_playout
from sheepshead.bots.frozen.v1 import sampler as v1_sampler
from sheepshead.bots.knowledge import beats, read_view
from sheepshead.bots.playout import choose as policy_choose
from sheepshead.bots.playout import playout as v2_playout
from sheepshead.bots.rng import Rng
from sheepshead.bots.sampler import PASS_FLOOR, PASS_SCALE, Sampler, World, pass_likelihood
from sheepshead.bots.sim import SimHand
from sheepshead.bots.simview import dealt_of, partners_of, sim_of
from sheepshead.cards import DECK, Card
from sheepshead.cli import _rules_with
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.kernel import bit, mask_of
from sheepshead.rules import PRESETS
from sheepshead.view import SeatView

_PARTS = (
    "filter",
    "sampler",
    "sim",
    "policy",
    "playread",
    "sir",
    "pscale",
    "pshift",
    "ptrump",
    "merge",
    "mix",
    "anchor",
    "cracks",
    "bury",
)

#: How much likelier a standard picker's six cards after its bury (5-handed) hold t
#: trumps than six random cards: the share among 2,753 picks of the deal set "calib"
#: over the hypergeometric share; at least 0.02, so that every world stays possible.
PICKER_TRUMPS = (0.02, 0.02, 0.02, 0.25, 1.94, 9.78, 59.5)
#: Variants naming the tables of a rule (``Filters.<key>_tables``), e.g. ``5+6`` or 0.
_TABLE_SETS = ("risky_defence", "unknown_points", "fewest_loser")
_FILTERS = (
    "no_waste",
    "schmear",
    "risky",
    "called_lead",
    "risky_fail",
    "sure_cut",
    "take_rich",
)


class Hybrid:
    """This code's expert with parts of version 1's (or changed sizes) in its card play."""

    level = "expert"

    def __init__(self, spec: dict[str, str]) -> None:
        self.spec = spec
        own = (
            *_PARTS,
            *_FILTERS,
            "bank_margin",
            "auction",
            "absurd",
            "risky_below",
            *_TABLE_SETS,
        )
        extra = {k: _number(v) for k, v in spec.items() if k not in own}
        filters = live.Filters(**{k: v == "1" for k, v in spec.items() if k in _FILTERS})
        if "risky_below" in spec:  # the trick points under which the risky rule binds
            filters = replace(filters, risky_below=int(spec["risky_below"]))
        if "bank_margin" in spec:
            filters = replace(filters, bank_margin=float(spec["bank_margin"]))
        if "no_waste" in spec:  # at every table, three-handed too
            filters = replace(filters, no_waste_tables=frozenset())
        if "risky" in spec:  # at every table, three-handed too
            filters = replace(filters, risky_tables=frozenset({3, 4, 5, 6}))
        # Head counts joined by "+" (0: none): the tables of a rule of ``Filters``.
        for key in _TABLE_SETS:
            if key in spec:
                tables = frozenset(int(t) for t in spec[key].split("+") if t != "0")
                changes: dict[str, Any] = {f"{key}_tables": tables}
                filters = replace(filters, **changes)
        self.bot = live.ExpertBot(**extra, filters=filters)  # type: ignore[arg-type]
        self.filters = filters
        self.point_weight = self.bot.point_weight
        #: Only the live code's options: its own search, exactly.
        self.live = not any(k in _PARTS for k in spec)

    def choose(self, view: SeatView, rng: Rng) -> Action:
        if "absurd" not in self.spec:
            return self._choose(view, rng)
        # The convention filter loosened for this decision only (``absurd=...``).
        kept = live.absurd
        live.absurd = _loosened(kept, set(self.spec["absurd"].split("+")))
        try:
            return self._choose(view, rng)
        finally:
            live.absurd = kept

    def _choose(self, view: SeatView, rng: Rng) -> Action:
        legal = view.legal
        if self.spec.get("auction") == "v1" and view.phase is not Phase.PLAYING:
            return bots.decide("expert", view, 0, "1")
        if self.live or len(legal) == 1 or view.phase is not Phase.PLAYING:
            return self.bot.choose(view, rng)
        if self.spec.get("filter") == "v1":
            options = v1_expert.candidates(view, v1_knowledge.read_view(view))
        else:
            options = live.candidates(view, read_view(view), self.filters)
        if self.spec.get("merge") == "1":
            options = _merged(view, options)
        if self.spec.get("anchor") == "1":
            options = _anchored(view, options)
        if len(options) == 1:
            return Play(options[0])
        return Play(self.search(view, options, rng))

    def search(self, view: SeatView, options: list[Card], rng: Rng) -> Card:
        me = view.seat
        played = sum(len(t.cards) for t in view.tricks) + len(view.trick.cards)
        plays_left = view.players * view.rules.tricks - played
        most = self.bot.worlds_at(view.players)
        budget = self.bot.budget_at(view.players)
        worlds = min(most, max(live.MIN_WORLDS, budget // (len(options) * plays_left)))
        kind = self.spec.get("sampler", "v2")
        read = kind != "noread"
        cracks = self.spec.get("cracks") != "0"
        bury = {"1": True, "0": False}.get(self.spec.get("bury", ""))
        sampler: Any = (
            v1_sampler.Sampler(view)
            if kind == "v1"
            else Sampler(view, read=read, cracks=cracks, bury=bury)
        )
        old_sim = self.spec.get("sim") == "v1"
        build = v1_expert.sim_of if old_sim else sim_of
        partners = v1_expert.partners_of if old_sim else partners_of
        policy = self.spec.get("policy", "live")
        play: Any = v2_playout
        if policy == "v1":
            play = v1_playout.playout
        elif policy != "live":
            frozen = importlib.import_module(f"sheepshead.bots.frozen.{policy}.playout")
            play = frozen.playout
            if "sim" not in self.spec:
                build, partners = frozen.sim_of, frozen.partners_of
        plays = [play]
        if "mix" in self.spec:
            mixed = self.spec["mix"]
            other = importlib.import_module(f"sheepshead.bots.frozen.{mixed}.playout")
            plays.append(v1_playout.playout if mixed == "v1" else other.playout)
        bits = [bit(card) for card in options]
        value = [0.0] * len(options)
        template: Any = None
        pw = self.point_weight
        playread = float(self.spec.get("playread", "0"))
        drawn = [sampler.sample(rng) for _ in range(worlds)]
        if any(k in self.spec for k in ("sir", "pscale", "pshift", "ptrump")):
            drawn = _resampled(
                view,
                sampler,
                rng,
                worlds,
                int(self.spec.get("sir", "1")),
                float(self.spec.get("pscale", str(PASS_SCALE))),
                drawn,
                float(self.spec.get("pshift", "0")),
                self.spec.get("ptrump") == "1",
            )
        for j, world in enumerate(drawn):
            play = plays[j % len(plays)]
            weight = world.weight
            base: Any
            if playread:
                base, likelihood = _replay(view, world, playread)
                weight *= likelihood
            elif template is None or sampler.facedown:
                base = template = build(view, world)
            else:
                base = template.rewire(
                    [mask_of(h) for h in world.hands],
                    partners(view, world),
                    0 if world.unknown is None else bit(world.unknown),
                    mask_of(world.bury),
                    sum(c.points for c in world.blind or ()),
                )
            for i, card in enumerate(bits):
                sim = base.copy()
                sim.play(card)
                play(sim)
                value[i] += weight * (sim.scores()[me] + pw * sim.own_points(me))
        best = max(range(len(options)), key=value.__getitem__)
        return options[best]


def _loosened(absurd: Any, parts: set[str]) -> Any:
    """The convention filter (``cardplay.absurd``) with parts of it left to the search:
    ``unknown``, an ace or ten may go to a trick a seat of unknown side is taking (the
    filter keeps them from any seat not known to be an ally); ``lead``, a defender may
    lead trump while holding fail; ``overtake``, a known ally's sure trick may be
    taken over."""

    def loosened(k: Any, card: Card, legal: list[Card], **options: Any) -> bool:
        if not absurd(k, card, legal, **options):
            return False
        if k.leading:
            return "lead" not in parts
        wins = beats(card, k.best, k.led)
        side = k.side_of(k.winner)
        if not wins and side == 0:
            return "unknown" not in parts
        if wins and side == 1:
            return "overtake" not in parts
        return True

    return loosened


def _anchored(view: SeatView, options: list[Card]) -> list[Card]:
    """The picker following (``anchor=1``): no trump above the one policy's card where
    that card is a trump taking the trick as it stands."""
    if view.picker != view.seat or not view.trick.cards or len(options) < 2:
        return options
    k = read_view(view)
    if k.best is None:
        return options
    mine = bots.decide("standard", view, 0)
    assert isinstance(mine, Play)
    card = mine.card
    if not card.is_trump or not beats(card, k.best, k.led):
        return options
    kept = [c for c in options if not (c.is_trump and c.power > card.power)]
    return kept or options


def _merged(view: SeatView, options: list[Card]) -> list[Card]:
    """The options less each one equivalent to a lower one kept (``merge=1``)."""
    gone = set(view.cards)
    for trick in (*view.tricks, view.trick):
        gone.update(trick.cards)
    if view.picker == view.seat:
        gone.update(view.bury or ())
    live_cards = [c for c in DECK if c not in gone]
    called = view.called
    kept: list[Card] = []
    for card in sorted(options, key=lambda c: c.power):
        twin = card is not called and any(
            k is not called
            and k.fail_suit is card.fail_suit
            and k.points == card.points
            and not any(
                u.fail_suit is card.fail_suit and k.power < u.power < card.power for u in live_cards
            )
            for k in kept
        )
        if not twin:
            kept.append(card)
    return [c for c in options if c in kept]


def _pick_factor(sampler: Any, world: Any, scale: float, shift: float = 0.0) -> float:
    """The sampler's weight for the picker's pick in ``world``, with a step ``scale``
    wide, ``shift`` above the picker's threshold."""
    if sampler.picker_read is None:
        return 1.0
    seat, threshold, played = sampler.picker_read
    cards = (*world.hands[seat], *played)
    return 1.0 - pass_likelihood(cards, threshold + shift, scale) + PASS_FLOOR


def _resampled(
    view: SeatView,
    sampler: Any,
    rng: Rng,
    worlds: int,
    k: int,
    scale: float,
    first: list[Any],
    shift: float = 0.0,
    trumps: bool = False,
) -> list[Any]:
    """``worlds`` worlds drawn, in proportion to their weights (the pick read with a step
    ``scale`` wide), from ``k`` times as many sampled ones; each then weighs 1."""
    pool = first + [sampler.sample(rng) for _ in range(worlds * (k - 1))]
    if trumps and sampler.picker_read is not None:
        seat, _, played = sampler.picker_read
        shown = sum(c.is_trump for c in played)
        weights = [
            w.weight
            / _pick_factor(sampler, w, PASS_SCALE)
            * PICKER_TRUMPS[min(6, shown + sum(c.is_trump for c in w.hands[seat]))]
            for w in pool
        ]
    else:
        weights = [
            w.weight * _pick_factor(sampler, w, scale, shift) / _pick_factor(sampler, w, PASS_SCALE)
            for w in pool
        ]
    total = sum(weights)
    if total <= 0:
        return first
    step = total / worlds
    at = rng.random() * step
    out: list[Any] = []
    acc = 0.0
    i = 0
    for w, world in zip(weights, pool, strict=True):
        acc += w
        while i < worlds and at < acc:
            out.append(World(world.hands, world.bury, world.blind, world.unknown, 1.0))
            at += step
            i += 1
    while len(out) < worlds:
        out.append(replace(pool[-1], weight=1.0))
    return out


def _replay(view: SeatView, world: Any, eps: float) -> tuple[SimHand, float]:
    """The world's hand at the view's point of play (``sim_of``), and how likely the
    other seats' cards were in it: each card the policy would not have played there
    (asked with that seat's knowledge at that moment) multiplies the weight by ``eps``."""
    sim, order = dealt_of(view, world)
    likelihood = 1.0
    for seat, card in order:
        b = bit(card)
        if seat != view.seat:
            legal = sim.legal()
            if legal & (legal - 1) and policy_choose(sim) != b:
                likelihood *= eps
        sim.play(b)
    return sim, likelihood


def _number(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        return float(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--deal-seed", default="tune")
    parser.add_argument("--baseline-version", default="1")
    parser.add_argument("--variant", action="append", default=[], help="e.g. filter=v1")
    parser.add_argument("--per-deal", action="store_true", help="print each deal's edge")
    parser.add_argument(
        "--rule", action="append", default=[], help="a house rule, as the arena's (cracking=true)"
    )
    args = parser.parse_args()
    rules = PRESETS[args.preset]
    rules = _rules_with(rules, args.rule)

    def baseline(game: Game) -> Action:
        assert game.turn is not None
        return bots.decide("expert", game.view(game.turn), 0, args.baseline_version)

    for text in args.variant or [""]:
        spec = dict(item.partition("=")[::2] for item in text.split(",") if "=" in item)
        bot = Hybrid(spec)

        def candidate(game: Game, bot: Hybrid = bot) -> Action:
            assert game.turn is not None
            view = game.view(game.turn)
            return bot.choose(view, seed_rng("expert", view, 0))

        start = time.process_time()
        outcomes = run(rules, candidate, baseline, args.deals, args.deal_seed, first=args.first)
        report = summarize(outcomes, rules, "hybrid", f"v{args.baseline_version}", args.deal_seed)
        edges = [o.edge for o in outcomes]
        lo, hi = bootstrap_ci(edges)
        row = {
            "variant": text or "live",
            "preset": args.preset,
            "deal_set": args.deal_seed,
            "first": args.first,
            "deals": args.deals,
            "edge": sum(edges) / len(edges),
            "ci95": [lo, hi],
            "by_role": {
                role: r["mean_edge"]
                for role, r in report["by_role"].items()
                if r["mean_edge"] is not None
            },
            "blunders": {
                k: report["candidate_stats"].get(k)
                for k in (
                    "defender_trump_lead_rate",
                    "free_point_rate",
                    "missed_schmear_rate",
                    "wasted_point_rate",
                )
            },
            "rules": rules.to_record(),
            "stats": {
                side: {
                    k: report[f"{side}_stats"].get(k)
                    for k in ("pick_rate", "leaster_rate", "picker_win_rate", "alone_rate")
                }
                for side in ("candidate", "baseline")
            },
            "cpu_s": round(time.process_time() - start),
        }
        if args.per_deal:
            row["per_deal"] = edges
        print(json.dumps(row), flush=True)
        print(
            f"# {row['variant']}: {args.preset} {args.deal_seed} {args.first}+{args.deals}: "
            f"edge {row['edge']:+.3f} [{lo:+.3f}, {hi:+.3f}] ({row['cpu_s']} s CPU, "
            f"load {os.getloadavg()[0]:.1f})",
            file=sys.stderr,
            flush=True,
        )


if __name__ == "__main__":
    main()
