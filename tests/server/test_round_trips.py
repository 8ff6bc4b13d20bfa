"""The database work of one step at a table, on PostgreSQL: the version check, the
hands and the rate buckets in one transaction, at most four round trips in all
(``docs/performance.md``). Counted with SQLAlchemy's event hooks, not timed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import Engine, event

from server.helpers import TestClient, identify, make_client, new_game
from server.test_postgres import postgres_url  # noqa: F401  (the fixture)
from sheepshead.server import Settings, create_app
from sheepshead.server.settings import Rate

pytestmark = pytest.mark.postgres


class Trips:
    """Each statement sent, and each BEGIN and COMMIT or ROLLBACK of a transaction
    (none on an autocommit connection, where the driver sends neither)."""

    def __init__(self, engine: Engine) -> None:
        self.sent: list[str] = []
        self.stats = 0

        def statement(_c: Any, _cursor: Any, sql: str, *_rest: Any) -> None:
            # A hand's end also writes the player's statistics (issue 18) in the same
            # transaction: counted apart, as "STATS".
            self.sent.append("STATS" if " stat_" in sql else sql.split()[0])

        def transaction(word: str) -> Any:
            def hook(conn: Any) -> None:
                if not conn.connection.dbapi_connection.autocommit:
                    self.sent.append(word)

            return hook

        event.listen(engine, "before_cursor_execute", statement)
        for name in ("begin", "commit", "rollback"):
            event.listen(engine, name, transaction(name.upper()))

    def during(self, call: Any) -> list[str]:
        """The step's own round trips (the statistics' statements of a hand that ended
        left out: they are in the same transaction, checked by ``stats`` below)."""
        self.sent.clear()
        call()
        self.stats = self.sent.count("STATS")
        return [word for word in self.sent if word != "STATS"]


@pytest.fixture
def app(tmp_path: Path, postgres_url: str) -> Iterator[FastAPI]:  # noqa: F811
    # The rate limits on, as served: their buckets are part of the step's work.
    settings = Settings(
        data_dir=tmp_path,
        database_url=postgres_url,
        dev=True,
        rate_identities=None,
        rate_actions=Rate(1000, 1),
        rate_actions_per_address=Rate(1000, 1),
    )
    app = create_app(settings)
    yield app
    app.state.engine.dispose()


def test_a_step_is_one_transaction_of_at_most_four_round_trips(app: FastAPI) -> None:
    client: TestClient = make_client(app)
    identify(app, client)
    state = new_game(client, level="standard")["state"]
    trips = Trips(app.state.engine)

    def step() -> None:
        nonlocal state
        if state["hand_over"]:
            path, body = "next-hand", {"version": state["version"]}
        else:
            path, body = (
                "actions",
                {"action": state["view"]["legal"][0], "version": state["version"]},
            )
        response = client.post(f"/api/v1/games/{state['id']}/{path}", json=body)
        assert response.status_code == 200, response.text
        state = response.json()["state"]

    # The table as this process saved it: no read, the write checks the version.
    statistics = []
    for _ in range(12):
        sent = trips.during(step)
        assert sent.count("BEGIN") == 1, sent
        assert sent.count("COMMIT") == 1, sent
        assert len(sent) <= 4, sent
        statistics.append(trips.stats)
    # Twelve steps end a hand at least once: its statistics went in that one transaction.
    assert any(statistics), statistics
    # A table this process does not hold at that version (another worker moved it on):
    # one read more, still within four.
    for _ in range(3):
        app.state.tables.live.drop(state["id"])
        sent = trips.during(step)
        assert sent.count("BEGIN") == 1, sent
        assert sent.count("COMMIT") == 1, sent
        assert len(sent) <= 4, sent
