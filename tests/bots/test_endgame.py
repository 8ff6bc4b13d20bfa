"""The exact endgame (bots/endgame.py) must value a position as the rules score it
under best play by both sides: its pruning may skip lines, never change the value.
Held here to a plain minimax over the engine's own ``Game``, which shares no code
with ``SimHand`` but the rules."""

from __future__ import annotations

import random

from bots.random_hands import deal, per_preset, random_rules, to_play
from sheepshead.actions import Play
from sheepshead.bots.endgame import solve
from sheepshead.bots.expert import ExpertBot, candidates
from sheepshead.bots.knowledge import read_view
from sheepshead.bots.rng import Rng
from sheepshead.bots.sim import SimHand
from sheepshead.game import Game

WEIGHT = 0.001


def _minimax(game: Game, me: int, side: frozenset[int]) -> float:
    """``me``'s value with every seat on its side maximizing and the rest minimizing,
    every line played out by the engine."""
    result = game.result()
    if result is not None:
        assert result.points is not None
        own = result.points[0] if me in side else result.points[1]
        return result.scores[me] + WEIGHT * own
    assert game.turn is not None
    values = [_minimax(game.apply(Play(c)), me, side) for c in game.legal_cards()]
    return max(values) if (game.turn in side) == (me in side) else min(values)


@per_preset(12)
def test_solve_is_the_minimax_value_of_the_last_tricks(preset: str, rnd: random.Random) -> None:
    rules = random_rules(preset, rnd)
    game = to_play(deal(rules, rnd), rnd)
    if game.is_done or game.picker is None:
        return  # a doubler, or a leaster (the solver plays for two sides)
    # Random play up to the last two tricks, or into the first of them.
    stop = (rules.tricks - 2) * rules.players + rnd.randrange(rules.players)
    while len(game.tricks) * rules.players + len(game.trick_cards) < stop:
        game = game.apply(Play(rnd.choice(game.legal_cards())))
    assert game.turn is not None
    assert game.picker is not None
    me = rnd.randrange(rules.players)
    side = frozenset({game.picker, *game.partners})
    expected = _minimax(game, me, side)
    assert abs(solve(SimHand.from_game(game), me, WEIGHT) - expected) < 1e-9


@per_preset(4)
def test_the_expert_with_exact_last_tricks_plays_a_legal_candidate(
    preset: str, rnd: random.Random
) -> None:
    # ``ExpertBot(endgame=3)`` (off by default, a bench variant) values its cards by
    # ``solve`` in the last three tricks: a legal card of the convention filter, the
    # same for the same view and generator.
    rules = random_rules(preset, rnd)
    game = to_play(deal(rules, rnd), rnd)
    if game.is_done:
        return
    stop = (rules.tricks - 3) * rules.players + rnd.randrange(rules.players)
    while len(game.tricks) * rules.players + len(game.trick_cards) < stop:
        game = game.apply(Play(rnd.choice(game.legal_cards())))
    assert game.turn is not None
    view = game.view(game.turn)
    bot = ExpertBot(worlds=6, endgame=3)
    seed = rnd.randrange(1 << 30)
    action = bot.choose(view, Rng.from_int(seed))
    assert action in [Play(c) for c in candidates(view, read_view(view))] or len(view.legal) == 1
    assert bot.choose(view, Rng.from_int(seed)) == action
