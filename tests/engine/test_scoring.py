"""Scoring, as rules.md "Scoring a hand" and "Nobody picks" pin it: the seed's worked
trick and hand, every boundary of the result table, the share of each seat at every
head count, multipliers, and leaster ties.

Full hands for each boundary are golden records (tests/golden/points-60.json, ...);
here the table itself is checked row by row, then through the engine.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from engine.hands import game_of, run
from sheepshead.game import Game
from sheepshead.record import loads, replay
from sheepshead.rules import Result, Rules, picker_result, picker_scores

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

# Everyone passes (a leaster), so seat 1 leads the worked trick: 10C AC 7D KC 9H.
WORKED_TRICK_DEAL = (
    "9H QC QS 8H 7H JH / TC 7C 8C 9C JC QH / AC AS TS KS 9S 8S / "
    "7D 8D 9D KD TD AD / KC 7S TH KH AH QD | JS JD"
)


def test_worked_trick_7d_wins_25() -> None:
    game = run(game_of(WORKED_TRICK_DEAL), "1 pass, 2 pass, 3 pass, 4 pass, 0 pass")
    game = run(game, "1 play 10C, 2 play AC, 3 play 7D, 4 play KC, 0 play 9H")
    trick = game.tricks[0]
    assert [c.text for c in trick.cards] == ["TC", "AC", "7D", "KC", "9H"]
    assert (trick.winner, trick.points) == (3, 25)
    assert game.turn == 3


def test_worked_hand_52_plus_12_is_a_plain_win() -> None:
    text = resources.files("sheepshead").joinpath("examples/worked-hand.json").read_text()
    game = loads(text)
    result = game.result()
    assert result is not None
    side = {result.picker, *result.partners}
    assert sum(t.points for t in result.tricks if t.winner in side) == 52
    assert sum(c.points for c in game.bury) == 12
    assert result.points == (64, 56)
    assert result.result is Result.WIN
    assert result.scores == (-1, -1, 2, -1, 1)  # picker +2, partner +1, defenders -1


# The result table ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "tricks_won", "result"),
    [
        (120, 6, Result.WIN_NO_TRICK),
        (120, 5, Result.WIN_SCHNEIDER),  # a 0-point trick lost: no schwarz
        (91, 3, Result.WIN_SCHNEIDER),
        (90, 3, Result.WIN),
        (61, 2, Result.WIN),
        (60, 2, Result.LOSS),  # 60 to 60 loses
        (31, 1, Result.LOSS),
        (30, 1, Result.LOSS_SCHNEIDER),
        (0, 1, Result.LOSS_SCHNEIDER),  # a 0-point trick is still a trick
        (21, 0, Result.LOSS_NO_TRICK),  # bury points, but no trick
        (64, 0, Result.LOSS_NO_TRICK),  # tricks decide first, even over the bury
    ],
)
def test_result_table(points: int, tricks_won: int, result: Result) -> None:
    assert picker_result(points, tricks_won, 6) is result


@pytest.mark.parametrize(
    ("players", "partners", "result", "multiplier", "scores"),
    [
        (5, {4}, Result.WIN, 1, (-1, -1, 2, -1, 1)),
        (5, {4}, Result.LOSS, 1, (1, 1, -2, 1, -1)),
        (5, {4}, Result.WIN_SCHNEIDER, 1, (-2, -2, 4, -2, 2)),
        (5, {4}, Result.LOSS_NO_TRICK, 2, (6, 6, -12, 6, -6)),
        (5, set(), Result.WIN, 1, (-1, -1, 4, -1, -1)),  # alone: +4m
        (5, set(), Result.WIN_NO_TRICK, 1, (-3, -3, 12, -3, -3)),
        (3, set(), Result.WIN, 1, (-1, -1, 2)),  # 3-handed: +2m
        (3, set(), Result.LOSS_SCHNEIDER, 1, (2, 2, -4)),
        (4, set(), Result.WIN, 1, (-1, -1, 3, -1)),  # 4-handed alone: +3m
        (4, {0}, Result.WIN, 1, (1, -1, 1, -1)),  # 4-handed called ace
        (6, {1, 4}, Result.WIN, 1, (-1, 1, 1, -1, 1, -1)),  # two partners: the balance
        (6, {4}, Result.WIN, 1, (-1, -1, 3, -1, 1, -1)),
        (6, {1, 4}, Result.LOSS, 2, (2, -2, -2, 2, -2, 2)),
    ],
)
def test_shares_by_head_count(
    players: int, partners: set[int], result: Result, multiplier: int, scores: tuple[int, ...]
) -> None:
    got = picker_scores(players, 2, frozenset(partners), result, multiplier)
    assert got == scores
    assert sum(got) == 0


# Multipliers through the engine -------------------------------------------------------


def worked_record() -> dict[str, object]:
    text = resources.files("sheepshead").joinpath("examples/worked-hand.json").read_text()
    data: dict[str, object] = json.loads(text)
    return data


def test_record_multiplier_multiplies_the_hand() -> None:
    result = replay({**worked_record(), "multiplier": 2}).result()
    assert result is not None
    assert result.scores == (-2, -2, 4, -2, 2)
    assert result.multiplier == 2


def test_double_on_the_bump_doubles_a_loss_of_the_pickers_side() -> None:
    # A 60-60 loss: the picker pays 2m, and m doubles on the bump.
    loss = json.loads((GOLDEN / "points-60.json").read_text())
    for rules, factor in (({}, 2), ({"double_on_the_bump": False}, 1)):
        result = replay({**loss, "rules": rules}).result()
        assert result is not None
        assert result.result is Result.LOSS
        picker = result.picker
        assert picker is not None
        assert result.scores[picker] == -2 * factor
        assert result.multiplier == factor


def test_a_win_is_never_bumped() -> None:
    result = replay(worked_record()).result()
    assert result is not None
    assert result.multiplier == 1


def test_multipliers_multiply_record_cracks_and_bump() -> None:
    crack = json.loads((GOLDEN / "crack.json").read_text())
    assert crack["multiplier"] == 2
    result = replay(crack).result()
    assert result is not None
    assert result.result is Result.LOSS
    game = replay(crack)
    assert len(game.cracks) == 2
    assert result.multiplier == 2 * 2 * 2 * 2  # record x crack x crack x bump
    assert result.scores == (16, -32, 16, -16, 16)


@pytest.mark.parametrize(("bump", "factor"), [(True, 2), (False, 1)])
def test_forced_pick_bump_option(bump: bool, factor: int) -> None:
    record = json.loads((GOLDEN / "forced-pick.json").read_text())
    record["rules"] = {**record["rules"], "forced_pick_bump": bump}
    result = replay(record).result()
    assert result is not None
    assert result.result is Result.LOSS
    assert result.picker == 0
    assert result.scores == (-4 * factor, factor, factor, factor, factor)


def test_the_no_bump_option_applies_only_to_a_forced_pick() -> None:
    # Under leaster rules a dealer who picks chose to: the no-bump option does not apply.
    record = json.loads((GOLDEN / "forced-pick.json").read_text())
    record["rules"] = {"forced_pick_bump": False}
    result = replay(record).result()
    assert result is not None
    assert result.multiplier == 2


# Leaster ------------------------------------------------------------------------------


def leaster(name: str) -> tuple[tuple[int, ...], tuple[int, ...], Game]:
    game = replay(json.loads((GOLDEN / f"{name}.json").read_text()))
    result = game.result()
    assert result is not None
    assert result.result is Result.LEASTER
    assert result.points is not None
    assert result.picker is None
    assert result.partners == ()
    assert not result.alone
    return result.points, result.scores, game


def test_leaster_fewest_points_among_trick_takers_wins_one_from_each() -> None:
    points, scores, game = leaster("leaster-named-trick")
    takers = {t.winner for t in game.tricks}
    assert 3 not in takers
    assert points[3] == 0
    assert scores == (4, -1, -1, -1, -1)
    assert points[0] == min(points[s] for s in takers)


def test_leaster_without_the_trick_rule_a_seat_with_no_trick_may_win() -> None:
    points, scores, game = leaster("leaster-no-trick-may-win")
    assert 0 not in {t.winner for t in game.tricks}
    assert points[0] == 0
    assert scores == (4, -1, -1, -1, -1)


def test_leaster_tied_winners_each_get_one_from_each_non_winner() -> None:
    points, scores, _ = leaster("leaster-tie")
    assert points == (0, 48, 44, 14, 14)  # seat 0 took no trick, so it cannot win
    assert scores == (-2, -2, -2, 3, 3)


def test_leaster_all_tie_nobody_scores() -> None:
    points, scores, _ = leaster("leaster-all-tie")
    assert len(set(points)) == 1
    assert scores == (0, 0, 0)


@pytest.mark.parametrize(
    ("name", "blind_to"),
    [("leaster-last-trick", "last"), ("leaster-named-trick", "named"), ("leaster-aside", None)],
)
def test_leaster_blind_goes_to_the_seat_the_rule_names(name: str, blind_to: str | None) -> None:
    points, _, game = leaster(name)
    blind = sum(c.points for c in game.blind)
    taken = [0] * game.players
    for trick in game.tricks:
        taken[trick.winner] += trick.points
    if blind_to is None:
        assert list(points) == taken
        assert sum(points) == 120 - blind
        return
    index = -1 if blind_to == "last" else (game.named_trick or 0) - 1
    seat = game.tricks[index].winner
    taken[seat] += blind
    assert list(points) == taken
    assert sum(points) == 120


def test_leaster_multiplier_after_a_doubler() -> None:
    record = json.loads((GOLDEN / "leaster-tie.json").read_text())
    result = replay({**record, "multiplier": 2}).result()
    assert result is not None
    assert result.scores == (-4, -4, -4, 6, 6)


def test_doubler_scores_nothing() -> None:
    rules = Rules(nobody_picks="doubler")  # type: ignore[arg-type]
    game = run(Game.deal(rules, 0, b"d"), "1 pass, 2 pass, 3 pass, 4 pass, 0 pass")
    result = game.result()
    assert result is not None
    assert result.result is Result.DOUBLER
    assert result.scores == (0,) * 5
