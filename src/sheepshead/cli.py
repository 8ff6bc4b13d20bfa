"""The ``sheepshead`` command.

``check`` imports the engine only: it must start fast, so web and database
libraries are imported inside the subcommands that need them, never here, and
a plain ``sheepshead check [FILE]`` does not even build the argument parser
(``main``). Nothing here imports ``typing`` or ``argparse`` at start.
"""

from __future__ import annotations

import json
import sys

from sheepshead import record
from sheepshead.console import write_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence
    from typing import Any

    Command = Callable[[argparse.Namespace], int]


def cmd_check(args: argparse.Namespace) -> int:
    return check_file(args.file)


def check_file(name: str | None) -> int:
    """``sheepshead check [FILE]``: judge a record (standard input for none or ``-``)."""
    try:
        if name is None or name == "-":
            text = sys.stdin.read()
        else:
            with open(name, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        write_line(
            json.dumps({"ok": False, "action": None, "error": f"cannot read the record: {exc}"})
        )
        return 1
    code, output = record.check(text)
    write_line(json.dumps(output))
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
        write_line(f"not a legal hand record{where}: {exc.message}")
        return 1
    result = game.result()
    write_line(f"{game.players}-handed, dealer seat {game.dealer}")
    for move in game.moves:
        if move.action.__class__.__name__ != "Play":
            write_line(f"  seat {move.seat}: {move.action}")
    for number, trick in enumerate(game.tricks, start=1):
        cards = " ".join(c.text for c in trick.cards)
        write_line(
            f"  trick {number}: seat {trick.leader} leads  {cards}  -> seat {trick.winner} "
            f"takes {trick.points}"
        )
    if result is None:
        write_line(f"not finished: seat {game.turn} to act")
        return 0
    if result.points is not None and result.picker is not None:
        write_line(f"picker's side {result.points[0]}, defenders {result.points[1]}")
    write_line(f"result: {result.result.value}; game points by seat: {list(result.scores)}")
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    """Re-derive a deal from its seed (hex) and print it."""
    from sheepshead.deal import deal_cards, seed_commitment
    from sheepshead.rules import Rules

    try:
        seed = bytes.fromhex(args.seed)
    except ValueError:
        write_line("the seed is written in hexadecimal")
        return 2
    rules = Rules(players=args.players)
    hands, blind = deal_cards(seed, rules.players, rules.cards_per_seat)
    write_line(f"seed sha256 {seed_commitment(seed)}")
    for seat, cards in enumerate(hands):
        write_line(f"seat {seat}: {' '.join(c.text for c in cards)}")
    write_line(f"blind:  {' '.join(c.text for c in blind)}")
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
                write_line(f"Sheepshead is ready: open http://{host}:{port}/")
                write_line(f"The computer players' search: {_search_build()}")

    config = uvicorn.Config(
        app, host=args.host, port=args.port, log_level=args.log_level, proxy_headers=True
    )
    Server(config).run()
    return 0


_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _search_build() -> str:
    """Whether the search's hot modules run compiled (``sheepshead.native``), and if not why."""
    from sheepshead import native

    if native.STATUS == "native":
        return "compiled (mypyc)"
    return f"plain Python, about half the speed ({native.STATUS})"


def cmd_verify(args: argparse.Namespace) -> int:
    """Re-derive a hand's deal from its revealed seed, and check it against its SHA-256."""
    if args.day_seed is not None:
        return cmd_verify_daily(args.seed, args.day_seed, args.sha256, args.json)
    from sheepshead.deal import deal_cards, seed_commitment
    from sheepshead.rules import Rules

    try:
        seed = bytes.fromhex(args.seed)
    except ValueError:
        write_line("the seed is written in hexadecimal (0-9, a-f)")
        return 2
    if not seed:
        write_line("the seed is empty")
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
        write_line(json.dumps(out))
    else:
        write_line(f"seed sha256 {digest}")
        if matches is not None:
            write_line("matches the SHA-256 shown before the hand" if matches else "DOES NOT MATCH")
        for seat, cards in enumerate(hands):
            write_line(f"seat {seat}: {' '.join(c.text for c in cards)}")
        write_line(f"blind:  {' '.join(c.text for c in blind)}")
    return 1 if matches is False else 0


# Computer players: `sheepshead bot` and `sheepshead arena` --------------------------


def bot_answer(level: str, seed: int, line: str) -> str:
    """The bot process's answer to one input line: ``"<seat> <action>"`` or ``"error: ..."``."""
    from sheepshead.actions import Move
    from sheepshead.bots import decide

    text = line.strip()
    if not text:
        return "error: empty line: send one hand record (JSON) per line"
    try:
        game = record.loads(text)
    except record.RecordError as exc:
        where = "" if exc.action is None else f"action {exc.action}: "
        return f"error: {where}{exc.message}"
    if game.turn is None:
        return "error: the hand is over: there is nothing to decide"
    seat = game.turn
    # The bot sees the seat's view only, never the other hands the record holds.
    return str(Move(seat, decide(level, game.view(seat), seed)))


def cmd_bot(args: argparse.Namespace) -> int:
    """Answer positions on standard input, one line each, until end of input."""
    import logging

    from sheepshead.bots import make_bot

    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="bot: %(message)s")
    log = logging.getLogger("sheepshead.bot")
    try:
        make_bot(args.level)
    except (ValueError, ImportError) as exc:
        log.error("cannot start the %s level: %s", args.level, exc)
        return 2
    log.info("level %s, seed %d: reading one hand record per line", args.level, args.seed)
    count = 0
    for line in sys.stdin:
        try:
            answer = bot_answer(args.level, args.seed, line)
        except Exception as exc:  # a bug must not end the session of the program using us
            log.exception("position %d", count + 1)
            answer = f"error: the bot failed on this position: {exc}"
        if answer.startswith("error:"):
            log.info("position %d: %s", count + 1, answer)
        write_line(answer)
        count += 1
    log.info("end of input after %d positions", count)
    return 0


class _ProgramPlayer:
    """A seat played by an outside program speaking the ``sheepshead bot`` protocol."""

    def __init__(self, command: str) -> None:
        import shlex
        import subprocess

        self.command = command
        self.process = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)

    def __call__(self, game: Any) -> Any:
        from sheepshead.actions import parse_move

        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(record.dumps(game) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().strip()
        try:
            move = parse_move(answer)
        except ValueError:
            raise SystemExit(f"arena: {self.command!r} answered {answer!r}") from None
        if move.seat != game.turn:
            raise SystemExit(f"arena: {self.command!r} answered for seat {move.seat}")
        return move.action


_ARENA_PLAYERS: dict[str, Any] = {}


def _arena_player(level: str, command: str | None, seed: int) -> Any:
    from sheepshead.bots import make_bot
    from sheepshead.bots.arena import bot_policy

    key = f"{level}\x00{command}\x00{seed}"
    if key not in _ARENA_PLAYERS:
        player = _ProgramPlayer(command) if command else bot_policy(make_bot(level), seed)
        _ARENA_PLAYERS[key] = player
    return _ARENA_PLAYERS[key]


def _arena_chunk(job: tuple[argparse.Namespace, list[int]]) -> list[Any]:
    import time

    from sheepshead.bots.arena import play_deal

    args, indices = job
    rules = _arena_rules(args)
    candidate = _arena_player(args.candidate, args.candidate_command, args.seed)
    baseline = _arena_player(args.baseline, args.baseline_command, args.seed)
    clock = time.perf_counter
    return [play_deal(rules, i, args.deal_seed, candidate, baseline, clock) for i in indices]


def _arena_rules(args: argparse.Namespace) -> Any:
    from sheepshead.rules import PRESETS, Rules

    rules = PRESETS[args.rules] if args.rules is not None else Rules(players=args.players)
    return _rules_with(rules, getattr(args, "rule", None) or [])


def _rules_with(rules: Any, items: list[str]) -> Any:
    """``rules`` with ``NAME=VALUE`` options over it, the value as JSON
    (``cracking=true``) or else as a word (``nobody_picks=doubler``), checked as a
    record's rules are, at that head count."""
    from sheepshead.rules import RULE_FIELDS, RulesError

    if not items:
        return rules

    changes: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or name not in RULE_FIELDS or name == "players":
            fields = ", ".join(f for f in RULE_FIELDS if f != "players")
            raise SystemExit(f"--rule takes NAME=VALUE with NAME one of {fields}; not {item!r}")
        try:
            changes[name] = json.loads(raw)
        except json.JSONDecodeError:
            changes[name] = raw
    try:
        return rules.replace(**changes)
    except (RulesError, TypeError, ValueError) as error:
        raise SystemExit(f"--rule: {error}") from None


def cmd_arena(args: argparse.Namespace) -> int:
    """Duplicate match: candidate vs baseline over seeded deals; print the report."""
    from sheepshead.bots.arena import summarize

    rules = _arena_rules(args)
    indices = list(range(args.first, args.first + args.deals))
    size = max(1, min(50, len(indices) // max(1, args.jobs * 4)))
    chunks = [(args, indices[i : i + size]) for i in range(0, len(indices), size)]
    outcomes: list[Any] = []
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(args.jobs) as pool:
            for part in pool.map(_arena_chunk, chunks):
                outcomes.extend(part)
                _arena_progress(args, len(outcomes))
    else:
        for chunk in chunks:
            outcomes.extend(_arena_chunk(chunk))
            _arena_progress(args, len(outcomes))
    for player in _ARENA_PLAYERS.values():
        if isinstance(player, _ProgramPlayer):
            player.close()
    _ARENA_PLAYERS.clear()
    label_c = args.candidate_command or args.candidate
    label_b = args.baseline_command or args.baseline
    report = summarize(outcomes, rules, label_c, label_b, args.deal_seed, args.resamples)
    report["bot_seed"] = args.seed
    report["first_deal"] = args.first
    if args.json:
        write_line(json.dumps(report, indent=2))
    else:
        _arena_text(report)
    return 0


def _arena_progress(args: argparse.Namespace, done: int) -> None:
    if args.progress:
        sys.stderr.write(f"arena: {done}/{args.deals} deals\n")
        sys.stderr.flush()


def _fmt(value: float | None, pattern: str = "{:.3f}") -> str:
    return "-" if value is None else pattern.format(value)


def _arena_text(r: dict[str, Any]) -> None:
    edge = r["edge"]
    lo, hi = edge["ci95"]
    write_line(
        f"{r['candidate']} vs {r['baseline']}: {r['deals']} deals x {r['players']} seats "
        f"(deal set {r['deal_set']!r}, rules {json.dumps(r['rules'])})"
    )
    write_line(
        f"edge {edge['mean']:+.3f} game points/hand/seat, 95% CI [{lo:+.3f}, {hi:+.3f}]; "
        f"by seat {' '.join(f'{x:+.3f}' for x in edge['per_seat'])}"
    )
    write_line("role       cand hands  cand mean   edge | base hands  base mean")
    for role, row in r["by_role"].items():
        write_line(
            f"{role:<10} {row['candidate_hands']:>10}  {_fmt(row['candidate_mean_score']):>9}"
            f"  {_fmt(row['mean_edge'], '{:+.3f}'):>6} | {row['baseline_hands']:>10}"
            f"  {_fmt(row['baseline_mean_score']):>9}"
        )
    for name in ("candidate", "baseline"):
        s = r[f"{name}_stats"]
        parts = [
            f"pick {_fmt(s['pick_rate'], '{:.1%}')}",
            f"alone {_fmt(s['alone_rate'], '{:.1%}')} of picks",
            f"picker wins {_fmt(s['picker_win_rate'], '{:.1%}')}",
            f"leaster {_fmt(s['leaster_rate'], '{:.1%}')}",
            f"defender trump leads {_fmt(s['defender_trump_lead_rate'], '{:.2%}')}"
            f" of {s['defender_leads_with_fail']} leads holding fail",
            f"free points {_fmt(s['free_point_rate'], '{:.2%}')} of {s['plays']} plays",
            f"ms/decision median {_fmt(s['ms_median'])}, p99 {_fmt(s['ms_p99'])}",
        ]
        write_line(f"{name}: " + "; ".join(parts))


def _add_bot_commands(sub: Any) -> None:
    levels = ("beginner", "standard", "expert")
    bot = sub.add_parser(
        "bot", help="a computer player: one hand-record position per line in, one action out"
    )
    bot.add_argument("--level", default="standard", choices=levels, help="the bot's level")
    bot.add_argument("--seed", type=int, default=0, help="the table's seed for the bot (default 0)")
    bot.set_defaults(func=cmd_bot)

    arena = sub.add_parser("arena", help="duplicate match of two bot levels over seeded deals")
    arena.add_argument("--candidate", default="standard", choices=levels)
    arena.add_argument("--baseline", default="beginner", choices=levels)
    arena.add_argument("--candidate-command", help="seat an outside bot program as the candidate")
    arena.add_argument("--baseline-command", help="seat an outside bot program as the baseline")
    arena.add_argument("--deals", type=int, default=2000, help="how many deals (default 2000)")
    arena.add_argument("--deal-seed", default="issue3-eval", help="the deal set's name")
    arena.add_argument("--first", type=int, default=0, help="index of the first deal")
    arena.add_argument("--players", type=int, default=5, choices=(3, 4, 5, 6))
    arena.add_argument("--rules", choices=sorted(_presets()), help="a rules preset")
    arena.add_argument(
        "--rule",
        action="append",
        metavar="NAME=VALUE",
        help="a house rule over the preset, as in a record's rules (cracking=true); repeatable",
    )
    arena.add_argument("--seed", type=int, default=0, help="the bots' table seed (default 0)")
    arena.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples")
    arena.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    arena.add_argument("--progress", action="store_true", help="report progress on stderr")
    arena.add_argument("--json", action="store_true", help="print the report as JSON")
    arena.set_defaults(func=cmd_arena)


def _presets() -> list[str]:
    from sheepshead.rules import PRESETS

    return list(PRESETS)


def cmd_verify_daily(day_text: str, seed_text: str, published: str | None, as_json: bool) -> int:
    """``verify DATE SEED``: a daily game's five deals from its revealed seed, and the
    seed's SHA-256, to compare with the commitment published at the day's start."""

    from datetime import date

    from sheepshead import daily_game

    try:
        day = date.fromisoformat(day_text)
        seed = daily_game.parse_seed(seed_text)
    except ValueError as exc:
        write_line(f"usage: sheepshead verify YYYY-MM-DD SEED ({exc})")
        return 2
    digest = daily_game.commitment(seed)
    matches = None if published is None else published.strip().lower() == digest
    deals = daily_game.reveal(seed)
    if as_json:
        out: dict[str, Any] = {"date": day.isoformat(), "seed_sha256": digest}
        out["deals"] = [d.to_json() for d in deals]
        if matches is not None:
            out["matches"] = matches
        write_line(json.dumps(out))
    else:
        write_line(f"daily game {day.isoformat()}: seed sha256 {digest}")
        if matches is not None:
            write_line("matches the commitment published" if matches else "DOES NOT MATCH")
        for d in deals:
            write_line(f"deal {d.k + 1}, dealer seat {d.dealer}, seed {d.seed.hex()}")
            for seat, cards in enumerate(d.hands):
                write_line(f"  seat {seat}: {' '.join(c.text for c in cards)}")
            write_line(f"  blind:  {' '.join(c.text for c in d.blind)}")
    return 1 if matches is False else 0


def build_parser() -> argparse.ArgumentParser:
    import argparse

    from sheepshead import coach_cli
    from sheepshead.cli_admin import add_admin_commands

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
    verify.add_argument("seed", help="the seed, in hexadecimal (or a daily game's DATE)")
    verify.add_argument(
        "day_seed", nargs="?", metavar="SEED", help="with a DATE first: the day's seed (daily)"
    )
    verify.add_argument("--players", type=int, default=5, choices=(3, 4, 5, 6))
    verify.add_argument("--sha256", help="the SHA-256 shown when the hand was dealt, to check")
    verify.add_argument("--json", action="store_true", help="print JSON, as /api/v1/verify does")
    verify.set_defaults(func=cmd_verify)

    add_admin_commands(sub)

    _add_bot_commands(sub)

    # Subcommands added by other layers: name -> (help, function adding its arguments).
    for name, (helptext, register) in coach_cli.COMMANDS.items():
        register(sub.add_parser(name, help=helptext))
    return parser


def _plain_check(words: list[str]) -> bool:
    """Whether the words are ``check`` or ``check FILE`` (FILE no option; ``-`` is
    standard input). Anything else (``--help``, more words) goes through argparse."""
    if not 1 <= len(words) <= 2 or words[0] != "check":
        return False
    return len(words) == 1 or words[1] == "-" or not words[1].startswith("-")


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    if _plain_check(words):
        # What argparse would make of it, without building every subcommand's parser.
        return check_file(words[1] if len(words) == 2 else None)
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Command = args.func
    return func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
