"""Helpers of the security tests (their fixtures are in ``conftest.py``): the daily
secret, the settings with no rate limit, and a clock the rate limiter reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

SECRET = "security test secret"
#: No limit at all: for tests that play faster than any person.
UNLIMITED: dict[str, Any] = {
    "rate_identities": None,
    "rate_actions": None,
    "rate_actions_per_address": None,
}

MakeApp = Callable[..., FastAPI]


class Clock:
    """A clock for the rate limiter that moves only when a test moves it."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def fixed_clock(app: FastAPI) -> Clock:
    clock = Clock()
    app.state.limiter.clock = clock
    return clock
