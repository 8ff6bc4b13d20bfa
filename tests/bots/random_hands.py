"""Random hands for the bots' property tests (test_sim.py, test_expert.py,
test_sampler.py): random rules on top of a preset, a random deal that often gives the
calls with duties their chance, random bidding, and a random point in the play."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheepshead.actions import PASS, PICK, Bury, Call, Play
from sheepshead.cards import DECK, parse_cards
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import PRESETS, LeasterBlind, NobodyPicks, Rules, RulesError

# Options that change play or scoring, tried on top of each preset.
OPTIONS: dict[str, list[Any]] = {
    "cracking": [False, True],
    "nobody_picks": list(NobodyPicks),
    "leaster_blind": list(LeasterBlind),
    "leaster_needs_trick": [True, False],
    "double_on_the_bump": [True, False],
    "forced_pick_bump": [True, False],
    "second_partner": [False, True],
    "jd_picker_holds": ["alone", "call-jack-of-hearts"],
    "call_unknown": [True, False],
    "call_ten": [True, False],
}


Test = Callable[..., None]


def per_preset(
    max_examples: int, presets: Sequence[str] = tuple(sorted(PRESETS))
) -> Callable[[Test], Test]:
    """Run a property test `(preset, rnd)` under each preset, on `max_examples`
    seeded `random.Random`s each."""

    def wrap(test: Test) -> Test:
        test = given(rnd=st.randoms(use_true_random=False))(test)
        test = settings(max_examples=max_examples, deadline=None)(test)
        return pytest.mark.parametrize("preset", presets)(test)

    return wrap


def random_rules(preset: str, rnd: random.Random) -> Rules:
    rules = PRESETS[preset]
    for name, values in OPTIONS.items():
        if rnd.random() < 0.3:
            with contextlib.suppress(RulesError):  # an option this head count lacks
                rules = rules.replace(**{name: rnd.choice(values)})
    return rules


def deal(rules: Rules, rnd: random.Random) -> Game:
    """A random deal; a third of the time the first seat to speak gets the three fail
    aces, and a quarter of the time only trumps, so that ten calls (which need the
    aces) and unknown calls (which need no callable ace) come up often enough."""
    n, k = rules.players, rules.cards_per_seat
    deck = list(DECK)
    rnd.shuffle(deck)
    dealer = rnd.randrange(n)
    first = (dealer + 1) % n
    if rnd.random() < 0.33:
        for i, ace in enumerate(parse_cards("AC AS AH")):
            j, target = deck.index(ace), first * k + i
            deck[j], deck[target] = deck[target], deck[j]
    elif rnd.random() < 0.25:
        trumps = [c for c in deck if c.is_trump][:k]
        rest = [c for c in deck if c not in trumps]
        deck = rest[: first * k] + trumps + rest[first * k :]
    hands = [deck[s * k : (s + 1) * k] for s in range(n)]
    return Game.from_deal(rules, dealer, hands, deck[n * k :])


def _fail_count(bury: Bury) -> int:
    return sum(not c.is_trump for c in bury.cards)


def to_play(game: Game, rnd: random.Random) -> Game:
    """Random bidding, bury and call, favouring the calls with duties (ten, unknown)
    and, now and then, a leaster."""
    leaster = rnd.random() < 0.2
    while game.phase is not Phase.PLAYING and not game.is_done:
        legal = game.legal_actions()
        rare = [a for a in legal if isinstance(a, Call) and a.card.rank.value == "T"]
        rare += [a for a in legal if isinstance(a, Call) and a.unknown is not None]
        if rare and rnd.random() < 0.8:
            game = game.apply(rnd.choice(rare))
        elif PICK in legal and (PASS not in legal or (rnd.random() < 0.5 and not leaster)):
            game = game.apply(PICK)
        elif PASS in legal:
            game = game.apply(PASS)
        elif isinstance(legal[0], Bury) and rnd.random() < 0.5:
            # Bury fail cards: a hand of trump and aces is what an unknown call needs.
            buries = [a for a in legal if isinstance(a, Bury)]
            most = max(map(_fail_count, buries))
            game = game.apply(rnd.choice([b for b in buries if _fail_count(b) == most]))
        else:
            game = game.apply(rnd.choice(legal))
    return game


def random_position(preset: str, rnd: random.Random) -> Game | None:
    """A hand under `preset` with random options, bid, buried and called at random,
    then played at random for a random number of cards; None if it has no play (a
    doubler)."""
    rules = random_rules(preset, rnd)
    game = to_play(deal(rules, rnd), rnd)
    if game.is_done:
        return None
    for _ in range(rnd.randrange(rules.tricks * rules.players)):
        game = game.apply(Play(rnd.choice(game.legal_cards())))
    return game
