"""Your games' speed: ``GET /api/v1/me/stats`` and the history's pages for a player with
10,000 hands and 365 daily days (docs/performance.md, "Your games").

    .venv/bin/python bench/stats.py                 # SQLite, a temporary file
    .venv/bin/python bench/stats.py --postgres      # the machine's PostgreSQL
    .venv/bin/python bench/stats.py --postgres --explain   # and the history's query plans

Fills the database as play leaves it: the player's history lines and tallies as
``stats.record_hand`` writes them (worked out with its own functions, written in bulk),
each free hand with its game's stored hand and one game in ten as a friends' table's
hands (the history joins them for the review link),
and each of the 365 days through ``count_day`` with the day's board (a field of 200,
the player's rank); ``--others`` more players with hands of their own share the
tables. The first read of the statistics settles the percentiles of the days (timed
apart); then Q requests of each kind go through the real app (in process), timed from
the request entering the app to the last byte of its reply. Prints p50/p95/max in ms
and checks the limits (issue 18): stats p95 at most 50 ms, the history's first page
at most 30 ms. Bounded: Q requests each; a PostgreSQL database it creates is dropped.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import secrets
import sys
import tempfile
import time
import warnings
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from sqlalchemy import Connection, create_engine, insert, text

from sheepshead.server import Settings, create_app
from sheepshead.store import migrate, open_engine
from sheepshead.store.daily_models import DailyAttempt, DailyDay, DailyResult
from sheepshead.store.friends import FriendHandRow, FriendTableRow
from sheepshead.store.hand_lines import ROLES, THROWN_IN, HandLine
from sheepshead.store.models import GameRow, HandRow, Player
from sheepshead.store.stats import (
    count_day,
    counts_of,
    figures_of,
    history_statements,
)
from sheepshead.store.stats_models import COUNTS, StatHand, StatTally

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import Timer, describe, percentile

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PG_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
LIMITS_MS = {"stats": 50.0, "history, first page": 30.0}
#: The last day played: "today" for the app's clock in this run.
TODAY = date(2025, 12, 31)
HANDS_PER_GAME = 20
PRESETS = ["standard"] * 6 + ["three-handed", "jack-of-diamonds"]


def _line(rng: random.Random, players: int) -> HandLine:
    role = rng.choices([*ROLES, THROWN_IN], [15, 10, 60, 3, 4, 1])[0]
    points = 0 if role == THROWN_IN else rng.choice([-6, -3, -2, -1, 1, 2, 3, 4, 6])
    schneider = rng.choice([None, None, None, "won", "lost"])
    picked = role in ("picker", "alone")
    return HandLine(
        players=players,
        position=rng.randrange(players),
        role=role,
        points=points,
        result="win" if points > 0 else "loss",
        multiplier=1,
        picked=picked,
        picker_won=picked and points > 0,
        schneider=schneider,
        no_trick=None,
    )


def _player(conn: Connection, now: datetime) -> str:
    player = secrets.token_hex(16)
    conn.execute(insert(Player).values(id=player, created_at=now))
    return player


class Written:
    """A player's history lines and tallies as ``record_hand`` leaves them, gathered here
    and written in bulk at the end (a fill of 10,000 hands one by one takes minutes)."""

    def __init__(self, player: str) -> None:
        self.player = player
        self.lines: list[dict[str, object]] = []
        self.tallies: dict[str, Counter[str]] = {}

    def add(
        self, kind: str, preset: str, source: str, number: int, line: HandLine, **more: object
    ) -> None:
        self.lines.append(
            {
                "player_id": self.player,
                "kind": kind,
                "preset": preset,
                "source": source,
                "number": number,
                "day": more.get("day"),
                "players": line.players,
                "position": line.position,
                "role": line.role,
                "result": line.result,
                "points": line.points,
                "multiplier": line.multiplier,
                "finished_at": more.get("at") or datetime.now(UTC),
            }
        )
        for figure in figures_of(line):
            self.tallies.setdefault(figure, Counter()).update(counts_of(line))

    def write(self, conn: Connection) -> None:
        conn.execute(insert(StatHand), self.lines)
        conn.execute(
            insert(StatTally),
            [
                {"player_id": self.player, "figure": f, **{c: n[c] for c in COUNTS}}
                for f, n in self.tallies.items()
            ],
        )


def _game(conn: Connection, out: Written, game: str, friends: bool, now: datetime) -> None:
    if not friends:
        conn.execute(
            insert(GameRow).values(
                id=game,
                player_id=out.player,
                rules={},
                level="standard",
                first_dealer=4,
                bot_seed=1,
                version=1,
                created_at=now,
                updated_at=now,
            )
        )
        return
    conn.execute(
        insert(FriendTableRow).values(
            id=game,
            code=secrets.token_urlsafe(12),
            host_id=out.player,
            rules={},
            level="standard",
            seconds=None,
            hints=False,
            first_dealer=4,
            bot_seed=1,
            version=1,
            stamp=1,
            status="closed",
            turn_seat=None,
            deadline=None,
            messages=[],
            created_at=now,
            acted_at=now,
        )
    )


def _free_hands(conn: Connection, out: Written, count: int, rng: random.Random) -> None:
    """Free play, and one game in ten a friends' table."""
    now = datetime.now(UTC) - timedelta(days=400)
    for start in range(0, count, HANDS_PER_GAME):
        game = secrets.token_hex(16)
        friends = (start // HANDS_PER_GAME) % 10 == 9
        preset = rng.choice(PRESETS)
        players = 3 if preset == "three-handed" else 5
        _game(conn, out, game, friends, now)
        rows = []
        for number in range(1, min(HANDS_PER_GAME, count - start) + 1):
            seed = secrets.token_bytes(32)
            rows.append(
                {
                    "table_id" if friends else "game_id": game,
                    "number": number,
                    "seed": seed,
                    "seed_sha256": hashlib.sha256(seed).hexdigest(),
                    "moves": ["1 pass"] * 40,
                    "done": True,
                }
            )
            now += timedelta(minutes=3)
            kind = "friends" if friends else "free"
            out.add(kind, preset, game, number, _line(rng, players), at=now)
        conn.execute(insert(FriendHandRow if friends else HandRow), rows)


def _others_hands(conn: Connection, player: str, count: int, rng: random.Random) -> None:
    """Another player's history lines, written in bulk: they only share the tables."""
    now = datetime.now(UTC)
    rows = []
    for k in range(count):
        line = _line(rng, 5)
        rows.append(
            {
                "player_id": player,
                "kind": "free",
                "preset": "standard",
                "source": player,
                "number": k + 1,
                "day": None,
                "players": 5,
                "position": line.position,
                "role": line.role,
                "result": line.result,
                "points": line.points,
                "multiplier": 1,
                "finished_at": now,
            }
        )
    conn.execute(insert(StatHand), rows)


def _daily_days(conn: Connection, out: Written, days: int, rng: random.Random) -> None:
    player = out.player
    now = datetime.now(UTC)
    for k in range(days):
        day = TODAY - timedelta(days=days - 1 - k)
        ended = None if day == TODAY else now
        conn.execute(
            insert(DailyDay).values(
                day=day,
                commitment="0" * 64,
                bot_version="bench",
                field=200,
                created_at=now,
                ended_at=ended,
            )
        )
        attempt = secrets.token_hex(16)
        conn.execute(
            insert(DailyAttempt).values(
                id=attempt,
                player_id=player,
                day=day,
                number=1,
                ranked=True,
                moves=[],
                version=1,
                finished=True,
                flagged=False,
                created_at=now,
                updated_at=now,
            )
        )
        points = [rng.choice([-2, -1, 1, 2]) for _ in range(5)]
        conn.execute(
            insert(DailyResult).values(
                day=day,
                player_id=player,
                attempt_id=attempt,
                **{f"d{i + 1}": p for i, p in enumerate(points)},
                total=sum(points),
                marks=[200] * 5,
                mp=1000,
                rank=rng.randint(1, 200),
                finished_at=now,
            )
        )
        for deal in range(1, 6):
            out.add("daily", "standard", attempt, deal, _line(rng, 5), day=day)
        count_day(conn, out.player, day, attempt)


def fill(url: str, hands: int, days: int, others: int, rng: random.Random) -> str:
    engine = open_engine(url)
    migrate(engine)
    now = datetime.now(UTC)
    with engine.begin() as conn:
        player = _player(conn, now)
        out = Written(player)
        _free_hands(conn, out, hands - 5 * days, rng)
        _daily_days(conn, out, days, rng)
        out.write(conn)
        for _ in range(others):
            _others_hands(conn, _player(conn, now), hands // 10, rng)
    engine.dispose()
    return player


def measure(url: str, data: Path, player: str, count: int, hands: int) -> dict[str, list[float]]:
    settings = Settings(data_dir=data, database_url=url, dev=True, rate_actions=None)
    app = create_app(settings)
    app.state.daily_clock = lambda: datetime(2025, 12, 31, 18, 0, tzinfo=UTC)
    timer = Timer(app)
    client = TestClient(timer, base_url="http://localhost")
    client.cookies.set("sheepshead_player", player)
    middle = max(1, hands // 40)
    kinds = {
        "stats": "/api/v1/me/stats",
        "history, first page": "/api/v1/me/hands",
        "history, a middle page": f"/api/v1/me/hands?page={middle}",
        "history, daily only": "/api/v1/me/hands?kind=daily&preset=standard",
        "page /me": "/me",
        "reference: /daily/me": "/api/v1/daily/me",
    }
    # The app's own first-request work (the daily service, the catalogs) is not timed.
    assert client.get("/api/v1/daily/today").status_code == 200
    first = client.get(kinds["stats"])
    assert first.status_code == 200, first.text
    assert first.json()["hands_played"] > 0, first.text
    out: dict[str, list[float]] = {"stats, first read (settles 365 days)": [timer.times[-1]]}
    out.update({name: [] for name in kinds})
    # Interleaved, so that the machine's load weighs on every kind alike; the reference
    # (the player's name: two primary-key reads) shows what the load alone costs.
    for _ in range(count):
        for name, path in kinds.items():
            response = client.get(path)
            assert response.status_code == 200, response.text
            out[name].append(timer.times[-1])
    app.state.engine.dispose()
    return out


def explain(url: str, player: str) -> None:
    """The plans of the history's first page (EXPLAIN ANALYZE on PostgreSQL, after the
    ANALYZE a running server's autovacuum would have made; EXPLAIN QUERY PLAN on SQLite)."""
    engine = open_engine(url)
    postgres = engine.dialect.name == "postgresql"
    with engine.connect() as conn:
        if postgres:
            conn.execute(text("ANALYZE"))
        for stmt in history_statements(player, 1, None, None):
            sql = str(stmt.compile(engine, compile_kwargs={"literal_binds": True}))
            how = "EXPLAIN (ANALYZE, BUFFERS) " if postgres else "EXPLAIN QUERY PLAN "
            print(sql)
            for row in conn.execute(text(how + sql)):
                print("   ", " ".join(str(c) for c in row))
    engine.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--others", type=int, default=20, help="other players, hands/10 each")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--explain", action="store_true", help="print the history's query plans (first page)"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as data:
        name = f"sheepshead_stats_{secrets.token_hex(6)}"
        if args.postgres:
            admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
            url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
        else:
            url = f"sqlite:///{Path(data) / 'stats.db'}"
        try:
            t0 = time.perf_counter()
            player = fill(url, args.hands, args.days, args.others, rng)
            filled = time.perf_counter() - t0
            if args.explain:
                explain(url, player)
            times = measure(url, Path(data), player, args.requests, args.hands)
        finally:
            if args.postgres:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                admin.dispose()
    where = "PostgreSQL" if args.postgres else "SQLite"
    print(
        f"{where}: a player with {args.hands} hands and {args.days} daily days, "
        f"{args.others} other players; filled in {filled:.1f} s"
    )
    failed = False
    for name, seconds in times.items():
        print(describe(name, seconds))
        limit = LIMITS_MS.get(name)
        if limit is not None:
            p95 = percentile([s * 1000 for s in seconds], 95)
            verdict = "OK" if p95 <= limit else "TOO SLOW"
            failed |= p95 > limit
            print(f"  p95 {name}: {p95:.2f} ms (limit {limit:g} ms): {verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
