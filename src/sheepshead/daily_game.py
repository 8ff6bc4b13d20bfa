"""The daily game: one day's five deals, its commit-reveal seed, and its ranking.

Pure: no clock, no I/O. The caller passes the instant or the date and the server's
secret. ``docs/daily.md`` explains the scheme for players and for anyone who wants
to check a day; the exact inputs are:

- the day is the calendar date in America/Chicago;
- day seed = HMAC-SHA256(key = server secret, message = "sheepshead-daily/1:" + ISO date);
- seed of deal k (k = 0..4) = HMAC-SHA256(key = day seed, message = ASCII decimal k);
- the commitment published at the day's start = hex SHA-256 of the day seed.

Deal k is dealt by ``Game.deal(standard, dealer=(FIRST_DEALER + k) % 5, seed)``:
the player always sits in seat 0 and the deal passes left, so over the five deals
the player is once each: first to speak, dealer, and the three seats between.
"""

from __future__ import annotations

import hashlib
import hmac
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sheepshead import bots
from sheepshead.cards import Card
from sheepshead.game import Game
from sheepshead.rules import PRESETS, Rules

#: The game's home: its calendar day is the daily game's day.
ZONE_NAME = "America/Chicago"
#: Versions the seed derivation; changing it changes every day's deals.
SEED_PREFIX = "sheepshead-daily/1:"
#: Deals in a day.
DEALS = 5
#: The player's seat in every deal.
PLAYER_SEAT = 0
#: The dealer of deal 0: seat 4, so the player (seat 0, on the dealer's left) speaks
#: and leads first; then seat 0 deals, then seats 1, 2 and 3.
FIRST_DEALER = 4
#: The rules of the ranked daily game, always.
RULES: Rules = PRESETS["standard"]


def zone() -> ZoneInfo:
    """America/Chicago. Debian ships the zone data; ``tzdata`` would be the fallback."""
    return ZoneInfo(ZONE_NAME)


def _aware(instant: datetime) -> datetime:
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError("the instant must carry a time zone (use UTC)")
    return instant


def day_of(instant: datetime) -> date:
    """The daily game's day at ``instant``: its calendar date in Chicago."""
    return _aware(instant).astimezone(zone()).date()


def day_start(day: date) -> datetime:
    """When ``day`` starts, in UTC: midnight in Chicago."""
    # Midnight exists on every Chicago day: DST changes happen at 02:00.
    return datetime.combine(day, time(0), tzinfo=zone()).astimezone(UTC)


def day_end(day: date) -> datetime:
    """When ``day`` ends (the next day's start), in UTC. A day lasts 23, 24 or 25 hours."""
    return day_start(day + timedelta(days=1))


def next_day_start(instant: datetime) -> datetime:
    """When the day after the one running at ``instant`` starts, in UTC."""
    return day_end(day_of(instant))


def is_over(day: date, instant: datetime) -> bool:
    """Whether ``day`` has ended at ``instant``: only then may its seed be shown."""
    return _aware(instant) >= day_end(day)


# Seeds -------------------------------------------------------------------


def day_seed(secret: bytes, day: date) -> bytes:
    """The day's seed: secret until the day ends, then published."""
    if not secret:
        raise ValueError("the daily secret must not be empty")
    message = (SEED_PREFIX + day.isoformat()).encode("ascii")
    return hmac.new(secret, message, hashlib.sha256).digest()


def deal_seed(seed_of_day: bytes, k: int) -> bytes:
    """The seed of deal ``k`` (0-based) of the day."""
    if not 0 <= k < DEALS:
        raise ValueError(f"a day has deals 0 to {DEALS - 1}, not {k}")
    return hmac.new(seed_of_day, str(k).encode("ascii"), hashlib.sha256).digest()


def commitment(seed_of_day: bytes) -> str:
    """What the site publishes at the day's start: hex SHA-256 of the day's seed."""
    return hashlib.sha256(seed_of_day).hexdigest()


def dealer_of(k: int) -> int:
    return (FIRST_DEALER + k) % RULES.players


def position_of_player(k: int) -> int:
    """The player's place counted from the dealer's left: 1 speaks first, 5 is the dealer."""
    return (PLAYER_SEAT - dealer_of(k) - 1) % RULES.players + 1


def deal(seed_of_day: bytes, k: int) -> Game:
    """Deal ``k`` of the day, before anyone acts."""
    return Game.deal(RULES, dealer_of(k), deal_seed(seed_of_day, k))


def expert_points(
    seed_of_day: bytes, level: str, bot_seed: int, version: str | None = None
) -> list[int]:
    """What the day's computer players score in the player's seat on each deal, playing
    all five seats: the board's yardstick for the player's own score."""
    points = []
    for k in range(DEALS):
        game = deal(seed_of_day, k)
        while not game.is_done:
            assert game.turn is not None
            view = game.view(game.turn)
            game = game.apply(bots.decide(level, view, seed=bot_seed, version=version))
        result = game.result()
        assert result is not None
        points.append(result.scores[PLAYER_SEAT])
    return points


#: Who plays the player's seat in ``expert_in_seat``.
EXPERT = "expert"


def expert_seed(game: Game) -> int:
    """The expert's seed for a deal: from the deal itself (dealer, hands and blind), so
    that anyone holding the deal's record gets the same game."""
    text = "|".join(
        [str(game.dealer), *(" ".join(c.text for c in h) for h in game.dealt), "blind"]
        + [c.text for c in game.blind]
    )
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big") >> 1


def expert_in_seat(
    dealt: Game, seat: int, level: str, bot_seed: int, version: str | None = None
) -> int:
    """The game points the expert scores in ``seat`` from the deal ``dealt`` (before any
    action), the other seats played by the ``level`` computer players of ``version`` with
    their ``bot_seed``, as the player met them; the expert of the same version of play,
    seeded from the deal (``expert_seed``). Deterministic."""
    seed = expert_seed(dealt)
    game = dealt
    while not game.is_done:
        turn = game.turn
        assert turn is not None
        view = game.view(turn)
        if turn == seat:
            game = game.apply(bots.decide(EXPERT, view, seed=seed, version=version))
        else:
            game = game.apply(bots.decide(level, view, seed=bot_seed, version=version))
    result = game.result()
    assert result is not None
    return result.scores[seat]


@dataclass(frozen=True, slots=True)
class RevealedDeal:
    """One deal as anyone can re-derive it once the day's seed is out."""

    k: int
    dealer: int
    seed: bytes
    hands: tuple[tuple[Card, ...], ...]
    blind: tuple[Card, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "deal": self.k + 1,
            "dealer": self.dealer,
            "seed": self.seed.hex(),
            "seed_sha256": hashlib.sha256(self.seed).hexdigest(),
            "hands": [[c.text for c in hand] for hand in self.hands],
            "blind": [c.text for c in self.blind],
        }


def reveal(seed_of_day: bytes) -> tuple[RevealedDeal, ...]:
    """The day's five deals, from its (published) seed."""
    out = []
    for k in range(DEALS):
        game = deal(seed_of_day, k)
        out.append(RevealedDeal(k, game.dealer, deal_seed(seed_of_day, k), game.dealt, game.blind))
    return tuple(out)


def parse_seed(text: str) -> bytes:
    """A day seed written in hex (64 digits). Raises ValueError with a readable reason."""
    cleaned = text.strip().lower()
    if len(cleaned) != 64:
        raise ValueError("a day's seed is 64 hexadecimal digits")
    try:
        return bytes.fromhex(cleaned)
    except ValueError:
        raise ValueError("a day's seed is written in hexadecimal (0-9, a-f)") from None


# Ranking -----------------------------------------------------------------
#
# Duplicate-bridge matchpoints, kept in integers so ties are exact: on each deal a
# player earns 2 for every other player whose game points they beat and 1 for every
# tie. Out of 2 * (field - 1) per deal, that is the share of the field beaten, a
# tie counting half. A field of one (nobody to compare with) gets the average, 50%,
# as a board nobody else played does in bridge.


@dataclass(frozen=True, slots=True)
class Entry:
    """One finished attempt: the player and their game points on each deal."""

    player: str
    points: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.points) != DEALS:
            raise ValueError(f"an attempt has {DEALS} deals, not {len(self.points)}")

    @property
    def total(self) -> int:
        return sum(self.points)


@dataclass(frozen=True, slots=True)
class Standing:
    player: str
    points: tuple[int, ...]
    #: Matchpoints per deal: 2 per player beaten, 1 per tie.
    matchpoints: tuple[int, ...]
    #: The field: every finished attempt of the day, this one included.
    field: int
    #: Shared rank: 1 + the number of players strictly ahead.
    rank: int
    #: Players strictly behind (by score, then total game points).
    behind: int
    #: Players level on both score and total, this one excluded.
    level: int

    @property
    def total(self) -> int:
        return sum(self.points)

    @property
    def shares(self) -> tuple[float, ...]:
        """The share of the field beaten on each deal, as a percentage."""
        return tuple(share_percent(mp, self.field) for mp in self.matchpoints)

    @property
    def score(self) -> float:
        """The day's score: the average of the five shares, as a percentage."""
        return score_percent(sum(self.matchpoints), self.field)

    @property
    def percentile(self) -> float:
        """The share of the rest of the field this player is ahead of, ties counting half."""
        if self.field <= 1:
            return 50.0
        return 100.0 * (self.behind + self.level / 2) / (self.field - 1)


def share_percent(matchpoints: int, field: int) -> float:
    return 50.0 if field <= 1 else 100.0 * matchpoints / (2 * (field - 1))


def score_percent(matchpoints: int, field: int) -> float:
    return 50.0 if field <= 1 else 100.0 * matchpoints / (2 * (field - 1) * DEALS)


def matchpoints(value: int, ordered: Sequence[int]) -> int:
    """Matchpoints for ``value`` on one deal. ``ordered`` is every attempt's game points
    on that deal, sorted, this attempt's included (it is not its own opponent)."""
    below = bisect_left(ordered, value)
    equal = bisect_right(ordered, value) - below
    if equal == 0:
        raise ValueError("the field must include this attempt's own value")
    return 2 * below + (equal - 1)


def rank_day(entries: Sequence[Entry]) -> list[Standing]:
    """The day's board, best first: by score, then total game points, then shared rank.

    Players level on both are listed by their id, so the order is stable.
    """
    field = len(entries)
    players = [e.player for e in entries]
    if len(set(players)) != field:
        raise ValueError("a player has one ranked attempt a day")
    by_deal = [sorted(e.points[k] for e in entries) for k in range(DEALS)]
    scored = []
    for entry in entries:
        mps = tuple(matchpoints(entry.points[k], by_deal[k]) for k in range(DEALS))
        scored.append((entry, mps, sum(mps)))
    scored.sort(key=lambda s: (-s[2], -s[0].total, s[0].player))
    out: list[Standing] = []
    i = 0
    while i < field:
        j = i
        key = (scored[i][2], scored[i][0].total)
        while j < field and (scored[j][2], scored[j][0].total) == key:
            j += 1
        for entry, mps, _ in scored[i:j]:
            out.append(
                Standing(entry.player, entry.points, mps, field, i + 1, field - j, j - i - 1)
            )
        i = j
    return out


@dataclass(frozen=True, slots=True)
class Spread:
    """The field's game points on one deal: lowest, median, highest, and how many
    players scored each value (value -> count, lowest first)."""

    low: int
    median: float
    high: int
    counts: tuple[tuple[int, int], ...]


def spread(values: Sequence[int]) -> Spread | None:
    if not values:
        return None
    ordered = sorted(values)
    n = len(ordered)
    mid = n // 2
    median = float(ordered[mid]) if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    counts: dict[int, int] = {}
    for v in ordered:
        counts[v] = counts.get(v, 0) + 1
    return Spread(ordered[0], median, ordered[-1], tuple(counts.items()))


# The weekly board ------------------------------------------------------------
#
# A week runs Monday to Sunday (Chicago days). Its score is the SUM of the day
# scores (each 0-100) over the days played: a day not played counts 0, so the
# board rewards coming back every day, and one lucky day cannot top the week as
# it would with an average. Ties: total game points over the week, then shared rank.


def week_of(day: date) -> date:
    """The Monday that starts ``day``'s week."""
    return day - timedelta(days=day.weekday())


@dataclass(frozen=True, slots=True)
class WeekEntry:
    player: str
    #: The day scores (percentages) of the days played.
    scores: tuple[float, ...]
    total: int

    @property
    def score(self) -> float:
        return sum(self.scores)


@dataclass(frozen=True, slots=True)
class WeekStanding:
    player: str
    score: float
    days: int
    total: int
    rank: int


def rank_week(entries: Sequence[WeekEntry]) -> list[WeekStanding]:
    # Day scores are fractions; rounding to 1e-9 keeps sums that are equal on paper equal.
    keyed = sorted(entries, key=lambda e: (-round(e.score, 9), -e.total, e.player))
    out: list[WeekStanding] = []
    for i, e in enumerate(keyed):
        prev = out[-1] if out else None
        same = prev is not None and round(prev.score, 9) == round(e.score, 9)
        rank = prev.rank if prev is not None and same and prev.total == e.total else i + 1
        out.append(WeekStanding(e.player, e.score, len(e.scores), e.total, rank))
    return out


# Sharing -----------------------------------------------------------------------

#: A symbol per deal by the share of the field beaten: good, middling, poor.
SHARE_SYMBOLS = (("\U0001f7e9", 60.0), ("\U0001f7e8", 40.0), ("\U0001f7e5", 0.0))


def share_symbol(share: float) -> str:
    for symbol, floor in SHARE_SYMBOLS:
        if share >= floor:
            return symbol
    return SHARE_SYMBOLS[-1][0]


#: Before the streak in the share line: days in a row.
STREAK_SYMBOL = "\U0001f525"


def share_line(day: date, score: float, shares: Sequence[float], streak: int = 0) -> str:
    """The spoiler-free line a player may paste anywhere: no cards, no game points; with
    the player's daily streak (``🔥3``: three days in a row) when there is one."""
    symbols = "".join(share_symbol(s) for s in shares)
    line = f"Sheepshead daily {day.isoformat()}: {score:.1f}% {symbols}"
    return f"{line} {STREAK_SYMBOL}{streak}" if streak > 0 else line
