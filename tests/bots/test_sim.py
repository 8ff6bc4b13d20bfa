"""The search's fast model of play (bots/sim.py) must agree with the engine exactly:
a search that believes in a card the rules forbid, or scores a hand differently,
would choose its moves on a false picture."""

from __future__ import annotations

import random

from bots.random_hands import deal as deal  # these three "as" imports: for test_sampler.py
from bots.random_hands import per_preset, random_position
from bots.random_hands import random_rules as random_rules
from bots.random_hands import to_play as to_play
from sheepshead.actions import Play
from sheepshead.bots import decide
from sheepshead.bots.playout import choose, playout, table_of
from sheepshead.bots.sim import FIELDS, SimHand
from sheepshead.cards import Card, parse_cards
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.kernel import bit, cards_of, mask_of, points_of
from sheepshead.rules import PRESETS


def test_bits_follow_trick_strength() -> None:
    # A higher bit wins within a suit, and any trump beats any fail card.
    assert bit(Card.parse("QC")) > bit(Card.parse("QS")) > bit(Card.parse("7D"))
    assert bit(Card.parse("7D")) > bit(Card.parse("AC"))
    assert bit(Card.parse("AH")) > bit(Card.parse("TH")) > bit(Card.parse("KH"))
    deck = parse_cards("QC JD AD TD AC TC KC 9C 8C 7C KS 7H")
    assert set(cards_of(mask_of(deck))) == set(deck)
    assert points_of(mask_of(deck)) == sum(c.points for c in deck)


@per_preset(40)
def test_sim_agrees_with_engine_on_random_play(preset: str, rnd: random.Random) -> None:
    rules = random_rules(preset, rnd)
    game = to_play(deal(rules, rnd), rnd)
    if game.is_done:
        return  # a doubler: no play
    sim = SimHand.from_game(game)
    while not game.is_done:
        assert sim.turn == game.turn
        assert set(cards_of(sim.legal())) == set(game.legal_cards()), game.moves
        card = rnd.choice(game.legal_cards())
        tricks = len(game.tricks)
        game = game.apply(Play(card))
        sim.play(bit(card))
        if len(game.tricks) > tricks:
            assert sim.leader == game.tricks[-1].winner
    result = game.result()
    assert result is not None
    assert sim.done
    assert sim.scores() == result.scores
    if result.points is not None and not result.leaster:
        assert sim.side_points() == result.points[0]


@per_preset(15)
def test_playout_policy_only_plays_legal_cards(preset: str, rnd: random.Random) -> None:
    # The engine accepts every card the playout policy picks, and both score alike.
    game = random_position(preset, rnd)
    if game is None:
        return
    sim = SimHand.from_game(game)
    while not game.is_done:
        card = choose(sim)
        game = game.apply(Play(cards_of(card)[0]))
        sim.play(card)
    result = game.result()
    assert result is not None
    assert sim.scores() == result.scores


@per_preset(25)
def test_playout_is_choose_and_play_card_by_card(preset: str, rnd: random.Random) -> None:
    # ``playout`` writes ``legal`` and ``play`` out for speed: it must leave the hand
    # exactly as the policy's ``choose`` and ``SimHand.play`` do, card by card.
    game = random_position(preset, rnd)
    if game is None:
        return
    fast = SimHand.from_game(game)
    slow = fast.copy()
    playout(fast)
    while slow.trick_no < slow.total_tricks - 1:
        slow.play(choose(slow))
    if not slow.done:
        slow.finish()
    for name in FIELDS:
        assert getattr(fast, name) == getattr(slow, name), name
    assert fast.scores() == slow.scores()
    assert fast.own_points(0) == slow.own_points(0)
    for seat in range(fast.n):  # what search reads, in one call
        assert fast.outcome(seat) == (fast.scores()[seat], fast.own_points(seat))


def test_copy_is_independent() -> None:
    game = to_play(deal(PRESETS["standard"], random.Random(3)), random.Random(3))
    sim = SimHand.from_game(game)
    other = sim.copy()
    playout(other)
    assert other.done
    assert not sim.done
    assert sim.trick_no == 0
    assert sum(sim.won_points) == 0


def test_one_policy_reads_only_the_seats_view() -> None:
    # The standard level's card is the policy's over the seat's own table (table_of),
    # and the expert's playouts run the same policy over sampled worlds: so the
    # policy's card must not depend on where the hidden cards are. Over the true deal
    # (from_game) it plays exactly what it plays over table_of's placement; the
    # standard level plays that card unless the convention filter overrules it.
    same = total = 0
    for i in range(30):
        game = Game.deal(PRESETS["standard"], i % 5, b"mirror %d" % i)
        while not game.is_done:
            assert game.turn is not None
            view = game.view(game.turn)
            action = decide("standard", view)
            if game.phase is Phase.PLAYING and len(view.legal) > 1:
                assert isinstance(action, Play)
                card = choose(SimHand.from_game(game))
                assert card == choose(table_of(view)), (i, view.moves)
                total += 1
                same += cards_of(card)[0] is action.card
            game = game.apply(action)
    assert same >= 0.99 * total, f"the standard level plays the policy's card {same} of {total}"
