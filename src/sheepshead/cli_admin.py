"""``sheepshead admin``: the moderators' commands (hide a name, list a day's flagged
attempts, void a result). Like the rest of the command, web and database libraries
are imported inside the commands, so that ``sheepshead check`` starts fast.
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from sheepshead import cli_clubs
from sheepshead.console import write_line

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from sheepshead.store.moderation import Flag, Play


def _admin_engine(args: argparse.Namespace) -> Engine:
    """The database ``sheepshead serve`` would use, or ``--database``."""
    from sheepshead.server.settings import Settings
    from sheepshead.store import open_engine

    return open_engine(args.database or Settings.from_env().database)


def _admin_day(text: str | None) -> date:
    from sheepshead import daily_game

    if text is None:
        return daily_game.day_of(datetime.now(UTC))
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise SystemExit(f"sheepshead admin: {text!r} is not a date (YYYY-MM-DD)") from None


def cmd_admin_hide_name(args: argparse.Namespace) -> int:
    """Hide a display name, and every name that looks like it: the board shows the
    player's label instead, and the name stays taken."""
    import contextlib

    from sheepshead.names import NameRefused, check_name, fold_key, look_key

    text = " ".join(args.name.split())
    # A name refused today may still be stored from before: then it is taken as typed.
    with contextlib.suppress(NameRefused):
        text = check_name(text).text
    # The moderator types what they see: any case, any look-alike of the name.
    key = fold_key(text)
    looks = {look_key(text), look_key(key)}
    from sheepshead.store.identity import IdentityStore

    engine = _admin_engine(args)
    try:
        hidden = IdentityStore(engine).hide_name(key, sorted(looks), hidden=not args.undo)
    finally:
        engine.dispose()
    done = "shown again" if args.undo else "hidden"
    write_line(f"{done}: {args.name}" if hidden else f"no display name {args.name!r}")
    return 0 if hidden else 1


def cmd_admin_flags(args: argparse.Namespace) -> int:
    """The day's flagged attempts: ranked attempts played from a network that another
    ranked attempt of the day was also played from, whatever the order."""
    from sheepshead.store.moderation import ModerationStore

    day = _admin_day(args.date)
    engine = _admin_engine(args)
    try:
        flags = ModerationStore(engine).flags(day)
    finally:
        engine.dispose()
    if args.json:
        write_line(json.dumps({"date": day.isoformat(), "flags": [_flag_json(f) for f in flags]}))
        return 0
    if not flags:
        write_line(f"no flagged attempts on {day.isoformat()}")
        return 0
    write_line(f"{len(flags)} flagged attempt(s) on {day.isoformat()} (times in UTC):")
    for flag in flags:
        if not flag.kept:
            who = "a deleted identity"
        else:
            who = flag.name if flag.name is not None else "(no name)"
        board = "on the board" if flag.on_board else "not on the board"
        write_line(f"attempt {flag.play.attempt_id}  {who}  {_play_text(flag.play)}, {board}")
        for other, network, overlap in flag.same_network:
            when = "overlapping in time" if overlap else "not overlapping"
            write_line(
                f"  same network {network[:12]}: attempt {other.attempt_id}  "
                f"{_play_text(other)}, {when}"
            )
    return 0


def _play_text(play: Play) -> str:
    span = f"moves {_utc_text(play.first_move)} to {_utc_text(play.last_move)}"
    if play.total is not None:
        return f"{span}, {play.total} game points"
    return f"{span}, finished" if play.finished_at is not None else f"{span}, unfinished"


def _utc_text(when: datetime) -> str:
    # With the date: a day in Chicago spans two dates in UTC.
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def _utc_json(when: datetime | None) -> str | None:
    return None if when is None else when.astimezone(UTC).isoformat()


def _play_json(play: Play) -> dict[str, Any]:
    return {
        "attempt": play.attempt_id,
        "first_move": _utc_json(play.first_move),
        "last_move": _utc_json(play.last_move),
        "finished": play.finished_at is not None or play.total is not None,
        "total": play.total,
    }


def _flag_json(flag: Flag) -> dict[str, Any]:
    return {
        **_play_json(flag.play),
        "networks": list(flag.play.networks),
        "identity": "kept" if flag.kept else "deleted",
        "name": flag.name,
        "on_board": flag.on_board,
        "same_network": [
            {**_play_json(other), "network": network, "overlap": overlap}
            for other, network, overlap in flag.same_network
        ],
    }


def cmd_admin_void_result(args: argparse.Namespace) -> int:
    """Take a ranked result off its day's board (a moderator's verdict on a flag)."""
    from sheepshead.store.moderation import ModerationStore

    day = _admin_day(args.date)
    engine = _admin_engine(args)
    try:
        voided = ModerationStore(engine).void_result(day, args.attempt)
    finally:
        engine.dispose()
    if not voided:
        write_line(f"no result of attempt {args.attempt!r} on {day.isoformat()}")
        return 1
    write_line(f"voided: attempt {args.attempt}'s result left the board of {day.isoformat()}")
    return 0


def add_admin_commands(sub: Any) -> None:
    """``sheepshead admin ...``, on the command's subparsers."""
    admin = sub.add_parser("admin", help="moderation: hide-name, flags, void-result")
    admin_sub = admin.add_subparsers(dest="admin_command", required=True)
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument("--database", help="SQLAlchemy URL (default: as `sheepshead serve`)")
    hide = admin_sub.add_parser(
        "hide-name", parents=[database], help="hide an offensive display name"
    )
    hide.add_argument("name", help="the name as shown (case and look-alikes do not matter)")
    hide.add_argument("--undo", action="store_true", help="show a hidden name again")
    hide.set_defaults(func=cmd_admin_hide_name)
    flags = admin_sub.add_parser(
        "flags",
        parents=[database],
        help="list a day's flagged attempts (several identities playing from one network)",
    )
    flags.add_argument("date", nargs="?", help="YYYY-MM-DD (default: today in Chicago)")
    flags.add_argument("--json", action="store_true", help="print JSON")
    flags.set_defaults(func=cmd_admin_flags)
    void = admin_sub.add_parser(
        "void-result", parents=[database], help="take a ranked result off its day's board"
    )
    void.add_argument("date", help="the day, YYYY-MM-DD")
    void.add_argument("attempt", help="the attempt's id, as `sheepshead admin flags` shows it")
    void.set_defaults(func=cmd_admin_void_result)
    cli_clubs.register(admin_sub, database)
