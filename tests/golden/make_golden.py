"""Write the golden hand records of tests/golden/ (run from the repository root):

    .venv/bin/python tests/golden/make_golden.py

Each complete record is found by seeded random legal play: deal from a named seed, take
random legal actions (steered only where the kind needs it: pick or pass, which call),
and keep the first hand that shows what its name claims. The expected file is what
`sheepshead check` prints for the record. Rerunning overwrites both, so after an engine
change, diff the expected files and read every changed one before committing it.
"""

# ruff: noqa: E501  (the table of kinds reads best one kind a line)
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sheepshead.actions import PLAYS, Action, Move
from sheepshead.game import Game
from sheepshead.record import check, to_record
from sheepshead.rules import Rules

HERE = Path(__file__).resolve().parent

Prefer = Callable[[Game, list[str]], list[str]]
Want = Callable[[Game], bool]


def any_action(game: Game, legal: list[str]) -> list[str]:
    return legal


def steer(*rules: tuple[str, str]) -> Prefer:
    """Prefer, in each phase named, the legal actions whose text contains a marker."""

    def prefer(game: Game, legal: list[str]) -> list[str]:
        for phase, marker in rules:
            if game.phase.value == phase:
                chosen = [a for a in legal if marker in a]
                if chosen:
                    return chosen
        return legal

    return prefer


def play_out(game: Game, seed: str, prefer: Prefer) -> Game:
    step = 0
    while not game.is_done:
        actions: dict[str, Action] = {str(a): a for a in game.legal_actions()}
        choices = prefer(game, list(actions))
        digest = hashlib.sha256(f"{seed}/{step}".encode()).digest()
        game = game.apply(actions[choices[int.from_bytes(digest[:4], "big") % len(choices)]])
        step += 1
    return game


def find(name: str, rules: Rules, prefer: Prefer, want: Want, dealer: int = 0) -> Game:
    for i in range(200_000):
        seed = f"golden/{name}/{i}"
        game = play_out(Game.deal(rules, dealer, seed.encode()), seed, prefer)
        if want(game):
            return game
    raise SystemExit(f"no hand found for {name}")


def points(game: Game) -> int:
    result = game.result()
    assert result is not None
    assert result.points is not None
    return result.points[0]


def res(game: Game) -> str:
    result = game.result()
    assert result is not None
    return result.result.value


def call_text(game: Game) -> str:
    return next((str(m.action) for m in game.moves if str(m.action).startswith("call")), "")


def picked_by(game: Game) -> bool:
    return game.picker is not None


def tricks_won(game: Game) -> int:
    side = game.partners | {game.picker}
    return sum(t.winner in side for t in game.tricks)


def bury_points(game: Game) -> int:
    return sum(c.points for c in game.bury)


PICK = steer(("picking", "pick"))


def kinds() -> dict[str, tuple[Rules, Prefer, Want]]:
    std = Rules()
    ace = steer(("picking", "pick"), ("calling", "call A"))
    unknown = steer(("picking", "pick"), ("calling", "unknown"))
    ten = steer(("picking", "pick"), ("calling", "call T"))
    alone = steer(("picking", "pick"), ("calling", "alone"))
    passing = steer(("picking", "pass"))
    jd = Rules(partner="jack-of-diamonds")  # type: ignore[arg-type]
    jh = Rules(partner="jack-of-diamonds", jd_picker_holds="call-jack-of-hearts")  # type: ignore[arg-type]
    six2 = Rules(players=6, second_partner=True)
    return {
        "called-ace": (std, ace, lambda g: call_text(g).startswith("call A") and "unknown" not in call_text(g) and res(g) == "win"),
        "unknown": (std, unknown, lambda g: "unknown" in call_text(g) and g.called_led_at is not None),
        "unknown-never-led": (std, unknown, lambda g: "unknown" in call_text(g) and g.called_led_at is None),
        "ten": (std, ten, lambda g: call_text(g).startswith("call T") and g.called_led_at is not None),
        "alone": (std, alone, lambda g: g.alone and res(g) == "win"),
        "alone-loss": (std, alone, lambda g: g.alone and res(g) == "loss"),
        "leaster-last-trick": (std, passing, lambda g: g.is_leaster),
        "leaster-named-trick": (Rules(leaster_blind="named-trick"), passing, lambda g: g.is_leaster and g.named_trick not in (None, 6)),  # type: ignore[arg-type]
        "leaster-aside": (Rules(leaster_blind="aside"), passing, lambda g: g.is_leaster),  # type: ignore[arg-type]
        "leaster-no-trick-may-win": (Rules(leaster_needs_trick=False), passing, leaster_zero_trick_winner),
        "leaster-tie": (std, passing, leaster_tie),
        "leaster-all-tie": (Rules(players=3, leaster_blind="aside"), passing, lambda g: g.is_leaster and len(set(leaster_points(g))) == 1),  # type: ignore[arg-type]
        "doubler": (Rules(nobody_picks="doubler"), passing, lambda g: True),  # type: ignore[arg-type]
        "crack": (Rules(cracking=True), ace, lambda g: len(g.cracks) == 2 and res(g) == "loss"),
        "jack-of-diamonds": (jd, steer(("picking", "pick"), ("calling", "call JD")), lambda g: call_text(g) == "call JD"),
        "jack-of-diamonds-picker-holds": (jd, PICK, lambda g: g.alone and g.picker is not None and any(c.text == "JD" for c in (*g.dealt[g.picker], *g.blind))),
        "jack-of-hearts": (jh, steer(("picking", "pick"), ("calling", "call JH")), lambda g: call_text(g) == "call JH"),
        "second-partner": (six2, steer(("picking", "pick"), ("calling", "call JD")), lambda g: len(g.partners) == 2 and res(g) == "win"),
        "three-handed": (Rules(players=3), PICK, picked_by),
        "four-handed": (Rules(players=4), PICK, lambda g: picked_by(g) and res(g) == "win"),
        "four-handed-called-ace": (Rules(players=4, partner="called-ace"), ace, lambda g: call_text(g).startswith("call A")),  # type: ignore[arg-type]
        "six-handed": (Rules(players=6), steer(("picking", "pick"), ("calling", "call JD")), lambda g: len(g.partners) == 1),
        "forced-pick": (Rules(nobody_picks="forced-pick"), passing, lambda g: g.picker == g.dealer and res(g).startswith("loss")),  # type: ignore[arg-type]
        "forced-pick-no-bump": (Rules(nobody_picks="forced-pick", forced_pick_bump=False), passing, lambda g: g.picker == g.dealer and res(g).startswith("loss")),  # type: ignore[arg-type]
        "points-60": (std, ace, lambda g: picked_by(g) and points(g) == 60),
        "points-61": (std, ace, lambda g: picked_by(g) and points(g) == 61),
        "points-90": (std, ace, lambda g: picked_by(g) and points(g) == 90),
        "points-91": (std, ace, lambda g: picked_by(g) and points(g) == 91),
        "points-30": (std, ace, lambda g: picked_by(g) and points(g) == 30 and tricks_won(g) > 0),
        "points-31": (std, ace, lambda g: picked_by(g) and points(g) == 31),
        "every-trick": (std, ace, lambda g: picked_by(g) and tricks_won(g) == 6),
        "no-trick": (std, ace, lambda g: picked_by(g) and tricks_won(g) == 0 and bury_points(g) > 0),
        "zero-point-trick-lost": (std, ace, lambda g: picked_by(g) and tricks_won(g) == 5 and points(g) == 120),
        "bury-decides": (std, ace, lambda g: picked_by(g) and points(g) >= 61 and points(g) - bury_points(g) <= 60),
        "no-bump": (Rules(double_on_the_bump=False), ace, lambda g: picked_by(g) and res(g) == "loss"),
    }  # fmt: skip


def leaster_scores(game: Game) -> list[int]:
    result = game.result()
    assert result is not None
    return list(result.scores)


def leaster_points(game: Game) -> list[int]:
    result = game.result()
    assert result is not None
    assert result.points is not None
    return list(result.points)


def leaster_tie(game: Game) -> bool:
    if not game.is_leaster:
        return False
    scores = leaster_scores(game)
    return len([s for s in scores if s > 0]) >= 2


def leaster_zero_trick_winner(game: Game) -> bool:
    if not game.is_leaster:
        return False
    taken = {t.winner for t in game.tricks}
    scores = leaster_scores(game)
    return any(scores[s] > 0 for s in range(game.players) if s not in taken)


def write(name: str, record: Any) -> None:
    write_text(name, json.dumps(record, indent=1) + "\n")


def write_text(name: str, text: str) -> None:
    (HERE / f"{name}.json").write_text(text)
    _code, output = check(text)
    (HERE / f"{name}.expected.json").write_text(json.dumps(output, indent=1) + "\n")


def cut(game: Game, actions: int) -> dict[str, Any]:
    record = to_record(game)
    record["actions"] = record["actions"][:actions]
    return record


def refused(game: Game, reason: str) -> dict[str, Any]:
    """The record of ``game`` cut at the first play refused for ``reason``, that play last."""
    state = Game.from_deal(game.rules, game.dealer, game.dealt, game.blind, game.multiplier)
    for index, move in enumerate(game.moves):
        if state.phase.value == "playing":
            for card in state.hands[move.seat]:
                why = state.why_illegal(Move(move.seat, PLAYS[card]))
                if why and reason in why:
                    record = cut(game, index)
                    record["actions"].append(f"{move.seat} play {card.text}")
                    return record
        state = state.apply_move(move)
    raise SystemExit(f"no play refused for {reason!r}")


def main() -> None:
    made: dict[str, Game] = {}
    for name, (rules, prefer, want) in kinds().items():
        made[name] = game = find(name, rules, prefer, want)
        record = to_record(game)
        if name == "crack":
            record["multiplier"] = 2  # a hand after a doubler: record x cracks x bump
        write(name, record)
    base = made["called-ace"]
    # Positions: a record may stop anywhere; check lists the next decision's actions.
    picks = next(i for i, m in enumerate(base.moves) if str(m.action) == "pick")
    write("position-bury", cut(base, picks + 1))
    write("position-call", cut(base, picks + 2))
    write("position-play", cut(base, picks + 5))
    write("position-start", cut(base, 0))
    # Illegal records: the first bad action's index, or null for a bad field.
    bad = cut(base, picks + 4)
    seat, _, card = bad["actions"][-1].split()
    bad["actions"].append(f"{(int(seat) + 1) % 5} play {card}")  # a card played twice
    write("illegal-replayed-card", bad)
    bad_card = to_record(base)
    bad_card["hands"][2][3] = "1X"
    write("illegal-hand-card", bad_card)
    write_text("illegal-not-json", '{"format": "sheepshead-hand/1", "rules": {}')
    # Readers accept 10 for T and a bury in any order; the result is the same hand's.
    text = json.dumps(to_record(made["points-61"]), indent=1).replace("T", "10")
    write_text("reader-forms", text.replace("bury 8H 9C", "bury 9C 8H"))
    write("illegal-must-follow", refused(base, "must follow"))
    write("illegal-hold-card", refused(made["unknown"], "must keep the unknown"))
    write(
        "illegal-bad-card-text",
        {**cut(base, 2), "actions": [*cut(base, 1)["actions"], "2 play 1X"]},
    )
    write("illegal-out-of-turn", {**cut(base, 0), "actions": ["3 pick"]})
    dup = to_record(base)
    dup["hands"][0][0] = dup["hands"][1][0]
    write("illegal-duplicated-card", dup)
    write("illegal-unknown-rules-field", {**to_record(base), "rules": {"blitz": True}})
    write("illegal-partner-none-5", {**to_record(base), "rules": {"partner": "none"}})
    write(
        "illegal-after-the-end",
        {**to_record(base), "actions": [*to_record(base)["actions"], "1 pass"]},
    )
    write("illegal-dealer", {**to_record(base), "dealer": 5})


if __name__ == "__main__":
    main()
