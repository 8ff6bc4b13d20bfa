"""A match: hands at one table, the deal passing left, running scores, doublers owed."""

from __future__ import annotations

import pytest

from sheepshead.actions import Pass, Pick
from sheepshead.match import Match
from sheepshead.rules import Result, Rules

DOUBLER = Rules(nobody_picks="doubler")  # type: ignore[arg-type]


def play(match: Match, seed: bytes, passing: bool) -> Match:
    """Deal the next hand and play it out: everyone passes, or the first seat picks and
    then each seat takes its first legal action."""
    match = match.start_hand(seed)
    while match.current is not None:
        legal = match.current.legal_actions()
        picking = Pick() in legal
        match = match.apply((Pass() if passing else Pick()) if picking else legal[0])
    return match


def test_the_deal_passes_left_after_every_hand_thrown_in_included() -> None:
    match = Match(DOUBLER, first_dealer=3)
    for number, passing in enumerate([False, True, False, True, False, False]):
        match = play(match, b"hand %d" % number, passing)
    assert [g.dealer for g in match.hands] == [3, 4, 0, 1, 2, 3]
    assert [g.is_doubler for g in match.hands] == [False, True, False, True, False, False]
    assert match.next_dealer == 4


def test_dealers_rotate_and_scores_run() -> None:
    match = Match(Rules(), first_dealer=3)
    totals = [0] * 5
    for number in range(7):
        match = play(match, b"run %d" % number, passing=False)
        last = match.hands[-1]
        result = last.result()
        assert result is not None
        assert sum(result.scores) == 0
        totals = [a + b for a, b in zip(totals, result.scores, strict=True)]
        assert list(match.scores) == totals
    assert [g.dealer for g in match.hands] == [3, 4, 0, 1, 2, 3, 4]
    assert match.next_dealer == 0
    assert match.current is None


def test_a_doubler_doubles_the_next_hand() -> None:
    match = play(Match(DOUBLER), b"one", passing=True)
    assert match.hands[-1].result().result is Result.DOUBLER  # type: ignore[union-attr]
    assert match.doubles_owed == 1
    assert match.scores == (0,) * 5
    match = play(match, b"two", passing=False)
    game = match.hands[-1]
    result = game.result()
    assert game.multiplier == 2
    assert result is not None
    assert result.multiplier % 2 == 0
    assert match.doubles_owed == 0
    match = play(match, b"three", passing=False)
    assert match.hands[-1].multiplier == 1


def test_two_doublers_in_a_row_double_the_next_two_hands_not_one_hand_four_times() -> None:
    match = play(Match(DOUBLER), b"one", passing=True)
    match = play(match, b"two", passing=True)
    assert [g.multiplier for g in match.hands] == [1, 2]  # the second was thrown in doubled
    assert match.doubles_owed == 2
    for seed in (b"three", b"four", b"five"):
        match = play(match, seed, passing=False)
    assert [g.multiplier for g in match.hands] == [1, 2, 2, 2, 1]
    assert match.doubles_owed == 0


def test_doubled_hand_scores_twice_the_same_hand_undoubled() -> None:
    doubled = play(play(Match(DOUBLER), b"one", passing=True), b"deal", passing=False)
    plain = play(Match(DOUBLER, first_dealer=1), b"deal", passing=False)
    assert doubled.hands[-1].dealt == plain.hands[-1].dealt
    assert doubled.scores == tuple(2 * s for s in plain.scores)
    assert any(doubled.scores)


def test_a_hand_must_finish_before_the_next_is_dealt() -> None:
    match = Match(Rules()).start_hand(b"a")
    with pytest.raises(ValueError, match="not finished"):
        match.start_hand(b"b")
    with pytest.raises(ValueError, match="start one first"):
        Match(Rules()).apply(Pick())


def test_first_dealer_must_be_a_seat() -> None:
    with pytest.raises(ValueError, match="first_dealer must be a seat from 0 to 2"):
        Match(Rules(players=3), first_dealer=3)
