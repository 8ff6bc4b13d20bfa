"""Opening the database: one engine per process, SQLite by default, PostgreSQL by URL."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, exc
from sqlalchemy.engine import make_url


def open_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file's directory is created if missing."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        # Enough pooled connections for a worker's requests in flight (32) and its
        # sockets' reads at once: with SQLAlchemy's default (5, and 10 more made and
        # closed again each time) a busy friends' table server opened some twenty new
        # PostgreSQL connections a second, each a new backend process to start.
        engine = create_engine(url, pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW)
        _ping_when_idle(engine)
        return engine
    database = parsed.database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    # Threads of one process share the pool; a writer waits up to 30 s for the lock.
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


#: PostgreSQL connections a process keeps open, and how many more it may open at a
#: peak (closed again once returned). Two workers: at most 40 of the server's 100.
POOL_SIZE, POOL_OVERFLOW = 15, 5

#: A pooled connection left unused longer than this is checked before use.
IDLE_PING_SECONDS = 10.0


def _ping_when_idle(engine: Engine) -> None:
    """Check a pooled connection before use only if it sat idle for a while.

    SQLAlchemy's ``pool_pre_ping`` costs a round trip on every checkout (four per
    action). A connection in steady use does not need it: should the database drop it
    anyway, the request fails with 503, and SQLAlchemy drops every pooled connection
    made before, so the next request connects afresh. A connection idle for longer,
    say across a database restart at night, is checked, so that nobody sees that 503.
    """

    def checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    def checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop("idle_since", None)
        if since is None or time.monotonic() - since < IDLE_PING_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error:
            # The database went away and came back: its other idle connections are
            # gone too. The pool drops them all and connects again.
            raise exc.InvalidatePoolError() from None

    event.listen(engine, "checkin", checkin)
    event.listen(engine, "checkout", checkout)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers go on while one request writes; NORMAL sync loses nothing a
    # crashed process had committed.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
