"""``sheepshead admin hide-club NAME [--undo]``: a moderator hides an offensive club
name (``docs/clubs.md``). Registered on ``admin``'s subcommands by ``cli.py``."""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

from sheepshead.console import write_line


def cmd_hide_club(args: argparse.Namespace) -> int:
    """Hide a club's name, and every club name that looks like it: its members see "a
    club (name hidden)", and the name stays taken."""
    from sheepshead.names import NameRefused, check_name, fold_key, look_key
    from sheepshead.server.settings import Settings
    from sheepshead.store import open_engine
    from sheepshead.store.clubs import ClubStore

    text = " ".join(args.name.split())
    with contextlib.suppress(NameRefused):
        text = check_name(text).text
    # The moderator types what they see: any case, any look-alike of the name.
    key = fold_key(text)
    looks = sorted({look_key(text), look_key(key)})
    engine = open_engine(args.database or Settings.from_env().database)
    try:
        hidden = ClubStore(engine).hide(key, looks, hidden=not args.undo)
    finally:
        engine.dispose()
    done = "shown again" if args.undo else "hidden"
    write_line(f"{done}: {args.name}" if hidden else f"no club named {args.name!r}")
    return 0 if hidden else 1


def register(admin: Any, database: argparse.ArgumentParser) -> None:
    """Add ``hide-club`` to ``sheepshead admin``'s subcommands."""
    hide = admin.add_parser("hide-club", parents=[database], help="hide an offensive club name")
    hide.add_argument("name", help="the club's name as shown (case and look-alikes do not matter)")
    hide.add_argument("--undo", action="store_true", help="show a hidden club name again")
    hide.set_defaults(func=cmd_hide_club)
