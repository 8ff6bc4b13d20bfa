"""`sheepshead bot`: the long-running player other programs talk to, one line each way.

It reads hand-record positions, one JSON object per line, and answers each with the
action of the seat to act (``3 play TD``) or ``error: <reason>``, flushed at once.
Its answer depends only on the level, the seed and that seat's view: other seats'
hidden cards, which the record holds, must never change it.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheepshead.actions import Move, Play, parse_move
from sheepshead.bots import decide
from sheepshead.bots.rng import Rng
from sheepshead.cli import bot_answer
from sheepshead.game import Game
from sheepshead.record import to_record
from sheepshead.refusals import IllegalAction
from sheepshead.rules import PRESETS, Rules

ROOT = Path(__file__).resolve().parents[2]
BOT = [sys.executable, "-m", "sheepshead.cli", "bot"]


def _positions(seed: bytes, count: int, rules: Rules | None = None) -> list[Game]:
    """The positions of one hand played by standard bots, every decision of it."""
    game = Game.deal(rules or Rules(), 0, seed)
    out: list[Game] = []
    while not game.is_done and len(out) < count:
        out.append(game)
        game = game.apply(decide("standard", game.view(game.turn or 0)))
    return out


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_answers_one_line_per_position_in_record_form() -> None:
    games = _positions(b"cli", 40)
    lines = [json.dumps(to_record(g)) for g in games]
    lines += ["not json", "", json.dumps({"format": "sheepshead-hand/1", "dealer": 0})]
    done = games[-1]
    while not done.is_done:
        done = done.apply(decide("standard", done.view(done.turn or 0)))
    lines.append(json.dumps(to_record(done)))
    bad = to_record(games[10])
    bad["actions"].append(f"{games[10].turn} play 7Z")
    lines.append(json.dumps(bad))
    proc = subprocess.run(
        [*BOT, "--level", "standard", "--seed", "3"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    answers = proc.stdout.splitlines()
    assert len(answers) == len(lines)
    for game, answer in zip(games, answers, strict=False):
        move = parse_move(answer)
        assert move.seat == game.turn
        assert move.action in game.legal_actions()
        assert answer == str(Move(move.seat, move.action))  # canonical text: TD, sorted bury
        assert answer == bot_answer("standard", 3, json.dumps(to_record(game)))
    errors = answers[len(games) :]
    assert errors[0].startswith("error: not JSON")
    assert errors[1].startswith("error: empty line")
    assert errors[2].startswith("error: ")
    assert "rules" not in errors[2]
    assert errors[3] == "error: the hand is over: there is nothing to decide"
    assert errors[4].startswith(f"error: action {len(bad['actions']) - 1}: cannot read action")
    assert "reading one hand record per line" in proc.stderr  # logs go to standard error


def test_answers_are_flushed_at_once() -> None:
    game = _positions(b"flush", 1)[0]
    proc = subprocess.Popen(
        [*BOT, "--level", "beginner"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=_env(),
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    try:
        for _ in range(3):  # each answer arrives while the input is still open
            proc.stdin.write(json.dumps(to_record(game)) + "\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, "no answer within 60 s: the bot did not flush"
            move = parse_move(proc.stdout.readline())
            assert move.seat == game.turn
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0  # exits at the end of its input


def test_unknown_level_is_refused() -> None:
    proc = subprocess.run(
        [*BOT, "--level", "grandmaster"],
        input="",
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""


def _hidden_walk(game: Game, seat: int, rng: Rng, steps: int) -> Game | None:
    """The same actions on a deal where cards this seat cannot see have moved between
    the other seats (and an unseen blind), when the actions stay legal there."""
    played = {m.action.card for m in game.moves if isinstance(m.action, Play)}
    fixed = set(game.dealt[seat]) | played | set(game.bury)
    if game.unknown is not None:
        fixed.add(game.unknown)
    if seat == game.picker:
        fixed |= set(game.blind)
    slots = [list(h) for h in game.dealt] + [list(game.blind)]
    movable = [
        (i, j) for i, cards in enumerate(slots) for j, c in enumerate(cards) if c not in fixed
    ]
    if len(movable) < 2:
        return None
    best: Game | None = None
    for _ in range(steps):
        (a, i), (b, j) = rng.choice(movable), rng.choice(movable)
        if a == b:
            continue
        slots[a][i], slots[b][j] = slots[b][j], slots[a][i]
        try:
            other = Game.from_deal(game.rules, game.dealer, slots[:-1], slots[-1])
            for move in game.moves:
                other = other.apply_move(move)
        except IllegalAction:
            slots[a][i], slots[b][j] = slots[b][j], slots[a][i]  # undo: not legal there
            continue
        best = other
    return best


@settings(max_examples=40, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.binary(min_size=1, max_size=6),
    at=st.integers(0, 60),
    level=st.sampled_from(["beginner", "standard"]),
)
def test_answer_depends_only_on_the_seats_view(
    preset: str, seed: bytes, at: int, level: str
) -> None:
    games = _positions(seed, 80, PRESETS[preset])
    game = games[at % len(games)]
    seat = game.turn
    assert seat is not None
    other = _hidden_walk(game, seat, Rng.from_bytes(seed + bytes([at])), 30)
    if other is None or other.dealt == game.dealt:
        return  # nothing this seat cannot see could move without breaking the record
    assert other.view(seat).canonical_text() == game.view(seat).canonical_text()
    text_a = json.dumps(to_record(game))
    text_b = json.dumps(to_record(other))
    assert bot_answer(level, 5, text_a) == bot_answer(level, 5, text_b)


def test_seed_is_part_of_the_decision_but_fixed_seed_is_repeatable() -> None:
    game = _positions(b"seeded", 30)[-1]
    text = json.dumps(to_record(game))
    assert bot_answer("beginner", 1, text) == bot_answer("beginner", 1, text)


@pytest.mark.parametrize("flag", [[], ["--json"]])
def test_arena_command_reports(flag: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from sheepshead.cli import main

    code = main(["arena", "--deals", "3", "--deal-seed", "cli-test", "--resamples", "50", *flag])
    assert code == 0
    out = capsys.readouterr().out
    if flag:
        report = json.loads(out)
        assert report["deals"] == 3
        assert report["candidate"] == "standard"
        assert len(report["edge"]["ci95"]) == 2
        assert report["candidate_stats"]["ms_p99"] is not None
    else:
        assert out.startswith("standard vs beginner: 3 deals x 5 seats")


def test_arena_seats_an_outside_bot_program(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sheepshead.cli import main

    command = " ".join([*BOT, "--level", "beginner"])
    monkeypatch.setenv("PYTHONPATH", _env()["PYTHONPATH"])
    code = main(
        [
            "arena",
            "--deals",
            "2",
            "--deal-seed",
            "cli-test",
            "--baseline-command",
            command,
            "--resamples",
            "20",
            "--json",
        ]
    )
    assert code == 0
    outside = json.loads(capsys.readouterr().out)
    main(["arena", "--deals", "2", "--deal-seed", "cli-test", "--resamples", "20", "--json"])
    inside = json.loads(capsys.readouterr().out)
    # The program plays the beginner exactly as the in-process beginner does.
    assert outside["edge"] == inside["edge"]


def test_arena_plays_a_house_rule_over_the_preset(capsys: pytest.CaptureFixture[str]) -> None:
    from sheepshead.cli import main

    args = ["arena", "--deals", "2", "--deal-seed", "cli-test", "--resamples", "20", "--json"]
    code = main([*args, "--rules", "four-handed", "--rule", "cracking=true"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rules"] == {"players": 4, "cracking": True}
    with pytest.raises(SystemExit, match=r"NAME one of partner.*not 'craking=true'"):
        main([*args, "--rule", "craking=true"])
    with pytest.raises(SystemExit, match="cracking must be true or false"):
        main([*args, "--rule", "cracking=7"])
    # Checked at the table's own head count: no partner is a three-handed rule.
    assert main([*args, "--rules", "three-handed", "--rule", "partner=none"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == {"players": 3}
    with pytest.raises(SystemExit, match=r"partner .none. is played with 3 or 4 players"):
        main([*args, "--rule", "partner=none"])
