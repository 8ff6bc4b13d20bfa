"""The coach on the command line, registered by ``cli.py`` (``COMMANDS``).

``sheepshead analyze [FILE] [--seat N] [--json]`` reads a hand record (a file, or
standard input), judges every decision of the seat with the coach
(``sheepshead.coach``) and prints one line per decision, or with ``--json`` the list
documented in docs/bots.md. ``sheepshead coach-worker`` runs review jobs from the
database's queue (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sheepshead import coach

HELP = "rate every decision of a seat in a hand record, in expected points (the coach)"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", help="the record's file (standard input if omitted)")
    parser.add_argument("--seat", type=int, default=0, help="the seat to judge (default 0)")
    parser.add_argument("--json", action="store_true", help="print JSON (docs/bots.md)")
    parser.set_defaults(func=cmd_analyze)


def _fail(message: str) -> int:
    sys.stderr.write(f"sheepshead analyze: {message}\n")
    return 1


def cmd_analyze(args: argparse.Namespace) -> int:
    # Imported here: `sheepshead check` and the other commands start without the bots.
    from sheepshead import coach

    try:
        if args.file is None or args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(f"cannot read the record: {exc}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _fail(f"not JSON: {exc}")
    try:
        judged = coach.review(data, args.seat)
    except coach.RecordError as exc:
        where = "" if exc.action is None else f"action {exc.action}: "
        return _fail(f"{where}{exc}")
    except ValueError as exc:
        return _fail(str(exc))
    if args.json:
        sys.stdout.write(json.dumps([j.to_json() for j in judged]) + "\n")
        return 0
    for j in judged:
        sys.stdout.write(_line(j) + "\n")
    return 0


def _line(j: coach.Judgement) -> str:
    ev = j.evaluation
    if ev.forced:
        return f"{j.index:>3}  {j.action:<16} forced"
    mark = "close" if ev.close else (ev.label or "")
    text = (
        f"{j.index:>3}  {j.action:<16} best {j.best:<16} loss {ev.loss:5.2f}"
        f"  card points {ev.card_points_loss:+6.1f}  {mark}"
    )
    if j.reason is not None:
        from sheepshead.coach import words

        text += f"\n     {words(j.reason)}"
    return text.rstrip()


def register_worker(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database", help="SQLAlchemy URL (default: as `sheepshead serve`)")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between polls when idle")
    parser.set_defaults(func=cmd_coach_worker)


def cmd_coach_worker(args: argparse.Namespace) -> int:
    from sheepshead.server.coach_worker import run_forever
    from sheepshead.server.settings import Settings
    from sheepshead.store import open_engine
    from sheepshead.store.coach import CoachStore

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    url = args.database or Settings.from_env().database
    engine = open_engine(url)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    try:
        run_forever(CoachStore(engine), args.poll, stop)
    finally:
        engine.dispose()
    return 0


COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "analyze": (HELP, register),
    "coach-worker": (
        "run the coach's review jobs from the database (docs/deploy.md)",
        register_worker,
    ),
}
