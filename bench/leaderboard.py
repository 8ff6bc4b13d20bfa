"""Daily leaderboard speed: today's top 100 and one player's own rank, with 100,000
results in the table (docs/performance.md, "Daily leaderboard").

    .venv/bin/python bench/leaderboard.py                 # SQLite, a temporary file
    .venv/bin/python bench/leaderboard.py --postgres      # the machine's PostgreSQL
    .venv/bin/python bench/leaderboard.py --http          # and the whole board route

Fills one day with N finished results (game points per deal drawn from a spread
like real play), refreshes the board once (timed: the set-based matchpoint and rank
UPDATE), then times Q reads of each kind through the store, as the API makes them:
the top 100 (``board``), and a random player's line plus how many share its rank
(``line`` + ``level_with``). Prints p50/p95/max in milliseconds. Bounded: it stops
after its Q queries; the PostgreSQL database it creates is dropped at the end.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import tempfile
import time
from datetime import UTC, date, datetime
from pathlib import Path

from sqlalchemy import create_engine, insert, text

from sheepshead.store import migrate, open_engine
from sheepshead.store.daily_models import DailyDay, DailyResult
from sheepshead.store.daily_store import DailyStore
from sheepshead.store.models import Player

PG_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
DAY = date(2025, 6, 1)
#: Game points one seat scores on a deal, with rough weights from standard play.
VALUES = [-12, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6, 8, 12]
WEIGHTS = [1, 2, 4, 6, 18, 20, 3, 20, 10, 6, 6, 2, 1, 1]


def fill(engine_url: str, n: int, rng: random.Random) -> list[str]:
    engine = open_engine(engine_url)
    migrate(engine)
    now = datetime.now(UTC)
    ids = [secrets.token_hex(16) for _ in range(n)]
    with engine.begin() as conn:
        conn.execute(
            insert(DailyDay).values(
                day=DAY, commitment="0" * 64, bot_version="bench", field=0, created_at=now
            )
        )
        for start in range(0, n, 10_000):
            chunk = ids[start : start + 10_000]
            conn.execute(insert(Player), [{"id": p, "created_at": now} for p in chunk])
            rows = []
            for p in chunk:
                points = rng.choices(VALUES, WEIGHTS, k=5)
                rows.append(
                    {
                        "day": DAY,
                        "player_id": p,
                        "attempt_id": p,
                        **{f"d{k + 1}": v for k, v in enumerate(points)},
                        "total": sum(points),
                        "finished_at": now,
                    }
                )
            conn.execute(insert(DailyResult), rows)
    engine.dispose()
    return ids


def timed(fn: object, count: int) -> list[float]:
    out = []
    for _ in range(count):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        out.append((time.perf_counter() - t) * 1000)
    return out


def report(name: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    p50 = statistics.median(ms)
    print(f"  {name:<28} p50 {p50:6.2f} ms   p95 {p95:6.2f} ms   max {ms[-1]:6.2f} ms")


def run(url: str, n: int, queries: int, seed: int, http: bool = False) -> None:
    rng = random.Random(seed)
    t = time.perf_counter()
    ids = fill(url, n, rng)
    print(f"  filled {n} results in {time.perf_counter() - t:.1f} s")
    engine = open_engine(url)
    store = DailyStore(engine)
    t = time.perf_counter()
    field = store.refresh_board(DAY)
    print(f"  refresh (matchpoints + ranks of {field}) {(time.perf_counter() - t) * 1000:.0f} ms")
    assert len(store.board(DAY, 100)) == 100
    report("top 100", timed(lambda: store.board(DAY, 100), queries))

    def own() -> None:
        line = store.line(DAY, rng.choice(ids))
        assert line is not None
        assert line.rank is not None
        store.level_with(DAY, line.rank)

    report("own rank (line + level)", timed(own, queries))
    engine.dispose()
    if http:
        report("GET /board (whole route)", route_timings(url, ids, queries, rng))


def route_timings(url: str, ids: list[str], queries: int, rng: random.Random) -> list[float]:
    """``GET /api/v1/daily/board`` through the app in-process, for a random player of
    the field, on the refreshed day (its end shown): every query the page makes."""
    import logging
    import warnings
    from datetime import timedelta

    from sheepshead.server import Settings, create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    logging.disable(logging.CRITICAL)  # the access log of every request would be timed too
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            data_dir=Path(tmp),
            database_url=url,
            daily_secret="bench",
            daily_level="standard",
            rate_identities=None,
            rate_actions=None,
            rate_actions_per_address=None,
        )
        app = create_app(settings)
        noon = datetime.combine(DAY, datetime.min.time(), tzinfo=UTC) + timedelta(hours=17)
        app.state.daily_clock = lambda: noon
        client = TestClient(app, base_url="http://localhost")
        out = []
        for _ in range(queries):
            client.cookies.set("sheepshead_player", rng.choice(ids))
            t = time.perf_counter()
            reply = client.get("/api/v1/daily/board")
            out.append((time.perf_counter() - t) * 1000)
            assert reply.status_code == 200
            assert reply.json()["me"]["rank"] is not None
        app.state.engine.dispose()
    logging.disable(logging.NOTSET)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", action="store_true", help="use 127.0.0.1:5432")
    parser.add_argument(
        "--http", action="store_true", help="also time GET /api/v1/daily/board, the whole route"
    )
    args = parser.parse_args()
    if args.postgres:
        name = f"sheepshead_bench_{secrets.token_hex(4)}"
        admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            print(f"PostgreSQL, {args.results} results")
            run(
                f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}",
                args.results,
                args.queries,
                args.seed,
                args.http,
            )
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()
    else:
        with tempfile.TemporaryDirectory() as tmp:
            print(f"SQLite, {args.results} results")
            url = f"sqlite:///{Path(tmp) / 'bench.db'}"
            run(url, args.results, args.queries, args.seed, args.http)


if __name__ == "__main__":
    main()
