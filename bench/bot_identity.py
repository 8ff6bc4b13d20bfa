"""Do the computer players still play as commit 5b08ee7's did? (issue 14, "What must not move")

    nice -n 19 .venv/bin/python bench/bot_identity.py --deals 500
    .venv/bin/python bench/bot_identity.py --levels expert --deals 40 --presets standard
    .venv/bin/python bench/bot_identity.py --version 2 --levels standard --deals 100
    .venv/bin/python bench/bot_identity.py --edge --levels beginner --deals 500

Identity (the default): 5b08ee7's ``sheepshead bot`` (its ``src`` put in a temporary
directory with ``git archive``, or ``--old-src``), run as an outside program speaking
the bot protocol, exactly as ``sheepshead arena --baseline-command`` seats it, plays
every seat of each deal of the arena's deal set (``arena.deal_seed``, the dealer
rotating with the deal index); at every decision this code's bot of the same level
(``bots.decide(level, view, 0, version)``, version 1 by default: the frozen copy, whose
play must be 5b08ee7's) is asked too, from the seat's view, and the two answers are
compared. No disagreement at any decision is the same as the arena's duplicate match
showing identical play (each hand with the candidate in one seat is then the very hand
the baseline plays alone: an edge of exactly 0 on every deal and seat), and a stronger
statement than an edge of 0, since every decision is compared, not only the scores.
With ``--version 2`` the count is how many decisions this code's play changes on
5b08ee7's path.

``--edge``: the arena's duplicate match in one process, ``--version`` (default 2) as
the candidate against ``--baseline-version`` (default 1, a frozen copy) as the
baseline, with the arena's report: the edge in game points per hand per seat and its
95% bootstrap interval.

One JSON line per level and preset on standard output; a summary table at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

from sheepshead import bots, record
from sheepshead.actions import Action, parse_move
from sheepshead.bots.arena import deal_seed, run, summarize
from sheepshead.game import Game
from sheepshead.rules import PRESETS, Rules

ROOT = Path(__file__).resolve().parents[1]
COMMIT = "5b08ee7"
DEAL_SET = "issue14-identity"
#: Disagreements kept in full (position and both answers) per level and preset.
KEEP = 5


def old_src(commit: str) -> Path:
    """``git archive COMMIT src`` unpacked in a temporary directory: that commit's code."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "src"], capture_output=True, check=True
    ).stdout
    where = Path(tempfile.mkdtemp(prefix=f"sheepshead-{commit}-"))
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(where, filter="data")
    return where / "src"


class Program:
    """An outside ``sheepshead bot``: one hand record per line in, ``<seat> <action>`` out."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.process = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def __call__(self, game: Game) -> Action:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(record.dumps(game) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().strip()
        move = parse_move(answer)  # "error: ..." raises: the old bot refused the position
        if move.seat != game.turn:
            raise SystemExit(f"{self.command!r} answered for seat {move.seat}")
        return move.action

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def program_command(src: Path, level: str) -> str:
    env = f"env PYTHONPATH={shlex.quote(str(src))}"
    return f"{env} {shlex.quote(sys.executable)} -m sheepshead.cli bot --level {level}"


def this_code(level: str, version: str) -> Callable[[Game], Action]:
    def act(game: Game) -> Action:
        assert game.turn is not None
        return bots.decide(level, game.view(game.turn), 0, version)

    return act


@dataclass
class Identity:
    level: str
    preset: str
    version: str
    deals: int = 0
    hands_identical: int = 0
    decisions: int = 0
    disagreements: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    first: list[dict[str, Any]] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        return {
            "check": "identity",
            "level": self.level,
            "preset": self.preset,
            "candidate": f"version {self.version} (this code)",
            "baseline": f"{COMMIT}'s sheepshead bot",
            "deals": self.deals,
            "hands_identical": self.hands_identical,
            "decisions": self.decisions,
            "disagreements": self.disagreements,
            "disagreements_by_kind": self.by_kind,
            "first_disagreements": self.first,
        }


def identity(
    level: str, preset: str, version: str, deals: int, first: int, deal_set: str, src: Path
) -> Identity:
    """Every decision of 5b08ee7's bot on its own path, asked of this code's bot too."""
    rules: Rules = PRESETS[preset]
    old = Program(program_command(src, level))
    new = this_code(level, version)
    out = Identity(level, preset, version)
    try:
        for index in range(first, first + deals):
            game = Game.deal(rules, index % rules.players, deal_seed(deal_set, index))
            same = True
            while not game.is_done:
                theirs, ours = old(game), new(game)
                out.decisions += 1
                if ours != theirs:
                    same = False
                    out.disagreements += 1
                    kind = str(theirs).split()[0]
                    out.by_kind[kind] = out.by_kind.get(kind, 0) + 1
                    if len(out.first) < KEEP:
                        out.first.append(
                            {
                                "deal": index,
                                "seat": game.turn,
                                "position": record.dumps(game),
                                COMMIT: str(theirs),
                                "this code": str(ours),
                            }
                        )
                game = game.apply(theirs)
            out.deals += 1
            out.hands_identical += same
    finally:
        old.close()
    return out


def edge(
    level: str,
    preset: str,
    version: str,
    deals: int,
    first: int,
    deal_set: str,
    baseline: str = "1",
) -> dict[str, Any]:
    """The arena's duplicate match: this code's ``version`` against the frozen ``baseline``."""
    rules = PRESETS[preset]
    outcomes = run(
        rules, this_code(level, version), this_code(level, baseline), deals, deal_set, first=first
    )
    report = summarize(outcomes, rules, f"{level} v{version}", f"{level} v{baseline}", deal_set)
    cand, base = report["candidate_stats"], report["baseline_stats"]
    keys = ("pick_rate", "alone_rate", "picker_win_rate", "leaster_rate")
    return {
        "check": "edge",
        "level": level,
        "preset": preset,
        "candidate": f"version {version}",
        "baseline": f"version {baseline}",
        "deals": deals,
        "first_deal": first,
        "deal_set": deal_set,
        "edge": report["edge"]["mean"],
        "ci95": report["edge"]["ci95"],
        "by_role": {
            role: row["mean_edge"]
            for role, row in report["by_role"].items()
            if row["mean_edge"] is not None
        },
        "candidate_stats": {k: cand[k] for k in keys},
        "baseline_stats": {k: base[k] for k in keys},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=list(bots.LEVELS), choices=bots.LEVELS)
    parser.add_argument("--presets", nargs="+", default=sorted(PRESETS), choices=sorted(PRESETS))
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--first", type=int, default=0, help="index of the first deal")
    parser.add_argument("--deal-seed", default=DEAL_SET, help="the arena's deal set")
    parser.add_argument("--version", help="this code's play to check (identity: 1, edge: 2)")
    parser.add_argument("--edge", action="store_true", help="the duplicate match against v1")
    parser.add_argument(
        "--baseline-version", default="1", help="edge: the frozen version to play against"
    )
    parser.add_argument("--old-src", type=Path, help=f"{COMMIT}'s src (default: git archive)")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    src = None if args.edge else (args.old_src or old_src(COMMIT))
    for level in args.levels:
        for preset in args.presets:
            span = (args.deals, args.first, args.deal_seed)
            if args.edge:
                row = edge(level, preset, args.version or "2", *span, args.baseline_version)
            else:
                assert src is not None
                row = identity(level, preset, args.version or "1", *span, src).row()
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(f"# load average at the end: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    for row in rows:
        if row["check"] == "identity":
            print(
                f"# {row['level']:<8} {row['preset']:<22} {row['deals']} deals: "
                f"{row['hands_identical']} hands identical, "
                f"{row['disagreements']} of {row['decisions']} decisions differ",
                file=sys.stderr,
            )
        else:
            lo, hi = row["ci95"]
            print(
                f"# {row['level']:<8} {row['preset']:<22} {row['deals']} deals: "
                f"edge {row['edge']:+.3f} [{lo:+.3f}, {hi:+.3f}]",
                file=sys.stderr,
            )


if __name__ == "__main__":
    main()
