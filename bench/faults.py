"""Faults: kill the server, lose the database, race two servers; and the tools for it.

The machinery here (a server in a subprocess, a TCP proxy to cut, players that
remember what the server acknowledged, the checks) is shared with
``tests/server/test_faults.py``, which runs short versions of the same three scenarios in the
suite. This script runs them longer, with more players and rounds:

    .venv/bin/python bench/faults.py kill --database sqlite --players 40 --rounds 5
    .venv/bin/python bench/faults.py kill --database postgres --players 40 --rounds 5
    .venv/bin/python bench/faults.py cut --players 20 --rounds 5 --outage 10
    .venv/bin/python bench/faults.py race --games 40 --actions 10

- ``kill``: players play flat out; the server gets SIGKILL in the middle; it is started
  again on the same database; every acknowledged action must be there and every game
  must play on. ``--rounds`` times.
- ``cut``: the server reaches PostgreSQL through a TCP proxy of our own; the proxy is
  cut (open connections reset, new ones refused) for ``--outage`` seconds: requests must
  fail fast with 503 and the database's message, and succeed again once the proxy is
  back, without a restart; nothing may be half-written. The machine's PostgreSQL is
  never stopped.
- ``race``: two server processes on one PostgreSQL database get the same action for
  the same game at the same moment: exactly one applies, the other gets 409.

Everything listens on 127.0.0.1 only; databases are created for the run and dropped.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import secrets
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy.engine import make_url

from servers import (
    PG_HOST,
    PG_PORT,
    TLS,
    ServerProcess,
    TcpProxy,
    get,
    migrate_database,
    postgres_database,
)

#: The message of a request that cannot reach the database (server/observability.py).
DATABASE_DOWN = "the game's database cannot be reached just now; try again in a few seconds"
Json = dict[str, Any]


# Players that remember what the server acknowledged ------------------------------------------


@dataclass
class Reply:
    status: int
    body: Json
    seconds: float
    sent_at: float


@dataclass
class FaultPlayer:
    """One identity at one table, playing random legal actions as fast as it gets replies."""

    url: str
    rng: random.Random
    client: httpx.Client = field(init=False)
    game_id: str = ""
    #: The last state the server acknowledged (a 200 or 201 reply), and its version.
    acked: Json = field(default_factory=dict)
    #: A request sent and not answered (the server died or the database went away).
    in_flight: Json | None = None
    replies: list[Reply] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.client = httpx.Client(base_url=self.url, timeout=30, verify=TLS)

    def point_at(self, url: str) -> None:
        """The same player (cookie) at another address: a restarted server."""
        cookies = self.client.cookies
        self.client.close()
        self.client = httpx.Client(base_url=url, timeout=30, cookies=cookies, verify=TLS)
        self.url = url

    def send(self, method: str, path: str, body: Json | None = None) -> Reply:
        self.in_flight = {"method": method, "path": path, "body": body}
        sent = time.monotonic()
        response = self.client.request(method, path, json=body)
        self.in_flight = None
        try:
            data = response.json()
        except ValueError:
            data = {"text": response.text}
        reply = Reply(response.status_code, data, time.monotonic() - sent, sent)
        self.replies.append(reply)
        if response.status_code in (200, 201) and "state" in data:
            self.acked = data["state"]
            self.game_id = self.acked["id"]
        return reply

    def start(self) -> Reply:
        return self.send("POST", "/api/v1/games", {"level": "standard"})

    def step(self) -> Reply:
        """The next request of the game: an action, or the next hand once one is over."""
        state = self.acked
        if state["hand_over"]:
            return self.send(
                "POST", f"/api/v1/games/{self.game_id}/next-hand", {"version": state["version"]}
            )
        action = self.rng.choice(state["view"]["legal"])
        return self.send(
            "POST",
            f"/api/v1/games/{self.game_id}/actions",
            {"action": action, "version": state["version"]},
        )

    def resync(self) -> Json:
        """The game as the server has it now (after a failure, as the page does on 409)."""
        response = self.client.get(f"/api/v1/games/{self.game_id}")
        response.raise_for_status()
        state: Json = response.json()
        return state

    def play_until(self, stop: threading.Event, errors: list[str]) -> None:
        """Plays until ``stop``; a connection failure ends the loop (the server died)."""
        while not stop.is_set():
            try:
                reply = self.step()
            except httpx.HTTPError:
                return
            if reply.status not in (200, 201):
                errors.append(f"{self.game_id}: {reply.status} {reply.body}")
                return

    def close(self) -> None:
        self.client.close()


def check_acknowledged(player: FaultPlayer, now: Json) -> str:
    """Is every action the server acknowledged to this player in ``now``? Returns how
    the game stands ("same", or "ahead" when a request in flight at the failure had
    gone through), raising AssertionError otherwise."""
    acked = player.acked
    assert now["version"] >= acked["version"], (player.game_id, now["version"], acked["version"])
    if now["version"] == acked["version"]:
        assert now == acked, f"{player.game_id}: same version, another state"
        return "same"
    # Only the request in flight can have gone through, unanswered: one step further.
    assert player.in_flight is not None, f"{player.game_id}: ahead with nothing in flight"
    if now["hand_number"] == acked["hand_number"]:
        before, after = acked["view"]["moves"], now["view"]["moves"]
        assert len(after) >= len(before), f"{player.game_id}: moves lost"
        for old, new in zip(before, after, strict=False):
            # Once the hand is over the view shows what it hid (a bot's bury, the
            # face-down card): the same move, told in full.
            same = old == new or (now["hand_over"] and old.split()[:2] == new.split()[:2])
            assert same, f"{player.game_id}: {old!r} became {new!r}"
    else:
        assert now["hand_number"] == acked["hand_number"] + 1
        assert acked["hand_over"]
    return "ahead"


def check_stored(database_url: str) -> int:
    """Reads every game straight from the database (not through a server) and replays
    it: the stored version must be the one its stored moves give, so no write was half
    done. Returns how many games were checked."""
    from sqlalchemy import select

    from sheepshead.rules import Rules
    from sheepshead.store import Store, open_engine
    from sheepshead.store.models import GameRow
    from sheepshead.table import Table

    engine = open_engine(database_url)
    try:
        store = Store(engine)
        with engine.connect() as conn:
            games = conn.execute(select(GameRow.id, GameRow.player_id)).all()
        for game_id, player_id in games:
            stored = store.load_game(game_id, player_id)
            assert stored is not None
            table = Table.restore(
                Rules.from_record(stored.rules),
                stored.level,
                stored.bot_seed,
                stored.first_dealer,
                [(h.seed, h.moves) for h in stored.hands],
            )
            assert table.version == stored.version, (game_id, table.version, stored.version)
            for hand in stored.hands[:-1]:
                assert hand.done, f"{game_id}: hand {hand.number} is not over yet a later one is"
        return len(games)
    finally:
        engine.dispose()


def play_on(player: FaultPlayer, until_hands: int) -> None:
    """After a failure: resync, then play until ``until_hands`` more hands are dealt."""
    player.acked = player.resync()
    target = player.acked["hand_number"] + until_hands
    while player.acked["hand_number"] < target:
        reply = player.step()
        assert reply.status == 200, (player.game_id, reply.status, reply.body)


# Scenarios ------------------------------------------------------------------------------------


def kill_round(
    server: ServerProcess,
    players: list[FaultPlayer],
    *,
    acks_before_kill: int,
    log: Callable[[str], None] = lambda _: None,
) -> dict[str, int]:
    """Players play flat out; SIGKILL once ``acks_before_kill`` replies came back; restart;
    check every acknowledged action; play every game on by a hand."""
    stop, errors = threading.Event(), list[str]()
    before = sum(len(p.replies) for p in players)
    threads = [
        threading.Thread(target=p.play_until, args=(stop, errors), daemon=True) for p in players
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while sum(len(p.replies) for p in players) - before < acks_before_kill:
        assert time.monotonic() < deadline, "the players made no progress"
        time.sleep(0.01)
    server.kill(signal.SIGKILL)
    in_flight = sum(p.in_flight is not None for p in players)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors[:5]
    server.start()
    outcome = {"same": 0, "ahead": 0}
    for player in players:
        player.point_at(server.url)
        outcome[check_acknowledged(player, player.resync())] += 1
        player.in_flight = None
    for player in players:
        play_on(player, until_hands=1)
    log(f"killed with {in_flight} requests in flight: {outcome}")
    return {"in_flight": in_flight, **outcome}


def cut_round(
    server: ServerProcess,
    proxy: TcpProxy,
    players: list[FaultPlayer],
    *,
    outage: float,
    log: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Cut the database away for ``outage`` seconds while players play; then restore it."""
    stop, errors = threading.Event(), list[str]()
    during: list[Reply] = []
    lock = threading.Lock()

    def play(player: FaultPlayer) -> None:
        while not stop.is_set():
            try:
                reply = player.step()
            except httpx.HTTPError as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
                return
            if reply.status == 503:
                with lock:
                    during.append(reply)
                # The action may or may not have gone through: ask, as the page would.
                with contextlib.suppress(httpx.HTTPError):
                    again = player.client.get(f"/api/v1/games/{player.game_id}")
                    if again.status_code == 200:
                        player.acked = again.json()
                time.sleep(0.05)
            elif reply.status == 409:
                # An action that went through while its reply could not: the page
                # takes the game as the 409 gives it, and goes on from there.
                player.acked = reply.body["state"]
            elif reply.status not in (200, 201):
                errors.append(f"{reply.status} {reply.body}")
                return

    threads = [threading.Thread(target=play, args=(p,), daemon=True) for p in players]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    cut_at = time.monotonic()
    proxy.cut()
    health = get(server.url + "/healthz").status_code
    ready = get(server.url + "/readyz")
    time.sleep(outage)
    proxy.restore()
    restored_at = time.monotonic()
    # Back without a restart: the first request after the database returns succeeds.
    recovered = None
    while time.monotonic() - restored_at < 30:
        if get(server.url + "/readyz").status_code == 200:
            recovered = time.monotonic() - restored_at
            break
        time.sleep(0.05)
    time.sleep(0.5)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors[:5]
    # The requests sent well inside the outage: 503 with the database's message, fast.
    inside = [r for r in during if cut_at + 0.2 < r.sent_at < restored_at - 0.1]
    slowest = max((r.seconds for r in during), default=0.0)
    result = {
        "healthz_during": health,
        "readyz_during": ready.status_code,
        "readyz_body": ready.json(),
        "refused": len(during),
        "refused_inside": len(inside),
        "slowest_refusal_s": round(slowest, 3),
        "messages": sorted({str(r.body.get("detail")) for r in during}),
        "recovered_s": None if recovered is None else round(recovered, 3),
    }
    for player in players:
        play_on(player, until_hands=1)
    log(json.dumps(result))
    return result


def simultaneous(clients: list[httpx.Client], path: str, body: Json) -> list[httpx.Response]:
    """The same POST from every client, released at the same instant."""
    barrier = threading.Barrier(len(clients))
    replies: list[httpx.Response | None] = [None] * len(clients)

    def send(i: int) -> None:
        barrier.wait()
        replies[i] = clients[i].post(path, json=body)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    done = [r for r in replies if r is not None]
    assert len(done) == len(clients), "a request got no reply"
    return done


def race(urls: tuple[str, str], player: FaultPlayer, rounds: int) -> dict[str, int]:
    """The same action for the same game sent to both servers at once, ``rounds`` times.
    Counts how each pair ended; raises AssertionError unless exactly one applied."""
    counts = {"pairs": 0, "decided_by_the_database": 0, "decided_at_load": 0}
    cookies = player.client.cookies
    clients = [httpx.Client(base_url=u, timeout=30, cookies=cookies, verify=TLS) for u in urls]
    try:
        for _ in range(rounds):
            state = player.acked
            if state["hand_over"]:
                player.step()
                continue
            body = {
                "action": player.rng.choice(state["view"]["legal"]),
                "version": state["version"],
            }
            path = f"/api/v1/games/{player.game_id}/actions"
            replies = simultaneous(clients, path, body)
            statuses = sorted(r.status_code for r in replies)
            assert statuses == [200, 409], [(r.status_code, r.text[:200]) for r in replies]
            won = next(r for r in replies if r.status_code == 200).json()
            lost = next(r for r in replies if r.status_code == 409).json()
            # The loser is told the game as the winner left it: one action, applied once.
            assert lost["state"] == won["state"]
            assert won["state"]["version"] > state["version"]
            moves = won["state"]["view"]["moves"]
            mine = [m for m in moves[len(state["view"]["moves"]) :] if m.startswith("0 ")]
            assert mine == [f"0 {body['action']}"], mine
            counts["pairs"] += 1
            if "on its way" in lost["detail"]:
                counts["decided_by_the_database"] += 1  # both loaded the same version
            else:
                counts["decided_at_load"] += 1
            player.acked = won["state"]
    finally:
        for client in clients:
            client.close()
    return counts


# The command ---------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", choices=("kill", "cut", "race"))
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="postgres")
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--acks", type=int, default=200, help="kill: replies before the kill")
    parser.add_argument("--outage", type=float, default=5.0, help="cut: seconds without it")
    parser.add_argument("--games", type=int, default=20, help="race: games")
    parser.add_argument("--actions", type=int, default=8, help="race: races per game")
    parser.add_argument("--seed", default="faults")
    args = parser.parse_args()
    if args.scenario == "cut":
        args.database = "postgres"

    def say(text: str) -> None:
        print(text, flush=True)

    started = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="sheepshead-faults-") as scratch,
        contextlib.ExitStack() as stack,
    ):
        data = Path(scratch)
        if args.database == "postgres":
            _, _, url = stack.enter_context(postgres_database())
        else:
            url = f"sqlite:///{data / 'faults.db'}"
        migrate_database(url)
        env = {"SHEEPSHEAD_MIGRATE": "0", "SHEEPSHEAD_DAILY_SECRET": secrets.token_hex(32)}
        if args.scenario == "race":
            if args.database != "postgres":
                parser.error("race needs PostgreSQL: two processes on one database")
            urls = []
            for n in ("1", "2"):
                (data / n).mkdir()
                urls.append(stack.enter_context(ServerProcess(url, data / n, env=env)).start().url)
            totals: dict[str, int] = {}
            for g in range(args.games):
                player = FaultPlayer(urls[0], random.Random(f"{args.seed}/{g}"))
                assert player.start().status == 201
                for key, value in race((urls[0], urls[1]), player, args.actions).items():
                    totals[key] = totals.get(key, 0) + value
                player.close()
            say(json.dumps(totals))
        else:
            proxy = None
            if args.scenario == "cut":
                proxy = stack.enter_context(TcpProxy(PG_HOST, PG_PORT))
                url_of_server = make_url(url).set(port=proxy.port)
                served = url_of_server.render_as_string(hide_password=False)
            else:
                served = url
            server = stack.enter_context(ServerProcess(served, data, env=env)).start()
            players = [
                FaultPlayer(server.url, random.Random(f"{args.seed}/{i}"))
                for i in range(args.players)
            ]
            for player in players:
                assert player.start().status == 201
            for round_no in range(1, args.rounds + 1):
                if proxy is None:
                    result = kill_round(server, players, acks_before_kill=args.acks)
                else:
                    result = cut_round(server, proxy, players, outage=args.outage)
                say(f"round {round_no}: {json.dumps(result)}")
        say(f"stored games replay to their stored versions: {check_stored(url)} games")
    say(f"done in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
