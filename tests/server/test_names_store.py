"""Display names and labels where they are stored and shown: the look-alike attacks of
issue 13 against a taken name, ``hide-name`` against an impersonator, and the board's
label for a player without a name. The fixtures are the daily game's (SQLite, and the
machine's PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from server import daily_helpers as daily_api
from server.daily_helpers import NOON, SECRET, Clock, board, ok, play_day, visitor
from sheepshead.cli import main as cli_main
from sheepshead.names import keys, player_label
from sheepshead.server.identity import COOKIE
from sheepshead.store.identity import DisplayName, IdentityStore
from sheepshead.store.name_keys import rekey_names

# The daily game's fixtures: a fresh app per test, on SQLite and on PostgreSQL.
postgres_url = daily_api.postgres_url
database_url = daily_api.database_url
clock = daily_api.clock
make_app = daily_api.make_app
app = daily_api.app

NAME = "/api/v1/daily/me/name"
#: Issue 13, item 3, as it was done with "Robert" taken.
ROBERT_ATTACKS = ["Robert\u3164", "Robert\u1160", "Robert\u115f", "Robert\ufe0f", "Robert\u034f"]


#: The checks and the label do not depend on the database: SQLite alone, for speed.
SQLITE_ONLY = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


@SQLITE_ONLY
def test_invisible_look_alikes_of_a_taken_name_are_refused(app: FastAPI) -> None:
    robert, mallory = visitor(app), visitor(app)
    ok(robert.put(NAME, json={"name": "Robert"}))
    for raw in [*ROBERT_ATTACKS, "Kim\uffa0", "Dana\u17b4", "Zalgo" + "\u0301" * 4]:
        refused = mallory.put(NAME, json={"name": raw})
        assert refused.status_code == 422, raw
        assert refused.json()["detail"].endswith(".")
    # Without the invisible character, it is the taken name, in any case or look.
    for raw in ["ROBERT", "R0bert", "robert", "Rob\u200dert"[:3] + "ert"]:
        assert mallory.put(NAME, json={"name": raw}).status_code == 409
    posing = mallory.put(NAME, json={"name": "Sheepshead Team"})
    assert posing.status_code == 422
    assert posing.json()["detail"] == "That name would pass for the site or its staff."
    assert ok(mallory.get("/api/v1/daily/me"))["name"] is None


def _old_name(store: IdentityStore, text: str) -> str:
    """A player whose name was stored by the old check, with the old keys (the old
    skeleton kept default-ignorables, so the filler made a key of its own)."""
    player = store.new_player()
    store.set_name(player, text, text.casefold(), "old:" + text.casefold())
    return player


def _hidden(store: IdentityStore) -> dict[str, bool]:
    with store.engine.connect() as conn:
        rows = conn.execute(select(DisplayName.text, DisplayName.hidden)).all()
    return {row.text: row.hidden for row in rows}


def test_hide_name_typed_as_it_looks_hides_the_impersonator_too(
    app: FastAPI, database_url: str
) -> None:
    store = IdentityStore(app.state.engine)
    # The impersonator came first: the real name still keeps its keys.
    impostor = _old_name(store, "Robert\u1160")
    robert = _old_name(store, "Robert")
    other = _old_name(store, "Roberta")
    with store.engine.begin() as conn:
        done = rekey_names(conn)
    assert (done.names, done.look_alikes, done.refused) == (3, 1, 1)
    # The impersonator, now refused and a look-alike, is hidden; the others are shown.
    assert _hidden(store) == {"Robert\u1160": True, "Robert": False, "Roberta": False}
    assert store.name_of(robert) == ("Robert", False)
    # The moderator types what they see; the impersonator is hidden with the real one.
    assert cli_main(["admin", "hide-name", "R0BERT", "--database", database_url]) == 0
    assert _hidden(store) == {"Robert\u1160": True, "Robert": True, "Roberta": False}
    # Showing the real name again leaves the impersonator hidden.
    assert cli_main(["admin", "hide-name", "Robert", "--undo", "--database", database_url]) == 0
    assert _hidden(store) == {"Robert\u1160": True, "Robert": False, "Roberta": False}
    assert store.name_of(impostor) == ("Robert\u1160", True)
    assert store.name_of(other) == ("Roberta", False)
    # Re-keying again changes nothing: the keys are today's.
    with store.engine.begin() as conn:
        rekey_names(conn)
    with store.engine.connect() as conn:
        looks = dict(conn.execute(select(DisplayName.text, DisplayName.look)).all())
    assert looks["Robert"] == keys("Robert")[1]


@SQLITE_ONLY
def test_an_unnamed_player_shows_a_label_that_tells_nothing_of_the_id(
    app: FastAPI, clock: Clock
) -> None:
    ann, bob = visitor(app), visitor(app)
    ok(bob.put(NAME, json={"name": "Badger"}))
    play_day(ann)
    ann_id = ann.cookies[COOKIE]
    label = player_label(SECRET.encode(), ann_id)
    replies = [
        ann.get("/api/v1/daily/board"),
        bob.get("/api/v1/daily/board"),
        ann.get("/api/v1/daily/week"),
        ann.get("/api/v1/daily/me"),
        ann.get("/api/v1/daily/today"),
        ann.get("/daily"),
        ann.get("/leaderboard"),
    ]
    names = {line["name"] for line in replies[1].json()["top"]}
    assert names == {label}
    assert replies[0].json()["me"]["name"] == label
    assert any(line["name"] == label for line in replies[2].json()["top"])
    for reply in replies:
        assert reply.status_code == 200
        # Not a piece of the id anywhere: the old label was its first six characters.
        assert not any(ann_id[k : k + 6] in reply.text for k in range(len(ann_id) - 5))
    # Every board, past days included, shows the same label.
    clock.now = NOON + timedelta(days=1)
    past = board(bob, date=NOON.date().isoformat())
    assert label in {line["name"] for line in past["top"]}
