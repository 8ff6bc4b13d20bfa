"""The coach's worker: runs review jobs off the request path (``store/coach.py``).

``Worker`` runs in the web process (the SQLite default): a thread that starts when a
job is queued, or at start when jobs were left unfinished, runs jobs until none is
waiting, and stops. ``run_forever`` is ``sheepshead coach-worker``: a process of its
own (any number of them, on any host, with PostgreSQL), polling the queue.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from typing import Any

from sheepshead import coach, daily_game
from sheepshead.record import start_of
from sheepshead.store.coach import CoachStore, Job

log = logging.getLogger("sheepshead.coach")


def decision_json(j: coach.Judgement) -> dict[str, Any]:
    """One judged decision as the review API gives it: the pinned fields of
    ``analyze --json``, with the options, the reason and the seat's own view."""
    ev = j.evaluation
    return {
        **j.to_json(),
        "close": ev.close,
        "forced": ev.forced,
        "reason": None if j.reason is None else {"code": j.reason.code, "params": j.reason.params},
        "options": [
            {
                "action": f"{j.seat} {o.action}",
                "game_points": round(o.game_points, 3),
                "card_points": round(o.card_points, 2),
                "worlds": o.worlds,
            }
            for o in ev.options
        ],
        "view": j.view.to_json(),
    }


def run_job(store: CoachStore, job: Job, worker: str) -> bool:
    """Judge the job's hand for its seat, writing progress; True when done."""
    try:
        total = sum(1 for _ in coach.decisions(job.record, job.seat))
        store.progress(job.id, worker, 0, total)

        def step(done: int) -> None:
            if not store.progress(job.id, worker, done, total):
                raise _Lost(job.id)

        judged = coach.review(job.record, job.seat, progress=step)
        expert = None if job.expert is None else expert_json(job.record, job.seat, job.expert)
    except _Lost:
        log.warning("coach job %s was taken over by another worker", job.id)
        return False
    except ValueError:
        log.exception("coach job %s cannot be judged", job.id)
        store.finish(job.id, worker, None)
        return False
    store.finish(job.id, worker, [decision_json(j) for j in judged], expert)
    return True


def expert_json(record: dict[str, Any], seat: int, expert: dict[str, Any]) -> dict[str, Any]:
    """A daily deal's job's ``expert`` with its ``points``: what the expert scores in the
    seat from the record's deal, meeting the computer players the job names."""
    points = daily_game.expert_in_seat(
        start_of(record), seat, expert["level"], int(expert["bot_seed"]), expert["version"]
    )
    return {**expert, "points": points}


class _Lost(Exception):
    """The job's lease went to another worker."""


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"[:64]


def drain(store: CoachStore, name: str, stop: Callable[[], bool] = lambda: False) -> int:
    """Run jobs until none is waiting (or ``stop``); how many were run."""
    count = 0
    while not stop():
        job = store.claim(name)
        if job is None:
            break
        run_job(store, job, name)
        count += 1
    return count


class Worker:
    """The in-process worker: one thread at a time, while jobs wait."""

    def __init__(self, store: CoachStore, enabled: bool = True) -> None:
        self.store = store
        self.enabled = enabled
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._again = False
        self._closed = threading.Event()

    def start(self) -> None:
        """At start: unfinished jobs go back to the queue and are run. On SQLite this
        process was their only worker; on PostgreSQL other workers may be running them,
        so a job comes back only when its lease runs out (``CoachStore.claim``)."""
        if not self.enabled:
            return
        if not self.store.postgres:
            self.store.resume()
        if self.store.waiting():
            self.poke()

    def poke(self) -> None:
        """A job was queued: run it (now, or after the jobs before it)."""
        if not self.enabled or self._closed.is_set():
            return
        with self._lock:
            self._again = True
            if self._thread is not None and self._thread.is_alive():
                return
            self._thread = threading.Thread(target=self._run, name="coach-worker", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        name = worker_name()
        while True:
            with self._lock:
                self._again = False
            try:
                drain(self.store, name, self._closed.is_set)
            except Exception:  # the thread must not die silently with jobs waiting
                log.exception("coach worker failed")
            with self._lock:
                if not self._again or self._closed.is_set():
                    self._thread = None
                    return

    def close(self, timeout: float) -> None:
        self._closed.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout)


def run_forever(store: CoachStore, poll: float, stop: threading.Event) -> None:
    """``sheepshead coach-worker``: poll the queue until ``stop`` is set."""
    name = worker_name()
    log.info("coach worker %s polling every %.1f s", name, poll)
    while not stop.is_set():
        if drain(store, name, stop.is_set) == 0:
            stop.wait(poll)
