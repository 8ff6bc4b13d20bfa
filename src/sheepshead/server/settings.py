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

    @property
    def database(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'sheepshead.db').resolve()}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """``SHEEPSHEAD_DATA_DIR``, ``SHEEPSHEAD_DATABASE_URL``, ``SHEEPSHEAD_DEV``,
        ``SHEEPSHEAD_MIGRATE``, ``SHEEPSHEAD_TEMPLATES_DIR``, ``SHEEPSHEAD_STATIC_DIR``."""
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
        )
