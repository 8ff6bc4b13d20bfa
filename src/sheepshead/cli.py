"""The ``sheepshead`` command.

``check`` imports the engine only: it must start fast, so web and database
libraries are imported inside the subcommands that need them, never here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from sheepshead import record

Command = Callable[[argparse.Namespace], int]
_COMMANDS: dict[str, Command] = {}


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def cmd_check(args: argparse.Namespace) -> int:
    try:
        if args.file is None or args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        _out(json.dumps({"ok": False, "action": None, "error": f"cannot read the record: {exc}"}))
        return 1
    code, output = record.check(text)
    _out(json.dumps(output))
    return code


def example_record() -> str:
    from importlib import resources

    return resources.files("sheepshead").joinpath("examples/worked-hand.json").read_text("utf-8")


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a hand record and print it trick by trick with its result."""
    if args.file is None:
        text = example_record()
    else:
        with open(args.file, encoding="utf-8") as handle:
            text = handle.read()
    try:
        game = record.loads(text)
    except record.RecordError as exc:
        where = "" if exc.action is None else f" (action {exc.action})"
        _out(f"not a legal hand record{where}: {exc.message}")
        return 1
    result = game.result()
    _out(f"{game.players}-handed, dealer seat {game.dealer}")
    for move in game.moves:
        if move.action.__class__.__name__ != "Play":
            _out(f"  seat {move.seat}: {move.action}")
    for number, trick in enumerate(game.tricks, start=1):
        cards = " ".join(c.text for c in trick.cards)
        _out(
            f"  trick {number}: seat {trick.leader} leads  {cards}  -> seat {trick.winner} "
            f"takes {trick.points}"
        )
    if result is None:
        _out(f"not finished: seat {game.turn} to act")
        return 0
    if result.points is not None and result.picker is not None:
        _out(f"picker's side {result.points[0]}, defenders {result.points[1]}")
    _out(f"result: {result.result.value}; game points by seat: {list(result.scores)}")
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    """Re-derive a deal from its seed (hex) and print it."""
    from sheepshead.deal import deal_cards, seed_commitment
    from sheepshead.rules import Rules

    try:
        seed = bytes.fromhex(args.seed)
    except ValueError:
        _out("the seed is written in hexadecimal")
        return 2
    rules = Rules(players=args.players)
    hands, blind = deal_cards(seed, rules.players, rules.cards_per_seat)
    _out(f"seed sha256 {seed_commitment(seed)}")
    for seat, cards in enumerate(hands):
        _out(f"seat {seat}: {' '.join(c.text for c in cards)}")
    _out(f"blind:  {' '.join(c.text for c in blind)}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Apply the migrations, then serve the game with uvicorn until interrupted."""
    import os

    import uvicorn

    from sheepshead.server import Settings, create_app

    env = dict(os.environ)
    if args.data_dir is not None:
        env["SHEEPSHEAD_DATA_DIR"] = args.data_dir
    # Plain http to this machine is local development: cookies cannot be Secure there.
    env.setdefault("SHEEPSHEAD_DEV", "1" if args.host in _LOOPBACK else "0")
    settings = Settings.from_env(env)
    app = create_app(settings)  # applies the migrations

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[Any] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                port = args.port
                for server in self.servers:
                    for sock in server.sockets:
                        port = sock.getsockname()[1]
                host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
                host = f"[{host}]" if ":" in host else host
                _out(f"Sheepshead is ready: open http://{host}:{port}/")

    config = uvicorn.Config(
        app, host=args.host, port=args.port, log_level=args.log_level, proxy_headers=True
    )
    Server(config).run()
    return 0


_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def cmd_verify(args: argparse.Namespace) -> int:
    """Re-derive a hand's deal from its revealed seed, and check it against its SHA-256."""
    from sheepshead.deal import deal_cards, seed_commitment
    from sheepshead.rules import Rules

    try:
        seed = bytes.fromhex(args.seed)
    except ValueError:
        _out("the seed is written in hexadecimal (0-9, a-f)")
        return 2
    if not seed:
        _out("the seed is empty")
        return 2
    rules = Rules(players=args.players)
    hands, blind = deal_cards(seed, rules.players, rules.cards_per_seat)
    digest = seed_commitment(seed)
    matches = None if args.sha256 is None else args.sha256.strip().lower() == digest
    if args.json:
        out: dict[str, Any] = {
            "seed_sha256": digest,
            "players": rules.players,
            "hands": [[c.text for c in cards] for cards in hands],
            "blind": [c.text for c in blind],
        }
        if matches is not None:
            out["matches"] = matches
        _out(json.dumps(out))
    else:
        _out(f"seed sha256 {digest}")
        if matches is not None:
            _out("matches the SHA-256 shown before the hand" if matches else "DOES NOT MATCH")
        for seat, cards in enumerate(hands):
            _out(f"seat {seat}: {' '.join(c.text for c in cards)}")
        _out(f"blind:  {' '.join(c.text for c in blind)}")
    return 1 if matches is False else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sheepshead", description="Sheepshead, the card game.")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="judge a hand record (see docs/hand-record.md)")
    check.add_argument("file", nargs="?", help="the record's file (standard input if omitted)")
    check.set_defaults(func=cmd_check)

    replay = sub.add_parser("replay", help="replay a hand record and print its tricks and score")
    replay.add_argument("file", nargs="?", help="the record's file (a worked example if omitted)")
    replay.set_defaults(func=cmd_replay)

    deal = sub.add_parser("deal", help="re-derive a deal from its seed")
    deal.add_argument("seed", help="the seed, in hexadecimal")
    deal.add_argument("--players", type=int, default=5, choices=(3, 4, 5, 6))
    deal.set_defaults(func=cmd_deal)

    serve = sub.add_parser("serve", help="serve the game in the browser (migrates the database)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="port (0: any free port)")
    serve.add_argument("--data-dir", help="the SQLite database's directory (default ./data)")
    serve.add_argument(
        "--log-level", default="info", choices=("critical", "error", "warning", "info", "debug")
    )
    serve.set_defaults(func=cmd_serve)

    verify = sub.add_parser("verify", help="re-derive a hand's deal from its revealed seed")
    verify.add_argument("seed", help="the seed, in hexadecimal")
    verify.add_argument("--players", type=int, default=5, choices=(3, 4, 5, 6))
    verify.add_argument("--sha256", help="the SHA-256 shown when the hand was dealt, to check")
    verify.add_argument("--json", action="store_true", help="print JSON, as /api/v1/verify does")
    verify.set_defaults(func=cmd_verify)

    for name, (helptext, register) in _EXTRA.items():
        register(sub.add_parser(name, help=helptext))
    return parser


#: Subcommands added by other layers: name -> (help, function adding its arguments).
_EXTRA: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Command = args.func
    return func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
