"""The expert's big decisions, searched: pick or pass, the bury, the call.

Each option is played out in the same sampled worlds (``sampler.py``, reading the
auction so far) with the one card-play policy for every seat (``playout.py`` over
``sim.py``), and the option with the best weighted mean of the seat's game points
wins (card points of its side break near-ties, as in the card search).

- **Pick or pass** (``search_pick``): the blind is one more unseen holder of the
  sampler. "Pick" takes the world's blind and buries and calls (or goes alone) as the
  standard bot would, then plays out; "pass" plays out the rest of the auction with
  the standard bot's policy for the later seats (a later pick, with its bury and
  call; or, when everyone passes, the table's rule: a leaster, a doubler, the dealer
  forced), then the hand. Only close decisions are searched: a hand whose strength
  lies within ``margin`` of the standard bot's threshold for its seat; the rest pick
  by the threshold, as the standard bot.
- **The bury** (``search_bury``): the standard bot's bury and a few others
  (``_bury_score``), each with the call the standard bot would make after it.
- **The call** (``search_call``): every sensible call (every ace or ten; for an
  unknown call, the standard bot's unknown card, or the cheapest) and alone.

Each search has a fixed number of worlds: the same view and generator give the same
action on any machine and under any load; no clock is read.
"""

from __future__ import annotations

from collections.abc import Sequence

from sheepshead.actions import PASS, PICK, Action, Bury, Call, parse_move
from sheepshead.bots.playout import playout
from sheepshead.bots.rng import Rng
from sheepshead.bots.rulebot import RuleBot
from sheepshead.bots.sampler import Sampler, World
from sheepshead.bots.sim import SimHand
from sheepshead.bots.strength import hand_strength, table_key
from sheepshead.cards import FAIL_SUITS, Card, ace_of
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import PartnerRule
from sheepshead.view import SeatView

__all__ = [
    "BURY_OPTIONS",
    "BURY_TABLES",
    "BURY_WORLDS",
    "CALL_TABLES",
    "CALL_WORLDS",
    "CRACK_PICK_SHIFT",
    "PICK_BONUS",
    "PICK_MARGIN",
    "PICK_WORLDS",
    "POINT_WEIGHT",
    "crack_pick_shift",
    "pick_gap",
    "pick_values",
    "search_bury",
    "search_call",
    "search_pick",
    "table_key",
]

#: Worlds for a pick search, and how close to its seat's threshold a hand's strength
#: must be for the pick to be searched at all.
PICK_WORLDS = 32
PICK_MARGIN = 1.5
#: The tables where the expert searches its pick by default (``table_key``), each with
#: the game points added to picking's value: the playouts play every seat with the
#: one policy, which the expert outplays most as picker, so they undervalue its pick.
#: Not at three-handed or plain four-handed tables: the search with a bonus of 1.6 gained
#: against standard players but cost 0.10 and 0.17 game points a hand among experts,
#: picking a quarter to two thirds more often (docs/bots.md, "Searched big decisions" and the
#: session of 2026-12-05, evening). At four-handed called ace, six-handed and the
#: five-handed jack of diamonds, with no bonus, it gained among turn 1's experts: +0.053
#: [+0.034, +0.073], +0.193 [+0.132, +0.257] and +0.143 [+0.086, +0.198] game points a
#: hand on 1,000 evaluation deals (docs/bots.md, "The searched bury and call at the
#: smaller tables"). Six-handed, a bonus of 1.0 brings a table of experts' leasters
#: from 24.9% to 13.7%, inside the issue's 3% to 15%, for 0.042 [0.016, 0.071] game
#: points a hand (1,500 deals), within the 0.05 it allows (docs/bots.md, "Leasters at
#: six-handed tables").
#: Not at the daily game's table (``5/called-ace``), whose play is versioned.
PICK_BONUS: dict[str, float] = {
    "4/called-ace": 0.0,
    "6/jack-of-diamonds": 1.0,
    "5/jack-of-diamonds": 0.0,
}
#: With cracking on, how much more strength (``hand_strength``) the expert's pick needs
#: by table, when every seat after it could crack (its dealer's left); a seat with
#: fewer seats after it needs a share of it (``crack_pick_shift``), the dealer none.
#: Empty: at five-handed tables 0.8 (chosen among seven ways of picking on the first
#: 500 tuning deals, +0.043 there) was not confirmed on deals it was not chosen on
#: (+0.015 [-0.010, +0.042] on 1,000 evaluation deals, +0.006 on 500 tuning deals),
#: and it brings a table of experts from 8% leasters to 14.5% (docs/bots.md, "The
#: pick at a cracking table"). ``ExpertBot(crack_pick=...)`` tries a scale.
CRACK_PICK_SHIFT: dict[str, float] = {}
#: The standard bot's favourite buries that are played out, and in how many worlds;
#: the worlds for a call.
BURY_OPTIONS = 4
BURY_WORLDS = 30
#: The tables where the expert searches its bury by default (``table_key``).
#: Three-handed: +0.113 [+0.065, +0.157] game points a hand against the standard
#: bot's bury, among turn 1's experts (1,000 evaluation deals; +0.121 on 1,000 tuning
#: deals): the richest two fail cards often leave a ten bare or a suit unguarded
#: where the picker plays alone against two. Four-handed called ace, with the call
#: searched too (``CALL_TABLES``): +0.036 [+0.005, +0.067] on the tuning deals, +0.030
#: [-0.006, +0.064] on the evaluation deals, +0.033 [+0.007, +0.057] on both (docs/bots.md,
#: "The searched bury and call at the smaller tables").
BURY_TABLES: frozenset[str] = frozenset({"3/none", "4/called-ace"})
#: The tables where the expert searches its call by default (``table_key``).
CALL_TABLES: frozenset[str] = frozenset({"4/called-ace"})
CALL_WORLDS = 40
#: Game points per card point, when card points break near-ties: in these searches and
#: in the expert's card search (``expert.py`` takes it from here).
POINT_WEIGHT = 0.001

# Pick or pass --------------------------------------------------------------------


def pick_gap(view: SeatView, standard: RuleBot) -> float:
    """How far the seat's hand is above (or below) the standard bot's threshold."""
    position = (view.seat - view.dealer - 1) % view.players
    return hand_strength(view.cards) - standard.style.pick_table(table_key(view))[position]


def crack_pick_shift(view: SeatView, scale: float) -> float:
    """How much more strength a pick needs for the cracks it may meet: ``scale`` for
    each seat after this one up to the dealer (who may crack it), as a share of all."""
    if not view.rules.cracking:
        return 0.0
    position = (view.seat - view.dealer - 1) % view.players
    return scale * (view.players - 1 - position) / (view.players - 1)


def search_pick(
    view: SeatView,
    rng: Rng,
    standard: RuleBot,
    worlds: int = PICK_WORLDS,
    margin: float = PICK_MARGIN,
    bonus: float = 0.0,
    shift: float = 0.0,
) -> Action:
    """Pick or pass: by the threshold (moved by ``shift``), or, for a close hand, by
    playing both out, picking's value raised by ``bonus`` game points."""
    if PICK not in view.legal or PASS not in view.legal:
        return standard.choose(view, rng)
    gap = pick_gap(view, standard) - shift
    usual = PICK if gap >= 0 else PASS
    if abs(gap) > margin or worlds <= 0:
        return usual
    pick, pass_ = pick_values(view, rng, standard, worlds)
    pick += bonus
    if usual == PICK:
        return PASS if pass_ > pick else PICK
    return PICK if pick > pass_ else PASS


def pick_values(view: SeatView, rng: Rng, standard: RuleBot, worlds: int) -> tuple[float, float]:
    """The weighted mean game points of picking and of passing, over the same worlds."""
    (pick, pass_), total = _played_out(view, rng, standard, (PICK, PASS), worlds)
    total = total or 1.0
    return pick / total, pass_ / total


def _auction(game: Game, standard: RuleBot, rng: Rng) -> Game:
    """The rest of the auction (picks, bury, call, cracks, naming) by the standard bot."""
    while game.phase is not Phase.PLAYING and game.phase is not Phase.DONE:
        legal = game.legal_actions()
        turn = game.turn
        assert turn is not None
        action = legal[0] if len(legal) == 1 else standard.propose(game.view(turn), rng)
        game = game.apply(action)
    return game


def _play_out(game: Game, me: int) -> float:
    """The seat's game points once the hand is played out by the policy (a doubler,
    which ends the hand unplayed, is worth nothing now)."""
    if game.phase is Phase.DONE:
        result = game.result()
        return 0.0 if result is None else float(result.scores[me])
    sim = SimHand.from_game(game)
    playout(sim)
    score, own = sim.outcome(me)
    return score + POINT_WEIGHT * own


# Bury and call -------------------------------------------------------------------


def search_bury(
    view: SeatView,
    rng: Rng,
    standard: RuleBot,
    options: int = BURY_OPTIONS,
    worlds: int = BURY_WORLDS,
) -> Action:
    """The standard bot's bury and a few others (``_bury_score``), ``options`` in all,
    each followed by the standard bot's call, played out in ``worlds`` sampled worlds."""
    legal = [a for a in view.legal if isinstance(a, Bury)]
    cards = view.cards

    def kept(bury: Bury) -> list[Card]:
        return [c for c in cards if c not in bury.cards]

    usual = standard.choose(view, rng)
    ranked = sorted(legal, key=lambda b: -_bury_score(kept(b), b.cards))
    shortlist = [usual]
    if view.rules.partner is PartnerRule.CALLED_ACE:
        # The unknown is called mostly after burying the only card of a callable
        # suit: the best bury that keeps one is always among the options.
        callable_ = [b for b in ranked if _keeps_a_call(cards, b.cards)]
        if callable_ and not _keeps_a_call(cards, _bury_cards(usual)):
            shortlist.append(callable_[0])
    shortlist += [b for b in ranked if b not in shortlist]
    return _best_action(view, rng, standard, shortlist[:options], worlds)


def _bury_cards(action: Action) -> tuple[Card, ...]:
    return action.cards if isinstance(action, Bury) else ()


def _keeps_a_call(cards: Sequence[Card], buried: Sequence[Card]) -> bool:
    """Whether the picker keeps a card of a fail suit whose ace it does not hold (an
    ace it can call, not the unknown)."""
    kept = [c for c in cards if c not in buried]
    return any(ace_of(s) not in cards and any(c.fail_suit is s for c in kept) for s in FAIL_SUITS)


def search_call(view: SeatView, rng: Rng, standard: RuleBot) -> Action:
    """Each sensible call (every ace or ten; for an unknown call, the standard bot's
    unknown card, or the cheapest card; alone) played out in sampled worlds."""
    usual = standard.choose(view, rng)
    calls: list[Action] = []
    for action in view.legal:
        if isinstance(action, Call) and action.unknown is not None:
            if isinstance(usual, Call) and usual.unknown is not None:
                if action.card is usual.card:
                    calls.append(action)
            elif action.unknown is min(view.cards, key=_unknown_cost):
                calls.append(action)
        else:
            calls.append(action)
    if len(calls) == 1:
        return calls[0]
    calls.sort(key=lambda a: a != usual)
    return _best_action(view, rng, standard, calls, CALL_WORLDS)


def _best_action(
    view: SeatView, rng: Rng, standard: RuleBot, options: Sequence[Action], worlds: int
) -> Action:
    """The option (the first, the standard bot's, on a tie) with the best weighted
    mean of the seat's game points, each played out in the same worlds: the rest of
    the auction by the standard bot (its call after a bury, the cracks), then the
    hand by the policy."""
    value, _ = _played_out(view, rng, standard, options, worlds)
    best = max(range(len(options)), key=value.__getitem__)
    return options[best]


def _played_out(
    view: SeatView, rng: Rng, standard: RuleBot, options: Sequence[Action], worlds: int
) -> tuple[list[float], float]:
    """Each option's game points for the seat summed over the same sampled worlds,
    each weighed as likely as the world, and the worlds' total weight: the rest of the
    auction by the standard bot, then the hand by the policy."""
    me = view.seat
    sampler = Sampler(view)
    value = [0.0] * len(options)
    total = 0.0
    for _ in range(worlds):
        world = sampler.sample(rng)
        game = _engine_game(view, world)
        total += world.weight
        for i, action in enumerate(options):
            after = _auction(game.apply(action), standard, rng)
            value[i] += world.weight * _play_out(after, me)
    return value, total


def _bury_score(kept: list[Card], buried: tuple[Card, ...]) -> float:
    """A quick guess at a bury's worth, to shortlist buries for search: its points,
    the fail suits it clears, and never a trump unless it must."""
    score = float(sum(c.points for c in buried))
    score -= sum(20 + c.power - 100 for c in buried if c.is_trump)
    held = {c.fail_suit for c in kept if c.fail_suit is not None}
    return score + 4.0 * (3 - len(held))


def _unknown_cost(card: Card) -> tuple[int, bool, int]:
    return (card.points, card.is_trump, card.power)


def _engine_game(view: SeatView, world: World) -> Game:
    """The hand in the world as an engine ``Game``, from its deal, with the auction so
    far applied (the blind: the world's before a pick, the picker's own after)."""
    me = view.seat
    blind = world.blind or view.blind or ()
    hands = [list(h) for h in world.hands]
    hands[me] = [c for c in (*view.cards, *(view.bury or ())) if c not in blind]
    game = Game.from_deal(view.rules, view.dealer, hands, blind, view.multiplier)
    for text in view.moves:
        game = game.apply_move(parse_move(text))
    return game
