"""The daily game's pure part: the Chicago day, the commit-reveal seeds, the deals, the ranking."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheepshead import daily_game

SECRET = b"test secret, not the server's"


def utc(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


# The day -------------------------------------------------------------------------


def test_the_chicago_zone_loads_from_the_system() -> None:
    chicago = daily_game.zone()
    assert chicago.key == "America/Chicago"
    # Winter is CST (UTC-6), summer CDT (UTC-5): the zone data is real, not a fixed offset.
    assert utc(2025, 1, 15, 12).astimezone(chicago).utcoffset() == timedelta(hours=-6)
    assert utc(2025, 7, 15, 12).astimezone(chicago).utcoffset() == timedelta(hours=-5)


@pytest.mark.parametrize(
    ("instant", "day"),
    [
        # Winter: midnight in Chicago is 06:00 UTC.
        (utc(2025, 1, 15, 5, 59, 59), date(2025, 1, 14)),
        (utc(2025, 1, 15, 6, 0, 0), date(2025, 1, 15)),
        # Summer: midnight in Chicago is 05:00 UTC.
        (utc(2025, 7, 15, 4, 59, 59), date(2025, 7, 14)),
        (utc(2025, 7, 15, 5, 0, 0), date(2025, 7, 15)),
        # Late evening in Chicago is already tomorrow in UTC.
        (utc(2025, 7, 16, 3, 0), date(2025, 7, 15)),
    ],
)
def test_the_day_is_the_calendar_day_in_chicago(instant: datetime, day: date) -> None:
    assert daily_game.day_of(instant) == day


def test_an_instant_in_another_zone_means_the_same_moment() -> None:
    tokyo = datetime(2025, 1, 15, 14, 59, tzinfo=ZoneInfo("Asia/Tokyo"))  # 05:59 UTC
    assert daily_game.day_of(tokyo) == date(2025, 1, 14)


def test_a_naive_instant_is_refused() -> None:
    with pytest.raises(ValueError, match="time zone"):
        daily_game.day_of(datetime(2025, 1, 15, 12))


@pytest.mark.parametrize(
    ("day", "hours"),
    [
        (date(2025, 3, 9), 23),  # spring forward: 02:00 CST becomes 03:00 CDT
        (date(2025, 11, 2), 25),  # fall back: 02:00 CDT becomes 01:00 CST
        (date(2025, 3, 8), 24),
        (date(2025, 11, 3), 24),
    ],
)
def test_a_day_lasts_23_24_or_25_hours_across_dst(day: date, hours: int) -> None:
    assert daily_game.day_end(day) - daily_game.day_start(day) == timedelta(hours=hours)


def test_day_boundaries_around_the_dst_changes() -> None:
    # 2025-03-09 starts at 06:00 UTC (CST) and ends at 05:00 UTC on the 10th (CDT).
    assert daily_game.day_start(date(2025, 3, 9)) == utc(2025, 3, 9, 6)
    assert daily_game.day_end(date(2025, 3, 9)) == utc(2025, 3, 10, 5)
    assert daily_game.day_of(utc(2025, 3, 10, 4, 59)) == date(2025, 3, 9)
    assert daily_game.day_of(utc(2025, 3, 10, 5, 0)) == date(2025, 3, 10)
    # 2025-11-02 starts at 05:00 UTC (CDT) and ends at 06:00 UTC on the 3rd (CST).
    assert daily_game.day_start(date(2025, 11, 2)) == utc(2025, 11, 2, 5)
    assert daily_game.day_of(utc(2025, 11, 3, 5, 59)) == date(2025, 11, 2)
    assert daily_game.day_of(utc(2025, 11, 3, 6, 0)) == date(2025, 11, 3)


def test_the_next_day_starts_at_the_next_chicago_midnight() -> None:
    assert daily_game.next_day_start(utc(2025, 3, 9, 12)) == utc(2025, 3, 10, 5)
    assert daily_game.next_day_start(utc(2025, 1, 15, 5, 59)) == utc(2025, 1, 15, 6)


@settings(deadline=None, max_examples=200)
@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1)))
def test_every_instant_lies_inside_its_day(naive: datetime) -> None:
    instant = naive.replace(tzinfo=UTC)
    day = daily_game.day_of(instant)
    assert daily_game.day_start(day) <= instant < daily_game.day_end(day)
    assert not daily_game.is_over(day, instant)
    assert daily_game.is_over(day, daily_game.day_end(day))


# Seeds and deals -------------------------------------------------------------------


def test_the_seeds_follow_the_published_recipe() -> None:
    day = date(2025, 3, 9)
    seed = daily_game.day_seed(SECRET, day)
    assert seed == hmac.new(SECRET, b"sheepshead-daily/1:2025-03-09", hashlib.sha256).digest()
    for k in range(5):
        expected = hmac.new(seed, str(k).encode(), hashlib.sha256).digest()
        assert daily_game.deal_seed(seed, k) == expected
    assert daily_game.commitment(seed) == hashlib.sha256(seed).hexdigest()


def test_the_commitment_matches_the_revealed_seed_and_no_other() -> None:
    day = date(2025, 3, 9)
    published = daily_game.commitment(daily_game.day_seed(SECRET, day))
    revealed = daily_game.day_seed(SECRET, day).hex()
    assert hashlib.sha256(bytes.fromhex(revealed)).hexdigest() == published
    other_day = daily_game.day_seed(SECRET, day + timedelta(days=1))
    other_secret = daily_game.day_seed(b"another secret", day)
    assert daily_game.commitment(other_day) != published
    assert daily_game.commitment(other_secret) != published


def test_days_and_deals_all_differ() -> None:
    seeds = [daily_game.day_seed(SECRET, date(2025, 1, 1) + timedelta(days=i)) for i in range(30)]
    assert len(set(seeds)) == 30
    deals = {daily_game.deal_seed(s, k) for s in seeds for k in range(5)}
    assert len(deals) == 150


def test_an_empty_secret_or_a_sixth_deal_is_refused() -> None:
    with pytest.raises(ValueError, match="secret"):
        daily_game.day_seed(b"", date(2025, 1, 1))
    with pytest.raises(ValueError, match="deals 0 to 4"):
        daily_game.deal_seed(b"x" * 32, 5)


def test_two_players_get_identical_deals() -> None:
    day = date(2025, 6, 1)
    # Each player's attempt derives its deals independently, from the date alone.
    first = [daily_game.deal(daily_game.day_seed(SECRET, day), k) for k in range(5)]
    second = [daily_game.deal(daily_game.day_seed(SECRET, day), k) for k in range(5)]
    for a, b in zip(first, second, strict=True):
        assert (a.dealer, a.dealt, a.blind) == (b.dealer, b.dealt, b.blind)
        assert a.rules == b.rules == daily_game.RULES


def test_the_player_sits_once_in_every_position_relative_to_the_dealer() -> None:
    dealers = [daily_game.dealer_of(k) for k in range(5)]
    assert dealers == [4, 0, 1, 2, 3]
    assert sorted(daily_game.position_of_player(k) for k in range(5)) == [1, 2, 3, 4, 5]
    # The first deal: the player, on the dealer's left, speaks first.
    game = daily_game.deal(daily_game.day_seed(SECRET, date(2025, 6, 1)), 0)
    assert game.turn == daily_game.PLAYER_SEAT
    # The second: the player deals and speaks last.
    assert daily_game.position_of_player(1) == 5


def test_reveal_rederives_the_deals_anyone_can_check() -> None:
    seed = daily_game.day_seed(SECRET, date(2025, 6, 1))
    revealed = daily_game.reveal(daily_game.parse_seed(seed.hex()))
    assert [r.k for r in revealed] == [0, 1, 2, 3, 4]
    for r in revealed:
        game = daily_game.deal(seed, r.k)
        assert r.hands == game.dealt
        assert r.blind == game.blind
        assert r.dealer == game.dealer
        as_json = r.to_json()
        assert as_json["seed_sha256"] == hashlib.sha256(r.seed).hexdigest()
        assert len(as_json["hands"]) == 5  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "reason"),
    [("abc", "64 hexadecimal"), ("zz" * 32, "hexadecimal"), ("", "64 hexadecimal")],
)
def test_a_malformed_seed_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        daily_game.parse_seed(text)


def test_every_deal_of_a_day_plays_out_under_standard_rules() -> None:
    seed = daily_game.day_seed(SECRET, date(2025, 6, 1))
    for k in range(5):
        game = daily_game.deal(seed, k)
        while not game.is_done:
            # The last legal action: picks where it can, so some deals get a picker.
            game = game.apply(game.legal_actions()[-1])
        result = game.result()
        assert result is not None
        assert sum(result.scores) == 0


# Ranking ---------------------------------------------------------------------------


def entry(player: str, *points: int) -> daily_game.Entry:
    return daily_game.Entry(player, tuple(points))


def test_a_deals_share_counts_the_field_beaten_with_ties_as_half() -> None:
    board = daily_game.rank_day(
        [
            entry("ann", 2, 0, 0, 0, 0),
            entry("bob", 1, 0, 0, 0, 0),
            entry("cal", 1, 0, 0, 0, 0),
            entry("dot", -1, 0, 0, 0, 0),
        ]
    )
    by = {s.player: s for s in board}
    assert by["ann"].shares[0] == 100.0
    assert by["bob"].shares[0] == pytest.approx(100 * 1.5 / 3)  # beat dot, tied cal
    assert by["dot"].shares[0] == 0.0
    # Every deal tied by all four: everyone gets half.
    assert by["ann"].shares[1:] == (50.0,) * 4
    # The day's score is the average of the five shares.
    assert by["ann"].score == pytest.approx((100 + 50 * 4) / 5)


def test_total_game_points_break_a_tie_in_score_and_then_the_rank_is_shared() -> None:
    board = daily_game.rank_day(
        [
            # ann and bob split the deals: same score, ann has more game points.
            entry("ann", 4, -1, 0, 0, 0),
            entry("bob", -1, 1, 0, 0, 0),
            # cal and dot are level on score and total: they share a rank.
            entry("cal", -2, -2, 0, 0, 0),
            entry("dot", -2, -2, 0, 0, 0),
        ]
    )
    assert [(s.player, s.rank) for s in board] == [("ann", 1), ("bob", 2), ("cal", 3), ("dot", 3)]
    assert board[0].score == board[1].score
    assert board[0].total > board[1].total
    assert board[2].percentile == 100 * (0 + 0.5) / 3
    assert board[0].percentile == 100.0


def test_a_field_of_one_scores_the_average() -> None:
    (only,) = daily_game.rank_day([entry("ann", 6, 2, -1, 3, 0)])
    assert only.score == 50.0
    assert only.shares == (50.0,) * 5
    assert only.rank == 1
    assert only.percentile == 50.0


def test_a_player_is_ranked_once_a_day() -> None:
    with pytest.raises(ValueError, match="one ranked attempt"):
        daily_game.rank_day([entry("ann", 0, 0, 0, 0, 0), entry("ann", 1, 0, 0, 0, 0)])
    with pytest.raises(ValueError, match="5 deals"):
        entry("ann", 0, 0)


@settings(deadline=None, max_examples=60)
@given(
    st.lists(st.tuples(*[st.integers(-6, 12)] * 5), min_size=1, max_size=25),
)
def test_the_board_is_consistent(rows: list[tuple[int, ...]]) -> None:
    board = daily_game.rank_day([daily_game.Entry(f"p{i:02}", r) for i, r in enumerate(rows)])
    n = len(rows)
    # The shares on a deal add up to half the comparisons: every pair splits one point.
    for k in range(5):
        assert sum(s.matchpoints[k] for s in board) == n * (n - 1)
    # Scores never rise down the board; the rank is 1 + the players strictly ahead.
    for i, s in enumerate(board):
        assert 0.0 <= s.score <= 100.0
        ahead = [t for t in board if (t.score, t.total) > (s.score, s.total)]
        assert s.rank == len(ahead) + 1
        if i:
            assert (board[i - 1].score, board[i - 1].total) >= (s.score, s.total)


def test_spread_of_the_field() -> None:
    s = daily_game.spread([2, -1, 2, 4])
    assert s is not None
    assert (s.low, s.median, s.high) == (-1, 2.0, 4)
    assert s.counts == ((-1, 1), (2, 2), (4, 1))
    assert daily_game.spread([]) is None


def test_the_weekly_board_sums_the_days_played() -> None:
    assert daily_game.week_of(date(2025, 6, 1)) == date(2025, 5, 26)  # a Sunday -> its Monday
    board = daily_game.rank_week(
        [
            daily_game.WeekEntry("lucky", (90.0,), 10),
            daily_game.WeekEntry("steady", (50.0, 50.0, 50.0), 3),
            daily_game.WeekEntry("twin", (50.0, 50.0, 50.0), 3),
        ]
    )
    assert [(w.player, w.rank, w.days) for w in board] == [
        ("steady", 1, 3),
        ("twin", 1, 3),
        ("lucky", 3, 1),
    ]


def test_the_share_line_tells_no_cards_and_no_game_points() -> None:
    line = daily_game.share_line(date(2025, 6, 1), 61.25, [100.0, 55.0, 10.0, 60.0, 39.9])
    assert line == "Sheepshead daily 2025-06-01: 61.2% 🟩🟨🟥🟩🟥"
