"""A duplicate-match arena: how much better one player is than another, on the same deals.

For each seeded deal and each seat, the hand is played with the candidate in that
seat and the baseline in every other seat; then with the baseline in every seat.
The difference of the seat's game points is the candidate's edge on that deal and
seat, free of the luck of the cards. The unit of the confidence interval is the
per-deal mean over seats (bootstrap over deals).

Pure: no clock, no I/O. The caller passes a ``clock`` to time decisions, and
players as policies (``Game -> Action``), so that a bot of any level, or a program
speaking the ``sheepshead bot`` protocol, can sit at the table.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sheepshead.actions import Action, Play
from sheepshead.bots import Bot, seed_rng
from sheepshead.bots.knowledge import beats, read_view
from sheepshead.bots.rng import Rng
from sheepshead.game import Game
from sheepshead.rules import Rules

#: A player: the action for the seat to act (``game.turn``). It must decide from
#: ``game.view(game.turn)`` alone; the arena hands it the game only so that outside
#: programs can be sent the position as a hand record.
Policy = Callable[[Game], Action]
Clock = Callable[[], float]

ROLES = ("picker", "partner", "defender", "leaster")


def bot_policy(bot: Bot, seed: int = 0) -> Policy:
    """Seat a bot: it sees only the view, with its generator seeded as ``decide`` does."""

    def act(game: Game) -> Action:
        assert game.turn is not None
        view = game.view(game.turn)
        return bot.choose(view, seed_rng(bot.level, view, seed))

    return act


def deal_seed(deal_set: str, index: int) -> bytes:
    """The seed of deal ``index`` of the named deal set (the arena's frozen deals)."""
    return hashlib.sha256(f"sheepshead-arena/1\x00{deal_set}\x00{index}".encode()).digest()


@dataclass(slots=True)
class Tally:
    """What one player did: decisions, timings, roles and the blunder counts."""

    decisions: int = 0
    ms: list[float] = field(default_factory=list)
    hands: int = 0
    picks: int = 0
    alone: int = 0
    picker_wins: int = 0
    leasters: int = 0
    defender_leads_with_fail: int = 0
    defender_trump_leads: int = 0
    plays: int = 0
    free_points: int = 0
    #: Chances to schmear (a known ally's trick sure to hold, a legal fail ace or ten
    #: that would not take it) and the plays of a card worth 4 or less at them.
    schmear_chances: int = 0
    missed_schmears: int = 0
    #: Follows that surely take the trick with a card worth 10 or more while a legal
    #: card with fewer points would surely take it too.
    wasted_points: int = 0
    roles: dict[str, int] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        for name in (
            "decisions",
            "hands",
            "picks",
            "alone",
            "picker_wins",
            "leasters",
            "defender_leads_with_fail",
            "defender_trump_leads",
            "plays",
            "free_points",
            "schmear_chances",
            "missed_schmears",
            "wasted_points",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.ms.extend(other.ms)
        for role, count in other.roles.items():
            self.roles[role] = self.roles.get(role, 0) + count


@dataclass(slots=True)
class DealOutcome:
    """One deal: per seat, the candidate's and the baseline's game points and roles."""

    index: int
    candidate: list[int]
    baseline: list[int]
    candidate_roles: list[str]
    baseline_roles: list[str]
    candidate_tally: Tally
    baseline_tally: Tally

    @property
    def edge(self) -> float:
        diffs = [c - b for c, b in zip(self.candidate, self.baseline, strict=True)]
        return sum(diffs) / len(diffs)


def role_of(game: Game, seat: int) -> str:
    if game.picker is None:
        return "leaster" if game.tricks else "doubler"
    if seat == game.picker:
        return "picker"
    return "partner" if seat in game.partners else "defender"


def _observe(game: Game, action: Action, tally: Tally) -> None:
    """Count the human-visible blunders of one decision (the seat to act in ``game``)."""
    if not isinstance(action, Play):
        return
    assert game.turn is not None
    view = game.view(game.turn)
    k = read_view(view)
    if k.leaster:
        return
    tally.plays += 1
    card = action.card
    legal = [a.card for a in view.legal if isinstance(a, Play)]
    if k.leading:
        if not k.on_picker_side and any(not c.is_trump for c in view.cards):
            tally.defender_leads_with_fail += 1
            tally.defender_trump_leads += card.is_trump
        return
    winner, best = k.winner, k.best
    if winner is None or best is None:
        return
    if (
        card.points >= 10
        and k.sure_to_win(card)
        and any(c.points < card.points and k.sure_to_win(c) for c in legal)
    ):
        tally.wasted_points += 1
    side = k.side_of(winner)
    if side == 1 and k.winner_is_sure():
        spare = [c for c in legal if not c.is_trump and c.points >= 10]
        if any(not beats(c, best, k.led) for c in spare):
            tally.schmear_chances += 1
            tally.missed_schmears += card.points <= 4
    if side != -1:
        return
    if (
        card.points >= 10
        and not beats(card, best, k.led)
        and k.winner_is_sure()
        and any(c.points < card.points for c in legal)
    ):
        tally.free_points += 1


def play_hand(
    rules: Rules,
    dealer: int,
    seed: bytes,
    policies: Sequence[Policy],
    tallies: Sequence[Tally | None],
    clock: Clock | None = None,
) -> Game:
    """Play one hand to the end, each seat by its policy; count into the seat's tally."""
    game = Game.deal(rules, dealer, seed)
    while not game.is_done:
        seat = game.turn
        assert seat is not None
        tally = tallies[seat]
        start = clock() if clock is not None and tally is not None else 0.0
        action = policies[seat](game)
        if tally is not None:
            if clock is not None:
                tally.ms.append((clock() - start) * 1000.0)
            tally.decisions += 1
            _observe(game, action, tally)
        game = game.apply(action)
    for seat, tally in enumerate(tallies):
        if tally is None:
            continue
        role = role_of(game, seat)
        tally.hands += 1
        tally.roles[role] = tally.roles.get(role, 0) + 1
        tally.leasters += role == "leaster"
        if seat == game.picker:
            tally.picks += 1
            tally.alone += game.alone
            result = game.result()
            assert result is not None
            tally.picker_wins += result.result.is_win
    return game


def play_deal(
    rules: Rules,
    index: int,
    deal_set: str,
    candidate: Policy,
    baseline: Policy,
    clock: Clock | None = None,
) -> DealOutcome:
    """Deal ``index``: the candidate in each seat in turn, then the baseline field alone."""
    n = rules.players
    seed = deal_seed(deal_set, index)
    dealer = index % n  # every seat deals equally often over the deal set
    base_tally = Tally()
    base_game = play_hand(rules, dealer, seed, [baseline] * n, [base_tally] * n, clock)
    base_result = base_game.result()
    assert base_result is not None
    cand_tally = Tally()
    scores, roles = [], []
    for seat in range(n):
        policies = [baseline] * n
        policies[seat] = candidate
        tallies: list[Tally | None] = [None] * n
        tallies[seat] = cand_tally
        game = play_hand(rules, dealer, seed, policies, tallies, clock)
        result = game.result()
        assert result is not None
        scores.append(result.scores[seat])
        roles.append(role_of(game, seat))
    return DealOutcome(
        index,
        scores,
        list(base_result.scores),
        roles,
        [role_of(base_game, s) for s in range(n)],
        cand_tally,
        base_tally,
    )


# Statistics --------------------------------------------------------------------


def bootstrap_ci(
    values: Sequence[float], resamples: int = 1000, seed: bytes = b"arena-bootstrap"
) -> tuple[float, float]:
    """A 95% percentile-bootstrap interval for the mean, with our own fixed-seed Rng."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    rng = Rng.from_bytes(seed)
    means = []
    for _ in range(resamples):
        total = 0.0
        for _ in range(n):
            total += values[rng.below(n)]
        means.append(total / n)
    means.sort()
    lo = means[int(0.025 * (resamples - 1))]
    hi = means[int(0.975 * (resamples - 1) + 0.5)]
    return (lo, hi)


def _percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _rate(part: int, whole: int) -> float | None:
    return None if whole == 0 else part / whole


def tally_summary(t: Tally) -> dict[str, Any]:
    return {
        "hands": t.hands,
        "decisions": t.decisions,
        "pick_rate": _rate(t.picks, t.hands),
        "alone_rate": _rate(t.alone, t.picks),
        "picker_win_rate": _rate(t.picker_wins, t.picks),
        "leaster_rate": _rate(t.leasters, t.hands),
        "roles": dict(sorted(t.roles.items())),
        "defender_trump_lead_rate": _rate(t.defender_trump_leads, t.defender_leads_with_fail),
        "defender_leads_with_fail": t.defender_leads_with_fail,
        "free_point_rate": _rate(t.free_points, t.plays),
        "plays": t.plays,
        "missed_schmear_rate": _rate(t.missed_schmears, t.schmear_chances),
        "schmear_chances": t.schmear_chances,
        "wasted_point_rate": _rate(t.wasted_points, t.plays),
        "ms_median": _percentile(t.ms, 0.5),
        "ms_p99": _percentile(t.ms, 0.99),
    }


def summarize(
    outcomes: Iterable[DealOutcome],
    rules: Rules,
    candidate: str,
    baseline: str,
    deal_set: str,
    resamples: int = 1000,
) -> dict[str, Any]:
    """The arena's report as plain JSON."""
    done = sorted(outcomes, key=lambda o: o.index)
    n = rules.players
    edges = [o.edge for o in done]
    mean = sum(edges) / len(edges) if edges else 0.0
    lo, hi = bootstrap_ci(edges, resamples)
    per_seat = [
        sum(o.candidate[s] - o.baseline[s] for o in done) / max(1, len(done)) for s in range(n)
    ]
    by_role: dict[str, dict[str, Any]] = {}
    for role in (*ROLES, "doubler"):
        diffs = [
            o.candidate[s] - o.baseline[s]
            for o in done
            for s in range(n)
            if o.candidate_roles[s] == role
        ]
        own = [o.candidate[s] for o in done for s in range(n) if o.candidate_roles[s] == role]
        base = [o.baseline[s] for o in done for s in range(n) if o.baseline_roles[s] == role]
        if diffs or base:
            by_role[role] = {
                "candidate_hands": len(diffs),
                "candidate_mean_score": sum(own) / len(own) if own else None,
                "mean_edge": sum(diffs) / len(diffs) if diffs else None,
                "baseline_hands": len(base),
                "baseline_mean_score": sum(base) / len(base) if base else None,
            }
    cand, base_t = Tally(), Tally()
    for o in done:
        cand.merge(o.candidate_tally)
        base_t.merge(o.baseline_tally)
    return {
        "rules": rules.to_record(),
        "players": n,
        "candidate": candidate,
        "baseline": baseline,
        "deal_set": deal_set,
        "deals": len(done),
        "hands_per_seat": len(done) * n,
        "edge": {"mean": mean, "ci95": [lo, hi], "per_seat": per_seat, "per_deal": edges},
        "by_role": by_role,
        "candidate_stats": tally_summary(cand),
        "baseline_stats": tally_summary(base_t),
    }


def run(
    rules: Rules,
    candidate: Policy,
    baseline: Policy,
    deals: int,
    deal_set: str,
    clock: Clock | None = None,
    first: int = 0,
) -> list[DealOutcome]:
    """Play deals ``first`` to ``first + deals - 1`` of the deal set."""
    return [
        play_deal(rules, i, deal_set, candidate, baseline, clock)
        for i in range(first, first + deals)
    ]
