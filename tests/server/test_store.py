"""The schema: migrations build exactly what the models say, and saves check the version."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import replace

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi import FastAPI
from sqlalchemy import Engine, select, update

import sheepshead.store
from sheepshead.rules import Rules
from sheepshead.server.tables import Tables
from sheepshead.store import Store, StoredHand
from sheepshead.store.identity import IdentityStore
from sheepshead.store.models import Base, HandRow
from sheepshead.store.sheet_fill import fill_sheets


def schema_drift(engine: Engine) -> list[object]:
    # Every module of the store declares its tables on the same Base.
    for module in pkgutil.iter_modules(sheepshead.store.__path__, "sheepshead.store."):
        if module.name != "sheepshead.store.migrations":
            importlib.import_module(module.name)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn)
        return list(compare_metadata(context, Base.metadata))


def test_the_migrations_build_the_models_schema(app: FastAPI) -> None:
    engine: Engine = app.state.engine
    assert schema_drift(engine) == []


def test_a_save_against_a_moved_version_writes_nothing(app: FastAPI) -> None:
    store: Store = app.state.store
    player = IdentityStore(store.engine).new_player()
    hand = StoredHand(1, b"\x01" * 32, ("0 pass",), False)
    game = store.create_game(player, {}, "standard", 4, 9, 2, [hand])
    moved = StoredHand(1, hand.seed, ("0 pass", "1 pick"), False)
    assert store.save(game, player, 2, 3, changed=[moved])
    # A second writer that also saw version 2 is turned away, and writes nothing.
    other = StoredHand(1, hand.seed, ("0 pass", "1 pass"), False)
    assert not store.save(game, player, 2, 3, changed=[other])
    # So is anyone but the game's player.
    assert not store.save(game, IdentityStore(store.engine).new_player(), 3, 4, changed=[other])
    loaded = store.load_game(game, player)
    assert loaded is not None
    assert loaded.version == 3
    assert loaded.hands == (moved,)
    assert store.load_game(game, "f" * 32) is None


def test_a_remembered_match_is_used_only_for_the_hands_it_was_built_from(app: FastAPI) -> None:
    tables: Tables = app.state.tables
    store: Store = app.state.store
    player = IdentityStore(store.engine).new_player()
    game_id, turn = tables.create(player, Rules(), "standard")
    table = turn.table
    while table.hand_number < 3:
        while not table.hand_over:
            legal = table.state()["view"]["legal"]
            table = tables.act(game_id, player, legal[0], table.version).table
        table = tables.next_hand(game_id, player, table.version).table
    # This process kept the table as it saved it; forgotten, it is restored from the
    # store, and the finished hands' match remembered.
    tables.live.drop(game_id)
    assert tables.load(game_id, player).state() == table.state()
    stored = store.load_game(game_id, player)
    assert stored is not None
    remembered = tables.settled.get(stored)
    assert remembered is not None
    assert len(remembered.hands) == 2
    # Stored hands that differ from those it was built from: not used.
    first = stored.hands[0]
    changed = replace(stored, hands=(replace(first, moves=first.moves[:-1]), *stored.hands[1:]))
    assert tables.settled.get(changed) is None
    assert tables.settled.get(replace(stored, hands=stored.hands[:1])) is None
    # Either way the same table comes back.
    fresh = Tables(store)
    assert fresh.load(game_id, player).state() == tables.load(game_id, player).state()


def test_each_finished_hand_keeps_its_sheet_line_and_running_scores(app: FastAPI) -> None:
    tables: Tables = app.state.tables
    engine: Engine = app.state.engine
    player = IdentityStore(engine).new_player()
    game_id, turn = tables.create(player, Rules(), "standard")
    table = turn.table
    while table.hand_number < 3:
        while not table.hand_over:
            table = tables.act(
                game_id, player, table.state()["view"]["legal"][-1], table.version
            ).table
        table = tables.next_hand(game_id, player, table.version).table
    expected = table.score_sheet()
    running = [list(expected[0]["scores"])]
    running.append([a + b for a, b in zip(running[0], expected[1]["scores"], strict=True)])

    def stored() -> list[tuple[object, object]]:
        with engine.connect() as conn:
            rows = conn.execute(
                select(HandRow.sheet, HandRow.scores)
                .where(HandRow.game_id == game_id)
                .order_by(HandRow.number)
            ).all()
        return [(row.sheet, row.scores) for row in rows]

    assert stored() == [(expected[0], running[0]), (expected[1], running[1]), (None, None)]
    # A reply gives the stored lines, the same as recomputing them.
    assert tables.load(game_id, player).state()["score_sheet"] == expected
    # Hands stored before the lines were kept: the migration's fill writes the same.
    with engine.begin() as conn:
        conn.execute(
            update(HandRow).where(HandRow.game_id == game_id).values(sheet=None, scores=None)
        )
        assert fill_sheets(conn) == 2
    assert stored() == [(expected[0], running[0]), (expected[1], running[1]), (None, None)]
