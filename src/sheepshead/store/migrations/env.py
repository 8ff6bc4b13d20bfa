"""Alembic's entry point. ``store.migrate`` passes a connection; the ``alembic``
command (``alembic -c src/sheepshead/store/alembic.ini upgrade head``) reads
``SHEEPSHEAD_DATABASE_URL`` instead."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import Connection

from sheepshead.store.database import open_engine
from sheepshead.store.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite alters tables by copying them.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = os.environ.get("SHEEPSHEAD_DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("set SHEEPSHEAD_DATABASE_URL to the database to migrate")
    engine = open_engine(url)
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise RuntimeError("offline (SQL script) migrations are not supported")
run_migrations_online()
