"""The rules kernel: one check decides legality and gives the reason.

``Game.legal_actions`` takes a fast path (``kernel.legal`` over masks); it must list
exactly the actions that ``refusals.refusal`` (the one check) finds nothing against,
and ``Game.apply`` must refuse every other action with that very refusal.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from sheepshead import kernel
from sheepshead.actions import (
    ALONE,
    CRACK,
    NOCRACK,
    PASS,
    PICK,
    PLAYS,
    Action,
    Bury,
    Call,
    Move,
    Name,
)
from sheepshead.cards import DECK, FAIL_SUITS, ace_of
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.refusals import IllegalAction, Refusal
from sheepshead.rules import PRESETS


def candidates(game: Game) -> list[Action]:
    """Every action worth asking about now: all that the phase could take, and more."""
    out: list[Action] = [PICK, PASS, ALONE, CRACK, NOCRACK, *PLAYS.values()]
    out += [Name(t) for t in range(0, game.rules.tricks + 2)]
    out += [Call(card) for card in DECK]
    if game.picker is not None:
        hand = game.hands[game.picker]
        out += [Call(ace_of(s), card) for s in FAIL_SUITS for card in hand]
        out += [Call(ace_of(FAIL_SUITS[0]), DECK[0])]
        if game.phase is Phase.BURYING:
            out += [Bury(c) for c in combinations(hand, game.rules.blind_size)]
            out += [Bury(hand[:1]), Bury((*hand[:1], *game.hands[(game.picker + 1) % 2][:1]))]
    return out


def positions(preset: str, hands: int) -> list[Game]:
    rnd = random.Random(f"kernel {preset}")
    rules = PRESETS[preset]
    out = []
    for number in range(hands):
        game = Game.deal(rules, number % rules.players, b"kernel %d" % number)
        while not game.is_done:
            out.append(game)
            legal = game.legal_actions()
            game = game.apply(legal[rnd.randrange(len(legal))])
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_legal_actions_are_those_with_no_refusal(preset: str) -> None:
    for game in positions(preset, 12):
        seat = game.turn
        assert seat is not None
        no_refusal = {a for a in candidates(game) if game.refusal(Move(seat, a)) is None}
        assert set(game.legal_actions()) == no_refusal, (game, game.moves)
        if game.phase is Phase.PLAYING:
            mask = kernel.mask_of(game.legal_cards())
            assert all(
                (card.bit & mask != 0) == (game.refusal(Move(seat, PLAYS[card])) is None)
                for card in game.hands[seat]
            )


@pytest.mark.parametrize("preset", ["standard", "four-handed-called-ace"])
def test_apply_refuses_with_the_checks_refusal(preset: str) -> None:
    refused = 0
    for game in positions(preset, 6):
        seat = game.turn
        assert seat is not None
        for action in candidates(game)[:40]:
            if action in game.legal_actions():
                continue
            expected = game.refusal(Move(seat, action))
            assert isinstance(expected, Refusal)
            with pytest.raises(IllegalAction) as caught:
                game.apply(action)
            assert caught.value.refusal == expected
            assert caught.value.reason == str(expected) == game.why_illegal(Move(seat, action))
            refused += 1
    assert refused > 1000


def test_a_refusal_is_a_code_with_params_and_todays_sentence() -> None:
    refusal = Refusal("must-follow", {"seat": 3, "picker": True, "suit": "H"})
    assert str(refusal) == "the picker must follow hearts"
    assert refusal.to_json() == {
        "code": "must-follow",
        "params": {"seat": 3, "picker": True, "suit": "H"},
        "text": "the picker must follow hearts",
    }
    assert str(Refusal("must-follow", {"seat": 0, "picker": False, "suit": "trump"})) == (
        "seat 0 must follow trump"
    )


def test_the_trick_goes_to_the_highest_eligible_card_and_never_to_the_unknown() -> None:
    qc, ac, tc, ah = (kernel.CARD_AT[b] for b in (31, 5, 4, 17))
    assert kernel.trick_winner([ac.bit, tc.bit, qc.bit], 0, -1) == 2
    assert kernel.trick_winner([tc.bit, ah.bit, ac.bit], 0, -1) == 2
    # The unknown (here AH, counting as clubs) led: it never wins, the next club does.
    assert kernel.trick_winner([ah.bit, tc.bit], ah.bit, 0) == 1
    assert kernel.trick_winner([tc.bit, ah.bit], ah.bit, 0) == 0
