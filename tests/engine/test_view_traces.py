"""Per-seat view traces of golden records (OpenSpiel's playthroughs, for views): each
seat's view at every step, as text, compared with tests/golden/traces/. A leak or any
change of what a seat is shown fails here as a line diff naming the step; the traces
themselves are checked to name no card the seat could not know."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "golden"))
from make_traces import RECORDS, TRACES, seats, states, trace

from sheepshead.cards import Card
from sheepshead.game import Game

CASES = [(name, seat) for name in RECORDS for seat in seats(name)]
IDS = [f"{name}-seat{seat}" for name, seat in CASES]
CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])[789TJQKA][CSHD](?![0-9A-Za-z])")


@pytest.mark.parametrize(("name", "seat"), CASES, ids=IDS)
def test_each_seat_sees_exactly_its_recorded_trace(name: str, seat: int) -> None:
    expected = (TRACES / f"{name}.seat{seat}.jsonl").read_text().splitlines()
    got = trace(name, seat).splitlines()
    assert len(got) == len(expected)
    for step, (line, want) in enumerate(zip(got, expected, strict=True)):
        assert line == want, f"{name}, seat {seat}: the view after action {step} changed"


def knowable(game: Game, seat: int) -> set[str]:
    """The cards whose place the seat may know at this point of a hand in progress: its
    own, the blind and bury if it picked, the cards played face up and the called card."""
    known: set[Card] = set(game.dealt[seat])
    if game.picker == seat:
        known |= set(game.blind)
    face_down = game.unknown if game.picker != seat else None
    played = [c for t in game.tricks for c in t.cards] + list(game.trick_cards)
    known |= {c for c in played if c is not face_down}
    if game.called is not None:
        known.add(game.called)
    return {c.text for c in known}


@pytest.mark.parametrize(("name", "seat"), CASES, ids=IDS)
def test_no_trace_names_a_card_the_seat_could_not_know(name: str, seat: int) -> None:
    lines = (TRACES / f"{name}.seat{seat}.jsonl").read_text().splitlines()
    for step, (game, line) in enumerate(zip(states(name), lines, strict=True)):
        if game.is_done:
            continue
        view = json.loads(line)
        # The picker's call choices name cards it does not hold: they are choices, not facts.
        offered = set(CARD_TEXT.findall(" ".join(view.pop("legal"))))
        seen = set(CARD_TEXT.findall(json.dumps(view)))
        assert seen <= knowable(game, seat) | offered, (name, seat, step)
