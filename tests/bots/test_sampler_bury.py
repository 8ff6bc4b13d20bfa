"""Worlds with the picker's bury read (``Sampler(view, bury=True)``, bots/burial.py):
still deals the seat cannot tell from the real one, and burying as a picker does."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.random_hands import random_rules
from bots.test_sampler import CALLED_HAND, _hand, _position, check_worlds
from sheepshead.bots import seed_rng
from sheepshead.bots.arena import deal_seed
from sheepshead.bots.burial import BURY_FLOOR, rule_split
from sheepshead.bots.expert import ExpertBot
from sheepshead.bots.rng import Rng
from sheepshead.bots.rulebot import RuleBot
from sheepshead.bots.sampler import Sampler
from sheepshead.cards import Suit
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import PRESETS


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=30, deadline=None)
@given(rnd=st.randoms(use_true_random=False))
def test_every_world_is_consistent_with_the_view(preset: str, rnd: random.Random) -> None:
    game = _position(random_rules(preset, rnd), rnd)
    if game.is_done or game.picker is None:
        return
    seat = rnd.choice([s for s in range(game.players) if s != game.picker])
    check_worlds(game, seat, 4, rnd.randrange(1 << 30), bury=True)


def _bury_points(sampler: Sampler, worlds: int) -> float:
    rng = Rng.from_int(3)
    total = weight = 0.0
    for _ in range(worlds):
        world = sampler.sample(rng)
        total += world.weight * sum(c.points for c in world.bury)
        weight += world.weight
    return total / weight


def test_the_worlds_bury_what_a_picker_buries() -> None:
    # Seat 2 picks, takes the ten and king of clubs and buries them (14 points, the
    # standard level's bury), keeping the nine of hearts to call the ace.
    dealt = list(CALLED_HAND)
    dealt[1] = "AC 9D 9C 8C 7S 9S"
    moves = ["1 pass", "2 pick", "2 bury TC KC", "2 call AH"]
    game = _hand(PRESETS["standard"], dealt, "TC KC", moves)
    view = game.view(1)
    read, unread = Sampler(view, bury=True), Sampler(view, bury=False)
    assert _bury_points(read, 300) > _bury_points(unread, 300) + 3.0
    rng = Rng.from_int(9)
    for _ in range(100):
        world = read.sample(rng)
        split = rule_split([*world.bury, *world.hands[2]], [], 2, world.bury)
        assert split is not None
        # Cards the rule would split otherwise than the view allows are unlikely.
        assert set(split[0]) == set(world.bury) or world.weight <= BURY_FLOOR
        heart = [c for c in world.hands[2] if c.fail_suit is Suit.HEARTS]
        assert heart, "and it still holds a heart for its call"


def test_the_expert_reading_the_bury_plays_legally_and_deterministically() -> None:
    game = _hand(
        PRESETS["standard"], CALLED_HAND, "KC 9D", ["1 pass", "2 pick", "2 bury 9D KC", "2 call AH"]
    )
    bot = ExpertBot(read_bury=True)
    for _ in range(12):
        assert game.turn is not None
        view = game.view(game.turn)
        action = bot.choose(view, seed_rng("expert", view, 0))
        assert action in view.legal
        assert bot.choose(view, seed_rng("expert", view, 0)) == action
        game = game.apply(action)


def test_the_worlds_read_the_bury_at_three_handed_and_called_ace_four_handed_tables() -> None:
    standard = RuleBot("standard")
    for preset, reads in (
        ("three-handed", True),
        ("four-handed-called-ace", True),
        ("standard", False),
        ("four-handed", False),
        ("six-handed", False),
    ):
        rules = PRESETS[preset]
        found = 0
        for index in range(40):
            game = Game.deal(rules, index % rules.players, deal_seed("bury-tables", index))
            while not game.is_done and game.phase is not Phase.PLAYING:
                assert game.turn is not None
                view = game.view(game.turn)
                game = game.apply(standard.choose(view, seed_rng("standard", view, 0)))
            if game.is_done or game.picker is None:
                continue
            view = game.view((game.picker + 1) % rules.players)
            usual, read = Sampler(view), Sampler(view, bury=True)
            rng_a, rng_b = Rng.from_int(4), Rng.from_int(4)
            worlds = [usual.sample(rng_a) for _ in range(8)]
            assert (worlds == [read.sample(rng_b) for _ in range(8)]) is reads, preset
            found += 1
        assert found >= 5
