"""The security tests that touch the database, again on PostgreSQL: the rate limits'
single-statement decisions under concurrency, and the limits through the API.

Uses ``tests/server/test_postgres.py``'s database: created for the module with a unique
name on 127.0.0.1:5432, dropped at the end.
"""

from __future__ import annotations

import pytest

from security.test_csrf import (  # noqa: F401  (collected again, on PostgreSQL)
    test_a_forged_action_is_refused_with_a_reason_and_changes_nothing,
)
from security.test_isolation import (  # noqa: F401
    test_no_endpoint_lets_a_player_read_or_touch_anothers_game_or_attempt,
)
from security.test_rates import (  # noqa: F401
    store,
    test_a_player_sending_too_many_changes_is_slowed_not_stopped,
    test_a_request_refused_by_one_bucket_takes_from_none,
    test_concurrent_requests_get_exactly_the_allowance,
    test_full_buckets_are_swept_and_nothing_changes,
    test_new_identities_from_one_address_are_limited,
    test_the_bucket_lets_the_burst_through_then_one_per_interval,
    test_workers_on_one_database_share_one_budget,
)
from server.test_postgres import postgres_url  # noqa: F401  (the fixture)

pytestmark = pytest.mark.postgres


@pytest.fixture
def database_url(postgres_url: str) -> str:  # noqa: F811
    return postgres_url
