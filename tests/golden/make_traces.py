"""Write the per-seat view traces of tests/golden/traces/ (run from the repository root):

    .venv/bin/python tests/golden/make_traces.py

A trace is what one seat saw of one golden record: that seat's view (`SeatView.to_json`,
the same text the computer players seed their choices from) before the first action and
after every action, one line each. A leak, or any change of what a seat is shown, then
shows as a diff of these files; tests/engine/test_view_traces.py compares them with a fresh
replay. After a deliberate change of the view, rerun this and read the diff before
committing it.
"""

from __future__ import annotations

import json
from pathlib import Path

from sheepshead.actions import parse_move
from sheepshead.game import Game
from sheepshead.record import start_of

HERE = Path(__file__).resolve().parent
TRACES = HERE / "traces"

#: Records that between them show every kind of hidden information: the blind and the
#: bury, the unknown card, a secret partner, the alone call, cracking, the jack of
#: diamonds, leasters, and the other table sizes.
RECORDS = (
    "unknown",
    "alone",
    "crack",
    "jack-of-diamonds",
    "leaster-named-trick",
    "three-handed",
    "four-handed-called-ace",
    "six-handed",
)


def states(name: str) -> list[Game]:
    """The record's hand before the first action and after each action."""
    data = json.loads((HERE / f"{name}.json").read_text())
    game = start_of(data)
    out = [game]
    for text in data["actions"]:
        game = game.apply_move(parse_move(text))
        out.append(game)
    return out


def trace(name: str, seat: int) -> str:
    """The seat's view at every step of the record, one canonical JSON line a step."""
    return "".join(game.view(seat).canonical_text() + "\n" for game in states(name))


def seats(name: str) -> range:
    data = json.loads((HERE / f"{name}.json").read_text())
    return range(len(data["hands"]))


def main() -> None:
    TRACES.mkdir(exist_ok=True)
    for name in RECORDS:
        for seat in seats(name):
            (TRACES / f"{name}.seat{seat}.jsonl").write_text(trace(name, seat))


if __name__ == "__main__":
    main()
