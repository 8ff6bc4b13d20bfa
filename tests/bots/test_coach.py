"""The coach (``sheepshead.coach``) and ``sheepshead analyze``.

It judges each decision of a seat from what that seat could see: the JSON it prints
is pinned by issue 17 (docs/bots.md); a forced decision costs nothing; moving hidden
cards between the other seats changes nothing; and on positions the engine plants
(a schmear to a sure opponent trick proven to give 10 points away for nothing, one to a
sure partner trick proven right) it flags the errors and leaves the right plays alone.
Sample counts here are small: the 200-position runs are ``bench/coach.py``.
"""

from __future__ import annotations

import functools
import io
import json
import random
import sys
from contextlib import redirect_stderr, redirect_stdout
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from sheepshead import coach
from sheepshead.bots import make_bot
from sheepshead.bots.arena import bot_policy, deal_seed, play_hand
from sheepshead.cli import main
from sheepshead.coach.judge import Effort, evaluate
from sheepshead.record import replay, to_record
from sheepshead.rules import preset

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from coach_positions import cut_at, moved, planted
from coach_proof import worlds

QUICK = Effort(first=8, batch=8, most=16)
#: Fewer worlds than a review's, enough to tell these positions apart.
PLANTED = Effort(most=240, card_playouts=1200)


def _hand(index: int) -> dict[str, Any]:
    std = bot_policy(make_bot("standard"))
    seed = deal_seed("coach-test", index)
    game = play_hand(preset("standard"), index % 5, seed, [std] * 5, [None] * 5)
    return to_record(game)


def _analyze(tmp_path: Path, record: dict[str, Any], *args: str) -> tuple[int, str, str]:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["analyze", str(path), *args])
    return code, out.getvalue(), err.getvalue()


def test_analyze_json_lists_every_decision_of_the_seat_and_forced_ones_cost_nothing(
    tmp_path: Path,
) -> None:
    record = _hand(0)
    code, out, _ = _analyze(tmp_path, record, "--seat", "2", "--json")
    assert code == 0
    rows = json.loads(out)
    mine = [i for i, a in enumerate(record["actions"]) if a.startswith("2 ")]
    assert [r["index"] for r in rows] == mine
    assert [r["action"] for r in rows] == [record["actions"][i] for i in mine]
    for row in rows:
        assert set(row) == {"index", "action", "best", "loss", "card_points_loss", "label"}
        assert row["best"].startswith("2 ")
        assert row["loss"] >= 0
        assert row["label"] in (None, "inaccuracy", "mistake", "blunder")
    # The last card of a hand is always forced: listed, with no loss and no label.
    last = rows[-1]
    assert last == {**last, "best": last["action"], "loss": 0, "label": None}
    assert last["card_points_loss"] == 0


def test_analyze_defaults_to_seat_0_and_says_why_it_cannot_read(tmp_path: Path) -> None:
    record = _hand(1)
    code, out, _ = _analyze(tmp_path, record)
    assert code == 0
    assert out.splitlines()[0].split()[1] == "0"
    bad = {**record, "actions": [*record["actions"][:3], "9 play QC"]}
    code, out, err = _analyze(tmp_path, bad, "--json")
    assert code == 1
    assert out == ""
    assert "action 3" in err
    code, _, err = _analyze(tmp_path, record, "--seat", "7")
    assert code == 1
    assert "no seat 7" in err


def test_a_forced_decision_is_not_searched() -> None:
    record = _hand(2)
    _, view, action = list(coach.decisions(record, 3))[-1]
    ev = evaluate(view, action, QUICK)
    assert ev.forced
    assert ev.worlds == 0
    assert ev.loss == 0
    assert ev.label is None


@pytest.mark.parametrize("index", [3, 4])
def test_moving_hidden_cards_between_other_seats_changes_nothing(index: int) -> None:
    rnd = random.Random(index)
    record = _hand(index)
    seat = index % 5
    cut = cut_at(record, seat, 3)
    assert cut is not None
    alt = moved(cut, seat, rnd)
    assert alt is not None
    assert alt["hands"] != cut["hands"]
    first = [j.to_json() for j in coach.review(cut, seat, QUICK)]
    second = [j.to_json() for j in coach.review(alt, seat, QUICK)]
    assert first == second


def _judge(p: Any) -> coach.Evaluation:
    _, view, action = list(coach.decisions(p.record, p.seat))[-1]
    return evaluate(view, action, PLANTED)


@functools.cache
def _planted_errors() -> list[tuple[Any, coach.Evaluation]]:
    """Six planted schmears to an opponent, each judged once for the tests below."""
    return [(p, _judge(p)) for p in planted(6, error=True, seed="coach-test")]


def test_planted_schmears_to_an_opponent_are_caught() -> None:
    # Each position is proven by an open-card search to give 10 card points away for
    # nothing (bench/coach_proof.py); the rate over 200 is in docs/performance.md.
    caught = 0
    losses = []
    for _, ev in _planted_errors():
        caught += ev.label is not None or (ev.card_points_loss >= 8 and ev.best != ev.played)
        losses.append(ev.card_points_loss)
    assert caught >= 5
    assert all(loss > 0 for loss in losses)


def test_the_proofs_worlds_look_the_same_to_the_seat() -> None:
    # The planted positions are proven in deals the seat cannot tell from the real one.
    for p in planted(2, error=True, seed="coach-test"):
        before = {**p.record, "actions": p.record["actions"][:-1]}
        game = replay(before)
        seen = game.view(p.seat).canonical_text()
        others = list(islice(worlds(before, p.seat, random.Random(0)), 6))
        assert all(w.view(p.seat).canonical_text() == seen for w in others)
        assert any(w.hands != game.hands for w in others)


def test_schmears_to_a_partners_sure_trick_are_left_alone() -> None:
    for p in planted(5, error=False, seed="coach-test"):
        ev = _judge(p)
        assert ev.label not in ("mistake", "blunder"), (p.record, ev)


def test_a_flagged_decision_gets_a_reason_in_words() -> None:
    for p, ev in _planted_errors():
        _, view, _ = list(coach.decisions(p.record, p.seat))[-1]
        if ev.label is None:
            continue
        reason = coach.reasons.reason_for(view, ev)
        assert reason is not None
        assert reason.code == "schmear-to-opponent"
        text = coach.words(reason)
        assert p.schmear.text in text
        return
    pytest.fail("no planted schmear was flagged")
