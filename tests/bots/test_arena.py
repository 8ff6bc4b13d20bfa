"""The duplicate arena: same deals, candidate then baseline in each seat, paired edges.

It must be exact (a bot against itself has no edge at all), repeatable (the same
deal set gives the same report), clock-free (time comes from the caller), and its
blunder counters must count the blunders they name.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from sheepshead.actions import Action, Play
from sheepshead.bots import make_bot
from sheepshead.bots.arena import (
    Tally,
    bootstrap_ci,
    bot_policy,
    deal_seed,
    play_deal,
    play_hand,
    role_of,
    run,
    summarize,
)
from sheepshead.bots.rng import Rng
from sheepshead.rules import PRESETS, Rules
from sheepshead.view import SeatView

STANDARD = bot_policy(make_bot("standard"))
BEGINNER = bot_policy(make_bot("beginner"))


@dataclass
class Careless:
    """A player with every habit the blunder counters look for: on lead it leads
    trump when it can; following, it plays its richest card."""

    level: str = "careless"

    def choose(self, view: SeatView, rng: Rng) -> Action:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if not plays:
            return view.legal[0]
        if not view.trick.cards:
            trumps = [a for a in plays if a.card.is_trump]
            return (trumps or plays)[0]
        return max(plays, key=lambda a: a.card.points)


@dataclass
class Random:
    level: str = "random"

    def choose(self, view: SeatView, rng: Rng) -> Action:
        return rng.choice(view.legal)


def test_a_bot_against_itself_has_exactly_no_edge() -> None:
    outcomes = run(Rules(), STANDARD, STANDARD, 12, "self")
    assert all(o.candidate == o.baseline for o in outcomes)
    report = summarize(outcomes, Rules(), "standard", "standard", "self", 200)
    assert report["edge"]["mean"] == 0
    assert report["edge"]["ci95"] == [0, 0]


def test_the_same_deal_set_gives_the_same_report() -> None:
    a = summarize(run(Rules(), STANDARD, BEGINNER, 6, "repeat"), Rules(), "s", "b", "repeat", 100)
    b = summarize(run(Rules(), STANDARD, BEGINNER, 6, "repeat"), Rules(), "s", "b", "repeat", 100)
    assert a == b
    other = summarize(run(Rules(), STANDARD, BEGINNER, 6, "other"), Rules(), "s", "b", "other", 100)
    assert other["edge"] != a["edge"]


def test_each_deal_puts_the_candidate_in_every_seat_once() -> None:
    rules = PRESETS["six-handed"]
    outcome = play_deal(rules, 4, "seats", STANDARD, BEGINNER)
    assert len(outcome.candidate) == len(outcome.baseline) == 6
    assert outcome.candidate_tally.hands == 6  # one candidate seat in each of six hands
    assert outcome.baseline_tally.hands == 6  # every seat of the baseline's own hand
    assert deal_seed("seats", 4) != deal_seed("seats", 5) != deal_seed("other", 4)


def test_time_comes_from_the_callers_clock() -> None:
    ticks = iter(range(0, 10_000_000, 2))

    def clock() -> float:
        return next(ticks) / 1000.0  # each reading 2 ms after the last

    outcome = play_deal(Rules(), 0, "clock", STANDARD, BEGINNER, clock)
    ms = outcome.candidate_tally.ms
    assert len(ms) == outcome.candidate_tally.decisions
    assert ms == pytest.approx([2.0] * len(ms))
    assert not play_deal(Rules(), 0, "clock", STANDARD, BEGINNER).candidate_tally.ms


def test_blunder_counters_count_trump_leads_and_free_points() -> None:
    careless = bot_policy(Careless())
    outcomes = run(Rules(), careless, STANDARD, 30, "blunders")
    report = summarize(outcomes, Rules(), "careless", "standard", "blunders", 100)
    bad, good = report["candidate_stats"], report["baseline_stats"]
    assert bad["defender_leads_with_fail"] > 0
    assert bad["defender_trump_lead_rate"] > 0.5
    assert bad["free_point_rate"] > 0.02
    assert good["defender_trump_lead_rate"] == 0
    assert good["free_point_rate"] < 0.005
    assert report["edge"]["ci95"][1] < 0  # careless play loses


def test_standard_beats_a_random_player() -> None:
    outcomes = run(Rules(), STANDARD, bot_policy(Random()), 40, "random")
    report = summarize(outcomes, Rules(), "standard", "random", "random", 300)
    assert report["edge"]["ci95"][0] > 0.2


def test_roles_and_rates_are_reported() -> None:
    rules = Rules()
    tally = Tally()
    game = play_hand(rules, 0, deal_seed("roles", 0), [STANDARD] * 5, [tally] * 5)
    assert sum(tally.roles.values()) == 5
    assert tally.hands == 5
    if game.picker is None:
        assert role_of(game, 0) == "leaster"
        assert tally.leasters == 5
    else:
        assert role_of(game, game.picker) == "picker"
        assert tally.picks == 1
    report = summarize(run(rules, STANDARD, BEGINNER, 5, "roles"), rules, "s", "b", "roles", 50)
    assert set(report["by_role"]) <= {"picker", "partner", "defender", "leaster", "doubler"}
    counted = sum(r["candidate_hands"] for r in report["by_role"].values())
    assert counted == report["hands_per_seat"] == 25
    for key in ("pick_rate", "alone_rate", "leaster_rate", "picker_win_rate"):
        assert key in report["candidate_stats"]


def test_bootstrap_interval() -> None:
    assert bootstrap_ci([0.5] * 40) == (0.5, 0.5)
    values = [float(i % 7) - 3.0 for i in range(200)]
    lo, hi = bootstrap_ci(values, 500)
    mean = sum(values) / len(values)
    assert lo < mean < hi
    assert hi - lo < 1.0
    assert bootstrap_ci(values, 500) == (lo, hi)  # a fixed seed: the same interval
