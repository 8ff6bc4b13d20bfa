"""Alembic, driven from code: ``migrate(engine)`` brings the schema up to date."""

from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine


def alembic_config() -> Config:
    config = Config()
    location = resources.files("sheepshead.store").joinpath("migrations")
    config.set_main_option("script_location", str(location))
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Apply every migration up to ``revision`` (idempotent)."""
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
