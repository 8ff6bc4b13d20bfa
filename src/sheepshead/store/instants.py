"""Instants read back from the database.

Every instant is written in UTC, but SQLite hands back naive datetimes (it keeps no zone),
while PostgreSQL hands back aware ones; the store's readers go through ``utc`` so that
the rest of the program only ever sees aware instants.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import overload


@overload
def utc(when: datetime) -> datetime: ...
@overload
def utc(when: None) -> None: ...
@overload
def utc(when: datetime | None) -> datetime | None: ...
def utc(when: datetime | None) -> datetime | None:
    """``when`` as an aware UTC instant (a naive one was written in UTC); ``None`` stays."""
    if when is None or when.tzinfo is not None:
        return when
    return when.replace(tzinfo=UTC)
