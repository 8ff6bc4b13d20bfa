"""Fuzz the API for longer than the suite does: schemathesis, valid and invalid
requests to every operation of the OpenAPI document, every answer checked (no 5xx;
status code, content type, headers and body as documented).

    .venv/bin/python bench/fuzz.py [--examples 500] [--seed 1] [--database-url URL]
    .venv/bin/python bench/fuzz.py --limiter-cost [--database-url URL]

The app runs in this process (ASGI, no network) on a fresh SQLite file, or on the
given database; rate limits are off (the fuzzer is one client sending thousands of
requests). Prints, per operation and mode, the requests sent, the statuses seen and
any failure (shrunk to a small example), then the totals. Exit status 1 on a failure.
``--limiter-cost`` instead times what the rate limits add to a request that changes
something: one player's and one address's bucket taken in one transaction, as the
guard does, 2000 times (each from a bucket with room: the common case).
Figures go in docs/performance.md, "Hostile input".
"""

from __future__ import annotations

import argparse
import logging
import statistics
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, seed, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import APIOperation, Case, GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from starlette.datastructures import Headers

from sheepshead.server import Settings, create_app
from sheepshead.server.identity import COOKIE
from sheepshead.server.settings import Rate

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


def fuzz(
    operation: APIOperation,
    mode: GenerationMode,
    examples: int,
    seed_: int,
    owned: dict[str, str] | None = None,
) -> tuple[Counter[int], str | None]:
    """Up to ``examples`` requests to one operation: the statuses seen, and the first
    failure (as schemathesis words it, shrunk to a small example) if any. ``owned``:
    the ids of a real game and attempt, and the cookie of their player, so that the
    requests reach a real table rather than a 404."""
    statuses: Counter[int] = Counter()
    if owned is None:
        strategy = operation.as_strategy(generation_mode=mode)
    else:
        names = {p.name for p in operation.iter_parameters() if p.location == "path"}
        strategy = operation.as_strategy(
            generation_mode=mode,
            path_parameters={k: v for k, v in owned.items() if k in names},
            cookies={COOKIE: owned["player"]},
        )

    @seed(seed_)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def run(case: Case) -> None:
        response = case.call()
        statuses[response.status_code] += 1
        case.validate_response(response, checks=CHECKS)

    try:
        run()
    except Unsatisfiable:
        pass  # nothing in this operation's parameters can be made invalid
    except Exception as exc:
        return statuses, str(exc)
    return statuses, None


def owner(app: Any) -> dict[str, str]:
    """A player with a game and a daily attempt: their ids and the player's cookie."""
    with TestClient(app, base_url="http://localhost") as client:
        game = client.post("/api/v1/games", json={}).json()["state"]["id"]
        attempt = client.post("/api/v1/daily/attempts").json()["state"]["id"]
        return {"game_id": game, "attempt_id": attempt, "player": client.cookies[COOKIE]}


def limiter_cost(app: Any, requests: int = 2000) -> None:
    limiter = app.state.limiter
    scope: dict[str, Any] = {"type": "http", "client": ("203.0.113.7", 50000)}
    times = []
    for n in range(requests):
        # A new player every 50 requests: buckets are created as well as updated.
        headers = Headers({"cookie": f"{COOKIE}={n // 50:032x}"})
        began = time.perf_counter()
        limiter.actions(scope, headers)
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    print(
        f"limiter, {requests} requests: median {statistics.median(times):.2f} ms, "
        f"p95 {times[int(0.95 * len(times))]:.2f} ms, p99 {times[int(0.99 * len(times))]:.2f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=500, help="per operation and mode")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--limiter-cost", action="store_true")
    args = parser.parse_args()
    # One JSON line per request would drown the figures.
    logging.getLogger("sheepshead.access").setLevel(logging.WARNING)

    with tempfile.TemporaryDirectory() as data:
        app = create_app(
            Settings(
                data_dir=Path(data),
                database_url=args.database_url,
                dev=True,
                daily_secret="fuzz",
                daily_level="standard",
                rate_identities=None,
                rate_actions=None,
                rate_actions_per_address=None,
            )
        )
        if args.limiter_cost:
            app.state.limiter.settings = Settings(
                rate_actions=Rate(1_000_000, 1), rate_actions_per_address=Rate(1_000_000, 1)
            )
            limiter_cost(app)
            app.state.engine.dispose()
            return 0
        schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", app)
        total_requests = 0
        failures: list[str] = []
        statuses_all: Counter[int] = Counter()
        started = time.perf_counter()
        print(f"{'operation':<62} {'mode':<8} {'requests':>8} {'s':>6}  statuses")
        ids = owner(app)
        for result in schema.get_all_operations():
            operation = result.ok()
            runs: list[tuple[str, GenerationMode, dict[str, str] | None]] = [
                ("positive", GenerationMode.POSITIVE, None),
                ("negative", GenerationMode.NEGATIVE, None),
            ]
            if {"{game_id}", "{attempt_id}"} & set(operation.path.split("/")):
                runs.append(("owned", GenerationMode.POSITIVE, ids))
            for name, mode, owned in runs:
                began = time.perf_counter()
                statuses, failure = fuzz(operation, mode, args.examples, args.seed, owned)
                took = time.perf_counter() - began
                if failure is not None:
                    failures.append(f"{operation.label} ({name}): {failure}")
                sent = sum(statuses.values())
                total_requests += sent
                statuses_all.update(statuses)
                seen = " ".join(f"{code}:{n}" for code, n in sorted(statuses.items()))
                print(f"{operation.label:<62} {name:<8} {sent:>8} {took:>6.1f}  {seen}")
        elapsed = time.perf_counter() - started
        app.state.engine.dispose()
    print()
    print(f"requests: {total_requests} in {elapsed:.0f} s ({total_requests / elapsed:.0f}/s)")
    print("statuses:", " ".join(f"{c}:{n}" for c, n in sorted(statuses_all.items())))
    print(f"5xx: {sum(n for c, n in statuses_all.items() if c >= 500)}")
    print(f"failures: {len(failures)}")
    for failure in failures:
        print("-" * 72)
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
