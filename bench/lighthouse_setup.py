"""Fills a fresh data directory so that every page of the site has something to show,
for ``bench/lighthouse.sh``; prints one line per page: its path, then ``cookie`` if
Lighthouse must load it as the player who made that content.

Through the real app in process, before ``sheepshead serve`` opens the same database:
yesterday's daily game begun (so its archive page exists), one player who finished a
hand at a standard table (the hand's review page, ``/me``), chose a name and made a
club (the club's page and its invitation), and opened a friends' table. The player's
cookie goes to the file named by ``--cookie-file`` (``sheepshead_player=<id>``).

    .venv/bin/python bench/lighthouse_setup.py --data-dir DIR --cookie-file FILE
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from sheepshead import daily_game
from sheepshead.server import Settings, create_app
from sheepshead.server.identity import COOKIE

#: Pages that need no content made first, as a first-time visitor opens them.
PLAIN = (
    "/",
    "/play",
    "/daily",
    "/leaderboard",
    "/clubs",
    "/friends",
    "/verify",
    "/verify/daily",
    "/privacy",
    "/guide",
    "/guide/standard",
    "/guide/cards",
    "/guide/picking",
    "/guide/scoring",
    "/guide/nobody-picks",
    "/guide/worked-hand",
    "/guide/glossary",
    "/guide/questions",
    "/guide/history",
    "/offline/en",
)


def ok(response: Any) -> Any:
    if response.status_code >= 300:
        sys.exit(
            f"{response.request.method} {response.request.url}: {response.status_code} "
            f"{response.text[:300]}"
        )
    return response.json()


def finish_a_hand(client: TestClient) -> tuple[str, int]:
    """A standard table, random legal actions to the end of its first hand."""
    rng = random.Random(20)
    step = ok(client.post("/api/v1/games", json={"level": "standard"}))
    state = step["state"]
    while not state["hand_over"]:
        action = rng.choice(state["view"]["legal"])
        body = {"action": action, "version": state["version"]}
        state = ok(client.post(f"/api/v1/games/{state['id']}/actions", json=body))["state"]
    return str(state["id"]), 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--cookie-file", type=Path, required=True)
    args = parser.parse_args()

    settings = Settings(data_dir=args.data_dir)
    app = create_app(settings)
    now = datetime.now(UTC)
    yesterday = daily_game.day_of(now) - timedelta(days=1)
    app.state.daily_clock = lambda: daily_game.day_start(yesterday) + timedelta(hours=12)
    client = TestClient(app, base_url="https://testserver")  # the cookie is Secure
    ok(client.get("/api/v1/daily/today"))  # yesterday's day begins: its commitment made
    app.state.daily_clock = None

    game_id, number = finish_a_hand(client)
    ok(client.put("/api/v1/daily/me/name", json={"name": "Lighthouse"}))
    club = ok(client.post("/api/v1/clubs", json={"name": "Lighthouse keepers"}))
    table = ok(client.post("/api/v1/tables", json={}))
    player = client.cookies.get(COOKIE)
    assert player, "no identity was issued"
    args.cookie_file.write_text(f"{COOKIE}={player}\n")
    app.state.daily.close()
    app.state.engine.dispose()

    for path in PLAIN:
        print(path)
    print(f"/daily/{yesterday.isoformat()}")
    print(club["invitation"])  # as the friend who was sent it sees it
    print("/me cookie")
    print(f"/review/{game_id}/{number} cookie")
    print(f"/clubs/{club['id']} cookie")
    print(f"{table['url']} cookie")


if __name__ == "__main__":
    main()
