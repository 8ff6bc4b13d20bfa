"""Reading the picker's bury (bots/burial.py): the split the sampler gives the picker's
cards must be the one the standard level would have buried."""

from __future__ import annotations

import pytest

from sheepshead.actions import Bury
from sheepshead.bots import seed_rng
from sheepshead.bots.arena import deal_seed
from sheepshead.bots.burial import BURY_FLOOR, rule_split
from sheepshead.bots.rulebot import RuleBot
from sheepshead.cards import FAIL_SUITS, Card, parse_cards
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import PRESETS


def _score(cards: tuple[Card, ...], buried: tuple[Card, ...] | list[Card]) -> tuple[int, int]:
    """What the standard level buries by: the points, then the fail suits left void."""
    kept = [c for c in cards if c not in buried and not c.is_trump]
    voids = sum(1 for s in FAIL_SUITS if all(c.fail_suit is not s for c in kept))
    return sum(c.points for c in buried), voids


@pytest.mark.parametrize("preset", ["standard", "three-handed", "four-handed", "six-handed"])
def test_the_split_is_the_standard_levels_bury(preset: str) -> None:
    rules = PRESETS[preset]
    standard = RuleBot("standard")
    buries = 0
    for index in range(120):
        game = Game.deal(rules, index % rules.players, deal_seed("burial-test", index))
        while game.phase is not Phase.BURYING and not game.is_done:
            assert game.turn is not None
            view = game.view(game.turn)
            game = game.apply(standard.choose(view, seed_rng("standard", view, 0)))
        if game.is_done:
            continue
        assert game.turn is not None
        view = game.view(game.turn)
        bury = standard.choose(view, seed_rng("standard", view, 0))
        assert isinstance(bury, Bury)
        split = rule_split(view.cards, [], rules.blind_size, ())
        assert split is not None
        cards, factor = split
        assert factor == 1.0
        assert len(cards) == rules.blind_size
        assert _score(view.cards, cards) == _score(view.cards, bury.cards)
        assert sum(c.is_trump for c in cards) == sum(c.is_trump for c in bury.cards)
        buries += 1
    assert buries >= 20


def test_among_equal_points_the_voids_then_the_worlds_own_bury() -> None:
    # Three kings: burying the king of clubs with either other king voids clubs; the
    # spade and heart kings together void nothing.
    pool = parse_cards("KC KS KH 7S QC JD 8H 9H")
    for own, expected in (("KH", "KC KH"), ("KS", "KC KS"), ("KS KH", "KC KS")):
        split = rule_split(pool, [], 2, parse_cards(own))
        assert split is not None
        assert set(split[0]) == set(parse_cards(expected)), own


def test_a_card_played_that_the_rule_would_have_buried_lowers_the_weight() -> None:
    # The picker has played the ace of hearts: had it buried by the rule, its bury
    # would hold 11 points more than the richest it can bury from these cards.
    pool = parse_cards("KC 9S QC JD AD QS 8H 7C")
    cards, factor = rule_split(pool, parse_cards("AH"), 2, ()) or ([], 0.0)
    assert sum(c.points for c in cards) == 4
    assert BURY_FLOOR <= factor < 0.05
    _, poorer = rule_split(pool, parse_cards("KH"), 2, ()) or ([], 0.0)
    assert factor < poorer < 1.0


def test_trump_is_buried_only_when_it_must_be() -> None:
    pool = parse_cards("QC QS JD AD 7D 8D TC 9D")  # one fail card
    cards, factor = rule_split(pool, [], 2, ()) or ([], 0.0)
    assert set(cards) == set(parse_cards("TC 7D"))
    assert factor == 1.0
    # A fail card it kept (played since) means it buried that one, not a trump.
    assert rule_split(pool, parse_cards("9C"), 2, ()) is None
