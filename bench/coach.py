"""The coach's benchmarks (issue 17): speed, no peeking, planted errors, and whether its
mean loss orders players of known strength.

    nice -n 19 .venv/bin/python bench/coach.py speed --hands 40
    nice -n 19 .venv/bin/python bench/coach.py nopeek --records 200
    nice -n 19 .venv/bin/python bench/coach.py planted --positions 200 [--out FILE]
    nice -n 19 .venv/bin/python bench/coach.py order --hands 3000 --shard 0/2 --out o0.jsonl
    nice -n 19 .venv/bin/python bench/coach.py order --hands 3000 --shard 1/2 --out o1.jsonl
    .venv/bin/python bench/coach_order.py o0.jsonl o1.jsonl

``order`` plays hand by hand, all five players on each, and appends a JSON line per
decision: two shards use two cores, and ``--start`` resumes a run cut short.

Run on one core (a single process). Times are the process's CPU time
(``time.process_time``), which is what one core of its own would take: on a shared
machine, wall-clock time mostly measures the others' load. Figures go to
docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from coach_positions import cut_at, moved, planted
from sheepshead import coach
from sheepshead.actions import Action, Play
from sheepshead.bots import make_bot
from sheepshead.bots.arena import bot_policy, deal_seed, play_hand
from sheepshead.coach.judge import evaluate
from sheepshead.game import Game, Phase
from sheepshead.record import to_record
from sheepshead.rules import preset

RULES = preset("standard")
Policy = Callable[[Game], Action]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def _standard_hand(index: int, deal_set: str = "coach-bench") -> dict[str, Any]:
    std = bot_policy(make_bot("standard"))
    game = play_hand(RULES, index % 5, deal_seed(deal_set, index), [std] * 5, [None] * 5)
    return to_record(game)


def cmd_speed(args: argparse.Namespace) -> None:
    reviews: list[float] = []
    hints: list[float] = []
    closes = unforced = 0
    for i in range(args.hands):
        record = _standard_hand(i)
        seat = i % 5
        start = time.process_time()
        judged = coach.review(record, seat)
        reviews.append(time.process_time() - start)
        for j in judged:
            unforced += not j.evaluation.forced
            closes += j.evaluation.close
            if j.evaluation.forced:
                continue
            start = time.process_time()
            coach.hint(j.view)
            hints.append(time.process_time() - start)
    print(
        json.dumps(
            {
                "hands": args.hands,
                "review_s_p50": round(statistics.median(reviews), 3),
                "review_s_p95": round(_pct(reviews, 0.95), 3),
                "review_s_max": round(max(reviews), 3),
                "hints": len(hints),
                "hint_ms_p50": round(1000 * statistics.median(hints), 1),
                "hint_ms_p95": round(1000 * _pct(hints, 0.95), 1),
                "unforced_decisions": unforced,
                "close_rate": round(closes / max(1, unforced), 4),
            }
        )
    )


def cmd_nopeek(args: argparse.Namespace) -> None:
    same = tried = 0
    for i in range(args.records * 3):
        if tried == args.records:
            break
        record = _standard_hand(i, "coach-nopeek")
        seat = i % 5
        cut = cut_at(record, seat, 1 + i % 5)
        alt = None if cut is None else moved(cut, seat, random.Random(i))
        if cut is None or alt is None:
            continue
        tried += 1
        first = [j.to_json() for j in coach.review(cut, seat)]
        second = [j.to_json() for j in coach.review(alt, seat)]
        same += first == second
        if first != second:
            print("DIFFERENT", i, seat, file=sys.stderr)
    print(json.dumps({"records": tried, "unchanged": same}))


def cmd_planted(args: argparse.Namespace) -> None:
    out: dict[str, Any] = {}
    with open(args.out, "w", encoding="utf-8") as details:
        for error in (True, False):
            out["errors" if error else "controls"] = _planted_set(args.positions, error, details)
    print(json.dumps(out))


def _planted_set(count: int, error: bool, details: Any) -> dict[str, Any]:
    """Judge ``count`` planted positions of one kind; one JSON line each to ``details``."""
    good = total = 0
    labels: dict[str, int] = {}
    for p in planted(count, error):
        _, view, action = list(coach.decisions(p.record, p.seat))[-1]
        ev = evaluate(view, action)
        label = "close" if ev.close else str(ev.label)
        labels[label] = labels.get(label, 0) + 1
        if error:
            ok = ev.label is not None or (ev.card_points_loss >= 8 and ev.best != action)
        else:
            ok = ev.label not in ("mistake", "blunder")
        good += ok
        total += 1
        row = {"error": error, "ok": ok, "seat": p.seat, "schmear": p.schmear.text}
        row |= {"best": str(ev.best), "loss": ev.loss, "cp_loss": ev.card_points_loss}
        details.write(json.dumps(row | {"label": label, "record": p.record}) + "\n")
        details.flush()
    return {
        "positions": total,
        "caught" if error else "left_alone": good,
        "rate": round(good / total, 3),
        "labels": labels,
    }


#: The computer players' version the order run plays (its players and their tables):
#: hours of hands are kept (``bench/results``) and extended by later runs, so every
#: hand must be played by the same players whatever the live version.
ORDER_VERSION = "4"


def _noisy(share: float) -> Policy:
    """The standard bot, with ``share`` of its card plays replaced by a random legal
    card (its own generator, seeded by the position)."""
    std = bot_policy(make_bot("standard", ORDER_VERSION))

    def act(game: Game) -> Action:
        if game.phase is Phase.PLAYING:
            rnd = random.Random(f"noise/{share}/{game.dealt}/{len(game.moves)}")
            if rnd.random() < share:
                return rnd.choice([a for a in game.legal_actions() if isinstance(a, Play)])
        return std(game)

    return act


def _players() -> dict[str, Policy]:
    return {
        "beginner": bot_policy(make_bot("beginner", ORDER_VERSION)),
        "standard 30% random": _noisy(0.3),
        "standard 10% random": _noisy(0.1),
        "standard": bot_policy(make_bot("standard", ORDER_VERSION)),
        "expert": bot_policy(make_bot("expert", ORDER_VERSION)),
    }


def _order_rows(index: int, name: str, policy: Policy) -> list[dict[str, Any]]:
    """Hand ``index`` with ``policy`` in seat ``index % 5`` among standard bots: one row
    per decision of that seat as the coach judged it, and the seat's game points."""
    std = bot_policy(make_bot("standard", ORDER_VERSION))
    seat = index % 5
    seats = [std] * 5
    seats[seat] = policy
    game = play_hand(RULES, index % 5, deal_seed("coach-order", index), seats, [None] * 5)
    result = game.result()
    assert result is not None
    rows = []
    for j in coach.review(to_record(game), seat):
        ev = j.evaluation
        values = {round(o.game_points, 9) for o in ev.options}
        rows.append(
            {
                "player": name,
                "hand": index,
                "index": j.index,
                "card": isinstance(ev.played, Play),
                "forced": ev.forced,
                # Every option worth the same expected game points: nothing to decide.
                "tied": len(values) < 2,
                "loss": ev.loss,
                "cp_loss": ev.card_points_loss,
                "close": ev.close,
                "score": result.scores[seat],
            }
        )
    if not rows:
        rows.append({"player": name, "hand": index, "index": None, "score": result.scores[seat]})
    return rows


def cmd_order(args: argparse.Namespace) -> None:
    """Hand by hand, all five players on each (so a cut-short run stays balanced); one
    JSON line per decision to ``--out``; ``bench/coach_order.py`` sums them up."""
    players = _players()
    if args.players:
        wanted = [name.strip() for name in args.players.split(",")]
        unknown = [name for name in wanted if name not in players]
        if unknown:
            raise SystemExit(f"no such player: {', '.join(unknown)}; players: {', '.join(players)}")
        players = {name: players[name] for name in wanted}
    shard, shards = (int(x) for x in args.shard.split("/"))
    with open(args.out, "a", encoding="utf-8") as out:
        for i in range(args.start, args.hands):
            if i % shards != shard:
                continue
            for name, policy in players.items():
                for row in _order_rows(i, name, policy):
                    out.write(json.dumps(row) + "\n")
            out.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    speed = sub.add_parser("speed", help="review and hint times")
    speed.add_argument("--hands", type=int, default=40)
    speed.set_defaults(func=cmd_speed)
    nopeek = sub.add_parser("nopeek", help="moved hidden cards leave analyze --json unchanged")
    nopeek.add_argument("--records", type=int, default=200)
    nopeek.set_defaults(func=cmd_nopeek)
    plant = sub.add_parser("planted", help="planted schmears to opponents vs to partners")
    plant.add_argument("--positions", type=int, default=200)
    plant.add_argument("--out", default=os.devnull, help="one JSON line per position, its verdict")
    plant.set_defaults(func=cmd_planted)
    order = sub.add_parser("order", help="mean loss per unforced decision of five players")
    order.add_argument("--hands", type=int, default=300)
    order.add_argument("--start", type=int, default=0, help="first hand (to resume)")
    order.add_argument("--shard", default="0/1", help="K/N: the hands i with i %% N == K")
    order.add_argument("--out", default="coach-order.jsonl", help="JSON lines, appended")
    order.add_argument(
        "--players",
        default="",
        help="comma-separated names (default all five), to extend some players' runs",
    )
    order.set_defaults(func=cmd_order)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
