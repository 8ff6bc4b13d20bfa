"""The daily game's clock: when a day ends is decided with the database, not by one
server's clock alone (``docs/daily.md``, "When a day ends").

- The instant is this server's clock, but never ahead of the database's: a server whose
  clock runs ahead neither publishes a day's seed nor ends a day early.
- Never before the end of a day the database has stored as ended: once a day's seed is
  published, a server whose clock was stepped back cannot reopen it. That is an error of
  the machine's, logged (dates and times only: never a card or a seed).
- A day is stored as ended (``daily_days.ended_at``) by the first request whose instant
  is past its end; from then on it is over for every server.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from datetime import date, datetime, timedelta

from sqlalchemy import Engine

from sheepshead import daily_game
from sheepshead.store.day_end import DayEndStore, StoredDays

log = logging.getLogger(__name__)

#: Seconds a server's clock may run ahead of the database's before it is logged (the
#: query's own round trip, and ordinary drift between machines synced by NTP).
AHEAD_LOGGED = 2.0
#: A clock that stays wrong is logged once a minute per process, not at every request.
LOG_EVERY = 60.0
#: The database's answer serves this process's requests for this long, its clock carried
#: on by this process's monotonic clock: a query per request would add a round trip to
#: every request of the daily game. A day another process ended meanwhile is still
#: refused in the write of a move (``DailyStore.save_attempt``).
READ_EVERY = 1.0


class DayClock:
    def __init__(self, engine: Engine) -> None:
        self.store = DayEndStore(engine)
        self._logged: dict[str, float] = {}
        self._lock = threading.Lock()
        self._read: tuple[float, StoredDays] | None = None
        self._today: date | None = None

    def instant(self, server: datetime) -> datetime:
        """The instant the daily game goes by, given this server's clock; stores the end
        of the days it finds over."""
        at, stored = self._judge(server, self._stored())
        today = daily_game.day_of(at)
        if today != self._today:
            # A new day for this process (or its first request): decided on a fresh read.
            self._forget()
            at, stored = self._judge(server, self._stored())
            today = self._today = daily_game.day_of(at)
        if stored.first_open is not None and stored.first_open < today:
            for day in self.store.end_days(today, stored.now):
                log.info("the daily game's day %s ended: its seed is published", day.isoformat())
            self._forget()
        return at

    def _judge(self, server: datetime, stored: StoredDays) -> tuple[datetime, StoredDays]:
        at = min(server, stored.now)
        ahead = (server - stored.now).total_seconds()
        if ahead > AHEAD_LOGGED:
            self._log(
                logging.WARNING,
                "ahead",
                "this server's clock is %.0f s ahead of the database's: the daily game "
                "follows the database's, so no day ends early here",
                ahead,
            )
        if stored.last_ended is not None:
            ended = daily_game.day_end(stored.last_ended)
            if at < ended:
                self._log(
                    logging.ERROR,
                    "behind",
                    "this server's clock reads %s, before the end of the daily game's day "
                    "%s that the database has stored as ended: that day stays over; "
                    "set this machine's clock right",
                    server.isoformat(),
                    stored.last_ended.isoformat(),
                )
                at = ended
        return at, stored

    def _stored(self) -> StoredDays:
        with self._lock:
            read = self._read
        if read is not None:
            elapsed = time.monotonic() - read[0]
            if elapsed < READ_EVERY:
                return replace(read[1], now=read[1].now + timedelta(seconds=elapsed))
        stored = self.store.read()
        # Timed from the answer's arrival: the clock carried on never runs ahead of it.
        with self._lock:
            self._read = (time.monotonic(), stored)
        return stored

    def _forget(self) -> None:
        with self._lock:
            self._read = None

    def _log(self, level: int, kind: str, message: str, *args: object) -> None:
        now = time.monotonic()
        with self._lock:
            last = self._logged.get(kind)
            if last is not None and now - last < LOG_EVERY:
                return
            self._logged[kind] = now
        log.log(level, message, *args)
