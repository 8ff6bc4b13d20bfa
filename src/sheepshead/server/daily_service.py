"""The daily game's service, one per app: the day's secret, seeds and computer
players, its board's refreshes and the expert's points worked out in the background;
and the routes' dependencies (``DailyDep``, ``NowDep``).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import threading
import time
from datetime import UTC, date, datetime, timedelta
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.exc import DBAPIError

from sheepshead import bots, daily_game
from sheepshead.names import player_label
from sheepshead.phrases import refusal_english
from sheepshead.server.day_end import DayClock
from sheepshead.server.refused import Refused
from sheepshead.server.secret import server_secret
from sheepshead.server.security import client_network
from sheepshead.server.settings import Settings
from sheepshead.store.daily_store import Attempt, DailyStore, Day
from sheepshead.store.identity import IdentityStore
from sheepshead.store.moderation import ADDRESS_DAYS, ModerationStore
from sheepshead.table import Table, check_level

log = logging.getLogger(__name__)
#: A day whose expert points failed to be worked out waits this long for another try.
EXPERT_RETRY_SECONDS = 600.0


def bot_version(level: str) -> str:
    """The computer players a new day is played against, as the day stores them: their
    level and the version of this code's play."""
    return f"{level}/{bots.VERSION}"


def day_players(row: Day) -> tuple[str, str]:
    """The level and the version of play of the day's computer players."""
    level, _, version = row.bot_version.partition("/")
    return level, version


class Daily:
    def __init__(self, request: Request) -> None:
        state = request.app.state
        settings: Settings = state.settings
        self.store = DailyStore(state.engine)
        self.identities: IdentityStore = state.identities
        self.secret = server_secret(settings)
        self.level = settings.daily_level
        self.bot_version = bot_version(self.level)
        self.dev = settings.dev
        # A day's players never change once stored, so they are read once per process.
        self._players: dict[date, tuple[str, str]] = {}
        #: Held while this process refreshes a board in the background: one at a time.
        self.refreshing = threading.Lock()
        #: The threads working out a day's expert points (``expert_later``), by day.
        self.expert_threads: dict[date, threading.Thread] = {}
        self._expert_lock = threading.Lock()
        self._expert_failed: dict[date, float] = {}
        #: The last day whose start this process has seen (to forget old addresses).
        self._forgotten_before: date | None = None
        #: When a day ends: this server's clock checked against the database.
        self.clock = DayClock(state.engine)

    def shown(self, player_id: str, name: str | None) -> str:
        """A board's name for a player: their display name, or their label (a keyed
        hash of the id, the same on every board: never a part of the id)."""
        return name if name is not None else player_label(self.secret, player_id)

    def seed(self, day: date) -> bytes:
        return daily_game.day_seed(self.secret, day)

    def bot_seed(self, day: date) -> int:
        # Fixed per day, so every player meets the same answers; reveals nothing.
        digest = hmac.new(self.seed(day), b"bots", hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def address(self, request: Request, day: date) -> str | None:
        """A keyed hash of the client's network (an IPv6 client's /64, which one
        subscriber usually holds whole, as the identity rate limit counts them) and the
        day: flags compare one day's attempts, and days must not link to one another."""
        if not request.client or not request.client.host:
            return None
        network = client_network(request.scope)
        message = f"address:{day.isoformat()}:{network}".encode()
        return hmac.new(self.secret, message, hashlib.sha256).hexdigest()

    def day_row(self, day: date) -> Day:
        horizon = day - timedelta(days=ADDRESS_DAYS)
        if self._forgotten_before != horizon:
            # Once a day per process: the networks' hashes are kept ADDRESS_DAYS days.
            ModerationStore(self.store.engine).forget_addresses(horizon)
            self._forgotten_before = horizon
        return self.store.ensure_day(day, daily_game.commitment(self.seed(day)), self.bot_version)

    def refresh_later(self, day: date) -> None:
        """Refresh the day's board in a thread of its own, unless this process is
        refreshing one already (then that refresh, or the next due, takes this in)."""
        if not self.refreshing.acquire(blocking=False):
            return

        def run() -> None:
            try:
                _refresh_now(self, day)
            except Exception:
                log.exception("refreshing the board of %s failed", day.isoformat())
            finally:
                self.refreshing.release()

        threading.Thread(target=run, name=f"board-{day.isoformat()}", daemon=True).start()

    def expert_later(self, row: Day) -> threading.Thread | None:
        """Work out, in a thread of its own, what the day's computer players score in
        the player's seat (all five seats theirs) and store it for the board. One day at
        a time per process, and a day that failed waits ``EXPERT_RETRY_SECONDS`` before
        another try, so that reading boards cannot pile up work. None when nothing was
        started: stored already, worked out now, failed lately, or players not here."""
        level, version = day_players(row)
        if row.expert_points is not None or version not in bots.versions():
            return None
        failed = self._expert_failed.get(row.day)
        if failed is not None and time.monotonic() - failed < EXPERT_RETRY_SECONDS:
            return None
        with self._expert_lock:
            if any(t.is_alive() for t in self.expert_threads.values()):
                return None

            def run() -> None:
                try:
                    points = daily_game.expert_points(
                        self.seed(row.day), level, self.bot_seed(row.day), version
                    )
                    self.store.set_expert_points(row.day, points)
                except Exception as exc:
                    self._expert_failed[row.day] = time.monotonic()
                    # No traceback: a bot's error could name a card of the day's deals.
                    name = type(exc).__name__
                    log.error("the expert's points of %s failed (%s)", row.day.isoformat(), name)

            thread = threading.Thread(target=run, name=f"expert-{row.day.isoformat()}", daemon=True)
            self.expert_threads[row.day] = thread
            thread.start()
        return thread

    def close(self, timeout: float = 60.0) -> None:
        """Wait for this process's background work (before its database goes away)."""
        for thread in list(self.expert_threads.values()):
            thread.join(timeout)
        if self.refreshing.acquire(timeout=timeout):
            self.refreshing.release()

    def players(self, day: date) -> tuple[str, str]:
        """The level and version of play of the computer players the day started with:
        a deployment during the day changes the play of the days after it, not this one."""
        found = self._players.get(day)
        if found is None:
            row = self.store.day(day)
            if row is None:
                return self.level, bots.VERSION
            found = self._players[day] = day_players(row)
        return found

    def playable(self, row: Day) -> None:
        """The day's computer players must be ones this server can still run."""
        level, version = day_players(row)
        try:
            check_level(level, version)
        except ValueError as exc:
            log.error("the day's %s computer players of version %s: %s", level, version, exc)
            params = {"level": level, "version": version}
            raise Refused(
                503, refusal_english("day-players-gone", params), "day-players-gone", params
            ) from None

    def table(self, attempt: Attempt) -> Table:
        seed = self.seed(attempt.day)
        level, version = self.players(attempt.day)
        return Table.restore(
            daily_game.RULES,
            level,
            self.bot_seed(attempt.day),
            daily_game.FIRST_DEALER,
            [(daily_game.deal_seed(seed, k), moves) for k, moves in enumerate(attempt.moves)],
            bot_version=version,
        )


def service(request: Request) -> Daily:
    found: Daily | None = getattr(request.app.state, "daily", None)
    if found is None:
        found = request.app.state.daily = Daily(request)
    return found


DailyDep = Annotated[Daily, Depends(service)]


def now(request: Request) -> datetime:
    """The daily game's instant: this server's clock checked against the database's and
    the days it has stored as ended (``day_end.py``). Tests set ``app.state.daily_clock``
    to move this server's clock."""
    clock = getattr(request.app.state, "daily_clock", None)
    server = clock() if clock is not None else datetime.now(UTC)
    return service(request).clock.instant(server)


NowDep = Annotated[datetime, Depends(now)]


def _refresh_now(svc: Daily, day: date) -> None:
    # Two refreshes at once may deadlock on PostgreSQL: the other one does the work.
    with contextlib.suppress(DBAPIError):
        svc.store.refresh_board(day)
