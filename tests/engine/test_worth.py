"""What the hand is worth, as the table shows it (``view.hand_worth``): the kind of
hand, the picker's side's card points as one seat knows them, the multiplier and why."""

from __future__ import annotations

import hashlib
import itertools
import random

from sheepshead.actions import Crack, Pass, Pick
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import NobodyPicks, Rules
from sheepshead.view import hand_worth


def _play_out(game: Game, rng: random.Random, crack: bool = False) -> list[Game]:
    states = [game]
    while game.phase is not Phase.DONE:
        legal = game.legal_actions()
        cracks = [a for a in legal if isinstance(a, Crack)]
        game = game.apply(cracks[0] if crack and cracks else rng.choice(legal))
        states.append(game)
    return states


def _cracked_and_lost() -> list[Game]:
    rules = Rules(cracking=True)
    for i in itertools.count():
        seed = hashlib.sha256(b"crack %d" % i).digest()
        rng = random.Random(i)
        game = Game.deal(rules, 4, seed).apply(Pick())  # seat 0 picks, seats 1-4 may crack
        states = _play_out(game, rng, crack=True)
        result = states[-1].result()
        if states[-1].cracks and result is not None and result.result.is_loss:
            return states
    raise AssertionError("unreachable")


def test_a_crack_doubles_the_hand_and_a_loss_doubles_it_again() -> None:
    states = _cracked_and_lost()
    cracked = next(g for g in states if g.cracks)
    worth = hand_worth(cracked.view(2))
    assert worth.kind == "picker"
    assert worth.multiplier == 2
    assert [(d.reason, d.seat) for d in worth.doublings] == [("crack", cracked.cracks[0])]
    assert worth.bump_if_lost
    done = hand_worth(states[-1].view(2))
    result = states[-1].result()
    assert result is not None
    cracks = len(states[-1].cracks)
    assert done.multiplier == result.multiplier == 2 ** (cracks + 1)
    assert [d.reason for d in done.doublings] == ["crack"] * cracks + ["bump"]
    assert not done.bump_if_lost
    assert result.points is not None
    assert done.side_points == result.points[0]


def test_the_picker_counts_the_bury_and_a_defender_does_not() -> None:
    rng = random.Random(3)
    game = Game.deal(Rules(players=3), 2, b"\x01" * 32).apply(Pick())  # seat 0 picks
    states = _play_out(game, rng)
    for state in states[2:-1]:
        bury = sum(c.points for c in state.bury)
        mine = sum(t.points for t in state.tricks if t.winner == 0)
        picker = hand_worth(state.view(0))
        assert picker.kind == "alone"
        assert picker.side_points == mine + bury
        assert picker.bury_points == bury
        defender = hand_worth(state.view(1))
        assert defender.side_points == mine
        assert defender.bury_points is None


def test_a_doubled_hand_a_leaster_and_a_thrown_in_hand() -> None:
    doubled = Game.deal(Rules(), 4, b"\x02" * 32, multiplier=2)
    worth = hand_worth(doubled.view(1))
    assert worth.kind == "picking"
    assert worth.side_points is None
    assert worth.multiplier == 2
    assert [d.reason for d in worth.doublings] == ["doubler"]
    game = Game.deal(Rules(), 4, b"\x03" * 32)
    for _ in range(5):
        game = game.apply(Pass())
    assert hand_worth(game.view(0)).kind == "leaster"
    thrown = Game.deal(Rules(nobody_picks=NobodyPicks.DOUBLER), 4, b"\x03" * 32)
    for _ in range(5):
        thrown = thrown.apply(Pass())
    assert hand_worth(thrown.view(0)).kind == "thrown-in"
