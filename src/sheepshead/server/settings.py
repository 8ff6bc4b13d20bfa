"""Settings, read from the environment (``SHEEPSHEAD_*``) or given in code by tests."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    value = env.get(name)
    if value is None:
        return default
    if value.strip().lower() in _TRUE:
        return True
    if value.strip().lower() in _FALSE:
        return False
    raise ValueError(f"{name} must be true or false, not {value!r}")


_UNITS = {"second": 1, "s": 1, "minute": 60, "min": 60, "hour": 3600, "h": 3600, "day": 86400}


@dataclass(frozen=True, slots=True)
class Rate:
    """A rate limit: ``count`` requests per ``seconds``, of which ``burst`` may come at
    once (by default the whole count). Written ``30/hour`` or ``20/second burst 60``."""

    count: int
    seconds: float
    burst: int = 0

    def __post_init__(self) -> None:
        if self.count < 1 or self.seconds <= 0:
            raise ValueError("a rate needs at least one request per positive period")
        if self.burst == 0:
            object.__setattr__(self, "burst", self.count)
        if self.burst < 1:
            raise ValueError("a rate's burst is at least 1")

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``30/hour``, ``20/second burst 60``; ``off`` for no limit."""
        words = text.strip().lower().split()
        if words == ["off"]:
            return None
        count, _, unit = words[0].partition("/") if words else ("", "", "")
        if (
            not count.isdigit()
            or unit not in _UNITS
            or len(words) not in (1, 3)
            or (len(words) == 3 and (words[1] != "burst" or not words[2].isdigit()))
        ):
            raise ValueError(f"a rate is written like 30/hour or 20/second burst 60, not {text!r}")
        return cls(int(count), _UNITS[unit], int(words[2]) if len(words) == 3 else 0)

    def __str__(self) -> str:
        unit = next(name for name, s in _UNITS.items() if s == self.seconds)
        burst = f" burst {self.burst}" if self.burst != self.count else ""
        return f"{self.count}/{unit}{burst}"


def _rate(env: Mapping[str, str], name: str, default: Rate | None) -> Rate | None:
    value = env.get(name)
    if value is None or not value.strip():
        return default
    try:
        return Rate.parse(value)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    value = env.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
    return int(value)


def _whole(env: Mapping[str, str], name: str, default: int) -> int:
    value = env.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ValueError(f"{name} must be a whole number (0 for no limit), not {value!r}")
    return int(value)


@dataclass(frozen=True, slots=True)
class Settings:
    #: Where the SQLite database lives unless ``database_url`` names another.
    data_dir: Path = Path("data")
    #: A SQLAlchemy URL; empty means the SQLite file ``<data_dir>/sheepshead.db``.
    database_url: str = ""
    #: Local development: the identity cookie is not marked Secure on plain http to
    #: localhost or 127.0.0.1 (browsers would drop it). Never on a public address.
    dev: bool = False
    #: Bring the schema up to date when the app is created.
    migrate: bool = True
    templates_dir: Path = field(default=_PACKAGE / "templates")
    static_dir: Path = field(default=_PACKAGE / "static")
    #: The daily game's secret (``docs/daily.md``); empty: one generated and kept in
    #: ``<data_dir>/daily-secret``. Set it when several machines serve one site.
    daily_secret: str = ""
    #: The daily game's computer players.
    daily_level: str = "expert"
    #: New identities per network address (``docs/api.md``, Security); None: no limit.
    rate_identities: Rate | None = Rate(30, 3600)
    #: Requests that change something (POST, PUT, PATCH, DELETE), per player.
    rate_actions: Rate | None = Rate(20, 1, burst=60)
    #: The same, per network address: many players may share one (an office, a phone
    #: network), so it is set well above one player's.
    rate_actions_per_address: Rate | None = Rate(200, 1, burst=400)
    #: Requests one worker process has in hand at most; past it, 503 at once with
    #: Retry-After (``server/capacity.py``). Static files are not counted. 0: no limit.
    max_in_flight: int = 32
    #: Requests one worker runs at once; the others wait their turn (0: no limit).
    max_running: int = 4
    #: The longest a request waits for its turn (milliseconds): one that would wait
    #: longer is refused with 503 and Retry-After.
    max_wait_ms: int = 250
    #: Attempts to take a seat at a friends' table, per network address and per player.
    rate_joins: Rate | None = Rate(10, 60)
    #: How often each process looks for friends' tables with a clock run out.
    friends_tick_seconds: float = 1.0
    #: The largest request body accepted (413 above it).
    max_body_bytes: int = 16 * 1024
    #: Origins besides the site's own (as the Host header names it) whose pages may
    #: send changes, e.g. ``https://sheepshead.example`` behind a proxy that rewrites Host.
    trusted_origins: tuple[str, ...] = ()
    #: The bearer token a scrape of ``/metrics`` must send; empty: ``/metrics`` is off
    #: (404). A secret: metrics tell how busy the site is, and when.
    metrics_token: str = field(default="", repr=False)
    #: Clubs (``docs/clubs.md``): how many one player may be in, and members per club.
    clubs_per_player: int = 10
    members_per_club: int = 50

    @property
    def database(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'sheepshead.db').resolve()}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """``SHEEPSHEAD_DATA_DIR``, ``SHEEPSHEAD_DATABASE_URL``, ``SHEEPSHEAD_DEV``,
        ``SHEEPSHEAD_MIGRATE``, ``SHEEPSHEAD_TEMPLATES_DIR``, ``SHEEPSHEAD_STATIC_DIR``,
        ``SHEEPSHEAD_DAILY_SECRET``, ``SHEEPSHEAD_DAILY_LEVEL``, ``SHEEPSHEAD_RATE_IDENTITIES``,
        ``SHEEPSHEAD_RATE_ACTIONS``, ``SHEEPSHEAD_RATE_ACTIONS_PER_ADDRESS``,
        ``SHEEPSHEAD_RATE_JOINS``, ``SHEEPSHEAD_MAX_BODY_BYTES``, ``SHEEPSHEAD_TRUSTED_ORIGINS``,
        ``SHEEPSHEAD_METRICS_TOKEN``, ``SHEEPSHEAD_CLUBS_PER_PLAYER``,
        ``SHEEPSHEAD_MEMBERS_PER_CLUB``, ``SHEEPSHEAD_MAX_IN_FLIGHT``,
        ``SHEEPSHEAD_MAX_RUNNING``, ``SHEEPSHEAD_MAX_WAIT_MS``."""
        env = os.environ if env is None else env
        defaults = cls()
        return cls(
            data_dir=Path(env.get("SHEEPSHEAD_DATA_DIR") or defaults.data_dir),
            database_url=env.get("SHEEPSHEAD_DATABASE_URL", ""),
            dev=_flag(env, "SHEEPSHEAD_DEV", defaults.dev),
            migrate=_flag(env, "SHEEPSHEAD_MIGRATE", defaults.migrate),
            templates_dir=Path(env.get("SHEEPSHEAD_TEMPLATES_DIR") or defaults.templates_dir),
            static_dir=Path(env.get("SHEEPSHEAD_STATIC_DIR") or defaults.static_dir),
            daily_secret=env.get("SHEEPSHEAD_DAILY_SECRET", ""),
            daily_level=env.get("SHEEPSHEAD_DAILY_LEVEL") or defaults.daily_level,
            rate_identities=_rate(env, "SHEEPSHEAD_RATE_IDENTITIES", defaults.rate_identities),
            rate_actions=_rate(env, "SHEEPSHEAD_RATE_ACTIONS", defaults.rate_actions),
            rate_actions_per_address=_rate(
                env, "SHEEPSHEAD_RATE_ACTIONS_PER_ADDRESS", defaults.rate_actions_per_address
            ),
            rate_joins=_rate(env, "SHEEPSHEAD_RATE_JOINS", defaults.rate_joins),
            max_body_bytes=int(env.get("SHEEPSHEAD_MAX_BODY_BYTES") or defaults.max_body_bytes),
            max_in_flight=int(env.get("SHEEPSHEAD_MAX_IN_FLIGHT") or defaults.max_in_flight),
            max_running=_whole(env, "SHEEPSHEAD_MAX_RUNNING", defaults.max_running),
            max_wait_ms=_whole(env, "SHEEPSHEAD_MAX_WAIT_MS", defaults.max_wait_ms),
            trusted_origins=tuple(
                o.strip().rstrip("/")
                for o in env.get("SHEEPSHEAD_TRUSTED_ORIGINS", "").replace(",", " ").split()
            ),
            metrics_token=env.get("SHEEPSHEAD_METRICS_TOKEN", "").strip(),
            clubs_per_player=_count(env, "SHEEPSHEAD_CLUBS_PER_PLAYER", defaults.clubs_per_player),
            members_per_club=_count(env, "SHEEPSHEAD_MEMBERS_PER_CLUB", defaults.members_per_club),
        )
