"""Hand records (hand-record.md): golden records judged by `sheepshead check` as a
process, writing and reading back, positions, and the pinned order of legal actions.

The golden records in tests/golden/ were made by tests/golden/make_golden.py and read
one by one to confirm each shows what its name says (a called ace, a 60-60 loss, ...).
"""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from engine.hands import game_of, legal, run
from sheepshead.game import Game
from sheepshead.record import FORMAT, RecordError, check, dumps, loads, replay, to_record
from sheepshead.rules import PRESETS, Rules

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
NAMES = sorted(p.name.removesuffix(".expected.json") for p in GOLDEN.glob("*.expected.json"))
SHEEPSHEAD = Path(sys.executable).parent / "sheepshead"


def sheepshead_check(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [str(SHEEPSHEAD)] if SHEEPSHEAD.exists() else [sys.executable, "-m", "sheepshead.cli"]
    return subprocess.run(
        [*command, "check", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    return data


def test_every_kind_of_hand_has_a_golden_record() -> None:
    kinds = {
        "called-ace", "unknown", "ten", "alone", "leaster-last-trick", "leaster-named-trick",
        "leaster-aside", "doubler", "crack", "jack-of-diamonds", "jack-of-hearts",
        "second-partner", "three-handed", "four-handed", "four-handed-called-ace",
        "six-handed", "forced-pick", "points-60", "points-61", "points-90", "points-91",
        "points-30", "points-31", "every-trick", "no-trick", "bury-decides",
    }  # fmt: skip
    assert kinds <= set(NAMES)
    assert len([n for n in NAMES if n.startswith("illegal-")]) >= 8


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_checked_as_a_process(name: str) -> None:
    done = sheepshead_check(str(GOLDEN / f"{name}.json"))
    want = expected(name)
    assert done.stderr == ""
    assert done.stdout.endswith("\n"), "one JSON object, one line"
    assert done.stdout.count("\n") == 1, "one JSON object, one line"
    assert json.loads(done.stdout) == want
    assert done.stdout == json.dumps(want) + "\n"  # byte for byte, keys in the documented order
    assert done.returncode == (0 if want["ok"] else 1)


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_in_process_agrees_and_round_trips(name: str) -> None:
    text = (GOLDEN / f"{name}.json").read_text()
    code, output = check(text)
    assert output == expected(name)
    assert code == (0 if output["ok"] else 1)
    if not output["ok"]:
        return
    game = loads(text)
    again = replay(json.loads(dumps(game)))
    assert again.moves == game.moves
    assert again.result() == game.result()
    if name != "reader-forms":  # written in canonical form already
        assert to_record(game) == json.loads(text)


def test_golden_results_show_what_their_names_say() -> None:
    def result(name: str) -> tuple[Any, ...]:
        out = expected(name)
        return (out["result"], out["points"], out["scores"])

    assert result("points-60")[:2] == ("loss", [60, 60])
    assert result("points-61")[:2] == ("win", [61, 59])
    assert result("points-90")[:2] == ("win", [90, 30])
    assert result("points-91")[:2] == ("win-schneider", [91, 29])
    assert result("points-31")[:2] == ("loss", [31, 89])
    assert result("points-30")[:2] == ("loss-schneider", [30, 90])
    assert result("every-trick")[0] == "win-no-trick"
    assert result("zero-point-trick-lost")[:2] == ("win-schneider", [120, 0])
    no_trick = expected("no-trick")
    assert no_trick["result"] == "loss-no-trick"
    assert no_trick["points"][0] > 0
    assert expected("doubler")["tricks"] == []
    assert expected("doubler")["points"] is None
    crack = expected("crack")  # record multiplier 2, two cracks, bumped: 16 a defender
    assert crack["scores"] == [16, -32, 16, -16, 16]
    assert expected("second-partner")["partners"] == [0, 2]


# Writing and reading ----------------------------------------------------------------


def test_a_record_is_written_in_canonical_form_and_replays() -> None:
    game = run(game_of("* / * / * / * / * | *"), "1 pass, 2 pick, 2 bury 8H 7H")
    record = to_record(game)
    assert list(record) == ["format", "rules", "dealer", "hands", "blind", "actions"]
    assert record["format"] == FORMAT
    assert record["rules"] == {}
    assert record["actions"] == ["1 pass", "2 pick", "2 bury 7H 8H"]
    assert replay(record).moves == game.moves


def test_readers_accept_10_for_t_and_a_bury_in_any_order() -> None:
    game = run(game_of("* / * / * / * / * | *"), "1 pass, 2 pass, 3 pick")
    record = to_record(game)
    record["actions"].append("3 bury 10H 9H")
    assert str(replay(record).moves[-1]) == "3 bury 9H TH"


def test_multiplier_is_written_only_when_not_one() -> None:
    game = Game.deal(Rules(), 0, b"m", multiplier=2)
    assert to_record(game)["multiplier"] == 2
    assert replay(to_record(game)).multiplier == 2
    assert "multiplier" not in to_record(Game.deal(Rules(), 0, b"m"))


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"format": "sheepshead-hand/2"}, 'format must be "sheepshead-hand/1"'),
        ({"dealer": -1}, "dealer must be a seat from 0 to 4"),
        ({"multiplier": 0}, "multiplier must be a positive integer"),
        ({"hands": "QC"}, "hands must be a list with one list of cards per seat"),
        ({"blind": ["QC"]}, "the blind must hold 2 cards, not 1"),
        ({"rules": {"players": 4}}, "4 players need 4 hands, not 5"),
        ({"actions": "1 pass"}, "actions must be a list of action strings"),
        ({"seed": "00"}, "unknown record field: seed"),
    ],
)
def test_a_bad_field_is_refused_with_action_null(change: dict[str, Any], error: str) -> None:
    record = {**to_record(game_of("* / * / * / * / * | *")), **change}
    code, output = check(json.dumps(record))
    assert (code, output) == (1, {"ok": False, "action": None, "error": error})


@pytest.mark.parametrize(
    ("actions", "index", "error"),
    [
        (["1 pass", "2 dance"], 1, "cannot read action '2 dance': unknown action verb 'dance'"),
        (["1 pass", "two pick"], 1, "cannot read action 'two pick': an action starts with its seat number: 'two pick'"),  # noqa: E501
        (["1 pick", "1 bury 7C"], 1, "the picker buries 2 cards, not 1"),
        (["1 pass", "2 pass", "3 pass", "4 pass", "0 pass", "0 name 2"], 5, "it is seat 1's turn, not seat 0's"),  # noqa: E501
    ],
)  # fmt: skip
def test_a_bad_action_is_refused_with_its_index(actions: list[str], index: int, error: str) -> None:
    record = {**to_record(game_of("* / * / * / * / * | *")), "actions": actions}
    code, output = check(json.dumps(record))
    assert (code, output) == (1, {"ok": False, "action": index, "error": error})


def test_record_error_carries_the_index() -> None:
    record = {**to_record(game_of("* / * / * / * / * | *")), "actions": ["1 pass", "1 pass"]}
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.action == 1
    assert caught.value.message == "it is seat 2's turn, not seat 1's"


# Positions ----------------------------------------------------------------------------


def test_a_position_lists_every_bury_in_byte_order() -> None:
    out = expected("position-bury")
    seat = out["next"]["seat"]
    record = json.loads((GOLDEN / "position-bury.json").read_text())
    cards = [*record["hands"][seat], *record["blind"]]
    every = sorted(f"{seat} bury {' '.join(sorted(pair))}" for pair in combinations(cards, 2))
    assert out["next"]["legal"] == every
    assert len(every) == 28
    assert every == sorted(every, key=lambda s: s.encode())


def test_a_four_handed_position_lists_every_four_card_bury() -> None:
    game = run(Game.deal(PRESETS["four-handed"], 0, b"bury four"), "1 pick")
    code, output = check(dumps(game))
    assert code == 0
    assert output["complete"] is False
    assert len(output["next"]["legal"]) == 330
    assert output["next"]["legal"] == sorted(output["next"]["legal"])


def test_a_position_with_no_actions_asks_the_first_seat() -> None:
    code, output = check(dumps(Game.deal(Rules(), 2, b"start")))
    assert (code, output) == (
        0,
        {"ok": True, "complete": False, "next": {"seat": 3, "legal": ["3 pass", "3 pick"]}},
    )


# Pinned order of legal actions (as scalachess's MoveOrderTest) ---------------------------


def test_pinned_legal_order_standard_seed() -> None:
    game = Game.deal(Rules(), 0, b"order-1")
    assert legal(game) == ["pass", "pick"]
    game = run(game, "1 pass, 2 pick")
    buries = legal(game)
    assert buries[:4] == ["bury 8H 8S", "bury 8H 9D", "bury 8H AS", "bury 8H KS"]
    assert buries[-3:] == ["bury QD QH", "bury QD QS", "bury QH QS"]
    game = run(game, "2 bury 8H QH")
    assert legal(game) == [
        "alone",
        *(f"call AC unknown {c}" for c in ("8S", "9D", "AS", "KS", "QD", "QS")),
        *(f"call AH unknown {c}" for c in ("8S", "9D", "AS", "KS", "QD", "QS")),
    ]
    game = run(game, "2 call AC unknown 8S")
    assert legal(game) == ["play 7H", "play 8D", "play AH", "play JC", "play KD", "play QC"]


def test_pinned_legal_order_unknown_calls_and_three_handed_names() -> None:
    game = game_of(
        "AH QC 7C 8C TS 8D / QS JS TH KH 9C AC / QH JH 7H 9H TC KC / "
        "AS 9S 8S QD JC 7D / JD AD TD KD 9D 8H | KS 7S"
    )
    game = run(game, "1 pass, 2 pass, 3 pick, 3 bury 7S KS")
    assert legal(game)[:4] == [
        "alone",
        "call AC unknown 7D",
        "call AC unknown 8S",
        "call AC unknown 9S",
    ]
    game = Game.deal(Rules(players=3, leaster_blind="named-trick"), 1, b"order-3")  # type: ignore[arg-type]
    game = run(game, "2 pass, 0 pass, 1 pass")
    assert legal(game) == ["name 1", "name 10", *(f"name {t}" for t in range(2, 10))]
