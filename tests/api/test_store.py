"""The schema: migrations build exactly what the models say, and saves check the version."""

from __future__ import annotations

import importlib
import pkgutil

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi import FastAPI
from sqlalchemy import Engine

import sheepshead.store
from sheepshead.store import Store, StoredHand
from sheepshead.store.models import Base


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
    player = store.new_player()
    hand = StoredHand(1, b"\x01" * 32, ("0 pass",), False)
    game = store.create_game(player, {}, "standard", 4, 9, 2, [hand])
    moved = StoredHand(1, hand.seed, ("0 pass", "1 pick"), False)
    assert store.save(game, player, 2, 3, changed=[moved])
    # A second writer that also saw version 2 is turned away, and writes nothing.
    other = StoredHand(1, hand.seed, ("0 pass", "1 pass"), False)
    assert not store.save(game, player, 2, 3, changed=[other])
    # So is anyone but the game's player.
    assert not store.save(game, store.new_player(), 3, 4, changed=[other])
    loaded = store.load_game(game, player)
    assert loaded is not None and loaded.version == 3 and loaded.hands == (moved,)
    assert store.load_game(game, "f" * 32) is None
