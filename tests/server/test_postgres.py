"""The API and the store on PostgreSQL (127.0.0.1:5432, trust auth), not only SQLite.

Each run creates its own database, named uniquely, and drops it at the end; nothing
else on the server is touched. The tests are those of the SQLite modules, imported
here so that they run again with ``settings`` pointing at PostgreSQL.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from server.test_clubs import (  # noqa: F401  (collected again, on PostgreSQL)
    test_deleting_the_creator_passes_the_club_on_or_deletes_it,
    test_the_club_board_ranks_members_and_seals_deals_until_the_day_is_finished,
)
from server.test_games import (  # noqa: F401  (collected again, on PostgreSQL)
    test_a_finished_hands_record_downloads_and_checks,
    test_a_game_resumes_exactly_after_a_restart,
    test_a_new_game_deals_and_waits_for_the_players_first_decision,
    test_a_stale_version_gets_409_with_the_current_state,
    test_a_whole_hand_then_the_next,
    test_another_players_game_is_404_and_untouched,
    test_illegal_and_malformed_actions_are_refused_and_change_nothing,
    test_simultaneous_copies_of_an_action_apply_exactly_once,
    test_the_current_game_is_the_latest_one,
    test_the_same_action_sent_twice_applies_once,
)
from server.test_leaks import (  # noqa: F401
    test_a_bots_unknown_card_stays_face_down_until_the_hand_is_over,
)
from server.test_store import (  # noqa: F401
    test_a_save_against_a_moved_version_writes_nothing,
    test_each_finished_hand_keeps_its_sheet_line_and_running_scores,
    test_the_migrations_build_the_models_schema,
)
from sheepshead.server import Settings

pytestmark = pytest.mark.postgres

HOST, PORT, ADMIN_DB = "127.0.0.1", 5432, "test"


def _admin() -> tuple[psycopg.Connection[tuple[object, ...]], str]:
    errors = []
    for user in ("postgres", "root"):
        try:
            conn = psycopg.connect(
                host=HOST, port=PORT, user=user, dbname=ADMIN_DB, autocommit=True, connect_timeout=5
            )
        except psycopg.OperationalError as exc:
            errors.append(f"{user}: {exc}")
            continue
        return conn, user
    pytest.fail(f"PostgreSQL on {HOST}:{PORT} is needed: {'; '.join(errors)}")


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    admin, user = _admin()
    name = f"sheepshead_test_{os.getpid()}_{secrets.token_hex(4)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://{user}@{HOST}:{PORT}/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture
def settings(tmp_path: Path, postgres_url: str) -> Settings:
    return Settings(
        data_dir=tmp_path,
        database_url=postgres_url,
        dev=True,
        rate_identities=None,
        rate_actions=None,
        rate_actions_per_address=None,
    )


def test_the_database_is_postgresql(settings: Settings) -> None:
    assert settings.database.startswith("postgresql+psycopg://")
