"""Property tests over random deals and random legal play, for every preset and the
options that change the flow of a hand (cracking, each nobody-picks rule, each leaster
blind). At every step of every hand:

- every card is in exactly one place, and the card points add up to 120;
- each seat's view holds its own cards and nothing hidden from it;
- every legal action is accepted, every other action tried is refused with a reason,
  and ``why_illegal`` is None exactly for the legal ones.

At the end: the scores sum to zero and the record replays to the same hand.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheepshead.actions import (
    Action,
    Alone,
    Bury,
    Call,
    Crack,
    Move,
    Name,
    NoCrack,
    Pass,
    Pick,
    Play,
)
from sheepshead.cards import DECK, FAIL_SUITS, TRUMPS, Card, Rank, Suit, card_points
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.record import dumps, loads, replay, to_record
from sheepshead.refusals import IllegalAction
from sheepshead.rules import PRESETS, JdPickerHolds, LeasterBlind, PartnerRule, Rules
from sheepshead.view import FACE_DOWN

CONFIGS: dict[str, Rules] = {
    **PRESETS,
    "cracking": Rules(cracking=True),
    "forced-pick": Rules(nobody_picks="forced-pick", forced_pick_bump=False),  # type: ignore[arg-type]
    "doubler": Rules(nobody_picks="doubler"),  # type: ignore[arg-type]
    "leaster-named": Rules(leaster_blind="named-trick", leaster_needs_trick=False),  # type: ignore[arg-type]
    "leaster-aside": Rules(players=4, leaster_blind="aside"),  # type: ignore[arg-type]
    "no-alone-no-unknown": Rules(alone=False, call_unknown=False, call_ten=False),
    "jack-of-hearts": Rules(partner="jack-of-diamonds", jd_picker_holds="call-jack-of-hearts"),  # type: ignore[arg-type]
    "six-second-partner": Rules(players=6, second_partner=True, cracking=True),
}

CARD_TEXT = re.compile(r"\b[789TJQKA][CSHD]\b")
ACES_TENS_JACKS = [
    Card.parse(t) for t in ["AC", "AS", "AH", "AD", "TC", "TS", "TH", "TD", "JD", "JH"]
]


def places(game: Game) -> list[Card]:
    """Every card where it is now: hands, bury, tricks, the trick being played, and the
    blind while nobody has taken it."""
    cards = [c for hand in game.hands for c in hand]
    cards += [c for trick in game.tricks for c in trick.cards] + list(game.trick_cards)
    cards += list(game.bury) if game.picker is not None else list(game.blind)
    return cards


def action_cards(action: Action) -> tuple[Card, ...]:
    match action:
        case Call(card, unknown):
            return (card,) if unknown is None else (card, unknown)
        case Bury(cards):
            return cards
        case Play(card):
            return (card,)
    return ()


def check_cards(game: Game) -> None:
    where = places(game)
    assert Counter(where) == Counter(DECK), "every card in exactly one place"
    assert card_points(where) == 120


def check_views(game: Game) -> None:
    done = game.phase is Phase.DONE
    played = {c for t in game.tricks for c in t.cards} | set(game.trick_cards)
    for seat in range(game.players):
        view = game.view(seat)
        assert set(view.cards) == set(game.hands[seat])
        assert len(view.cards) == len(game.hands[seat])
        is_picker = seat == game.picker
        if done:
            continue
        assert view.result is None
        if not is_picker:
            assert view.blind is None
            assert view.bury is None
            assert view.unknown is None
        visible = set(game.hands[seat]) | played
        if game.called is not None:
            visible.add(game.called)
        if is_picker:
            visible |= set(game.blind) | set(game.bury)
        elif game.unknown is not None:
            visible.discard(game.unknown)
            unknown_out = game.unknown in played
            assert FACE_DOWN in view.canonical_text() or not unknown_out
        if game.turn == seat:  # a call names a card the caller does not hold
            visible |= {c for a in game.legal_actions() for c in action_cards(a)}
        shown = {Card.parse(t) for t in CARD_TEXT.findall(view.canonical_text())}
        leaked = shown - visible
        assert not leaked, f"seat {seat} sees {sorted(c.text for c in leaked)}"
        assert view.legal == (game.legal_actions() if game.turn == seat else ())


def other_actions(game: Game) -> list[Action]:
    """Actions to try, legal or not, for the seat to act: every simple verb, all 32 plays,
    names out of range, calls of aces, tens and jacks with and without unknown cards in
    and out of hand, and buries of the wrong size or of cards not held."""
    seat = game.turn
    assert seat is not None
    hand = list(game.hands[seat])
    away = [c for c in DECK if c not in hand]
    actions: list[Action] = [Pick(), Pass(), Alone(), Crack(), NoCrack()]
    actions += [Play(c) for c in DECK]
    actions += [Name(t) for t in range(0, game.rules.tricks + 2)]
    for card in ACES_TENS_JACKS:
        actions += [Call(card), Call(card, away[0])]
        actions += [Call(card, c) for c in hand[:2]]
    size = game.rules.blind_size
    actions += [Bury(tuple(hand[:size])), Bury(tuple(away[:size]))]
    actions += [Bury(tuple(hand[: size - 1])), Bury(tuple(hand[: size + 1]))]
    actions.append(Bury((*hand[: size - 1], away[0])))
    return actions


def check_actions(game: Game, data: st.DataObject) -> None:
    seat = game.turn
    assert seat is not None
    legal = game.legal_actions()
    assert legal, "the seat to act always has a legal action"
    assert list(legal) == sorted(legal, key=str)
    assert len(set(legal)) == len(legal)
    sample = list(legal)
    if game.phase is Phase.BURYING:  # apply a sample; each is a bury of the picker's cards
        assert all(set(a.cards) <= set(game.hands[seat]) for a in sample)  # type: ignore[union-attr]
        expected = len(list(combinations(game.hands[seat], game.rules.blind_size)))
        assert len(sample) == expected
        sample = [sample[0], sample[-1], data.draw(st.sampled_from(sample))]
    for action in sample:
        assert game.why_illegal(Move(seat, action)) is None
        assert game.apply(action).moves[-1] == Move(seat, action)
    for action in other_actions(game):
        why = game.why_illegal(Move(seat, action))
        if action in legal:
            assert why is None
            continue
        assert why, f"{action} refused without a reason"
        with pytest.raises(IllegalAction) as caught:
            game.apply(action)
        assert caught.value.reason == why
    other = (seat + 1) % game.players
    assert (
        game.why_illegal(Move(other, legal[0])) == f"it is seat {seat}'s turn, not seat {other}'s"
    )


# A second reading of rules.md, written apart from the engine, to compare against it ----


def ref_as_suit(game: Game, seat: int, card: Card) -> Suit | None:
    """The suit a card follows as (None: trump); the picker's unknown is of the called suit."""
    if game.unknown is not None and card is game.unknown and seat == game.picker:
        assert game.called is not None
        return game.called.suit
    return None if card.is_trump else card.suit


def ref_led_before(game: Game, suit: Suit) -> bool:
    return any(ref_as_suit(game, t.leader, t.cards[0]) is suit for t in game.tricks)


def ref_legal_cards(game: Game) -> set[Card]:
    seat = game.turn
    assert seat is not None
    hand = set(game.hands[seat])
    if len(hand) == 1:
        return hand
    called = game.called
    suit = None if called is None or called.is_trump else called.suit
    is_picker = seat == game.picker
    ten_call = called is not None and called.rank is Rank.TEN
    first_card = game.trick_cards[0] if game.trick_cards else None
    led = None if first_card is None else ref_as_suit(game, game.trick_leader, first_card)
    open_suit = suit is not None and not ref_led_before(game, suit)
    duty: set[Card] = set()
    if open_suit and (first_card is None or led is not suit):
        assert suit is not None
        assert called is not None
        if called in hand:
            duty = {called}
        elif is_picker and game.unknown is not None:
            duty = {game.unknown}
        elif is_picker and ten_call:
            duty = {Card(Rank.ACE, suit)}
        elif is_picker:
            holding = {c for c in hand if ref_as_suit(game, seat, c) is suit}
            duty = holding if len(holding) == 1 else set()
    if first_card is None:
        if open_suit and called is not None:
            own = {c for c in hand if ref_as_suit(game, seat, c) is suit}
            if called in hand:
                return hand - (own - {called})
            if is_picker and ten_call:
                return hand - (own - {Card(Rank.ACE, suit)})  # type: ignore[arg-type]
        return hand
    follow = {c for c in hand if ref_as_suit(game, seat, c) is led}
    if follow:
        if open_suit and led is suit:
            if called in follow:
                return {called}
            assert suit is not None
            ace = Card(Rank.ACE, suit)
            if is_picker and ten_call and ace in follow:
                return {ace}
        return follow
    return hand - duty


def ref_winner(game: Game, leader: int, cards: tuple[Card, ...]) -> int:
    n = game.players
    seats = [(leader + i) % n for i in range(len(cards))]
    led = ref_as_suit(game, leader, cards[0])
    best, strength = None, -1
    for seat, card in zip(seats, cards, strict=True):
        if card is game.unknown and seat == game.picker:
            continue  # the unknown never wins
        if card.is_trump:
            power = 200 - TRUMPS.index(card)
        elif card.suit is led:
            power = 100 - "AT K987".replace(" ", "").index(card.rank.value)
        else:
            continue
        if power > strength:
            best, strength = seat, power
    assert best is not None
    return best


def ref_calls(game: Game) -> set[str]:
    picker = game.picker
    assert picker is not None
    rules = game.rules
    hand = set(game.hands[picker])
    held = hand | set(game.bury)
    calls: set[str] = set()
    if rules.partner is PartnerRule.JACK_OF_DIAMONDS:
        jd, jh = Card.parse("JD"), Card.parse("JH")
        if jd not in held:
            calls.add("call JD")
        elif rules.jd_picker_holds is JdPickerHolds.CALL_JACK_OF_HEARTS and jh not in held:
            calls.add("call JH")
        return calls | {"alone"} if rules.alone or not calls else calls
    aces = {s: Card(Rank.ACE, s) for s in FAIL_SUITS}
    has = {s: any(c.suit is s and not c.is_trump for c in hand) for s in FAIL_SUITS}
    calls = {f"call {aces[s]}" for s in FAIL_SUITS if has[s] and aces[s] not in held}
    all_aces = all(a in held for a in aces.values())
    if not calls and all_aces and rules.call_ten:
        calls = {
            f"call T{s.value}"
            for s in FAIL_SUITS
            if Card(Rank.TEN, s) not in held and aces[s] in hand
        }
    elif not calls and not all_aces and rules.call_unknown:
        calls = {
            f"call {aces[s]} unknown {c}"
            for s in FAIL_SUITS
            if not has[s] and aces[s] not in held
            for c in hand
        }
    return calls | {"alone"} if rules.alone or not calls else calls


def check_against_reference(game: Game) -> None:
    if game.phase is Phase.PLAYING:
        assert set(game.legal_cards()) == ref_legal_cards(game)
    if game.phase is Phase.CALLING:
        assert {str(a) for a in game.legal_actions()} == ref_calls(game)
    for trick in game.tricks:
        assert trick.winner == ref_winner(game, trick.leader, trick.cards)


def ref_scores(game: Game) -> tuple[int, ...]:
    """The score table of rules.md, read again."""
    n, rules = game.players, game.rules
    if game.picker is None and not game.tricks:
        return (0,) * n
    if game.picker is None:
        points, took = [0] * n, [0] * n
        for trick in game.tricks:
            points[trick.winner] += trick.points
            took[trick.winner] += 1
        if rules.leaster_blind is LeasterBlind.LAST_TRICK:
            points[game.tricks[-1].winner] += card_points(game.blind)
        elif rules.leaster_blind is LeasterBlind.NAMED_TRICK:
            assert game.named_trick is not None
            points[game.tricks[game.named_trick - 1].winner] += card_points(game.blind)
        able = [s for s in range(n) if took[s] or not rules.leaster_needs_trick]
        winners = {s for s in able if points[s] == min(points[a] for a in able)}
        if len(winners) == n:
            return (0,) * n
        m = game.multiplier
        return tuple(
            m * (n - len(winners)) if s in winners else -m * len(winners) for s in range(n)
        )
    side = game.partners | {game.picker}
    won = [t for t in game.tricks if t.winner in side]
    side_points = sum(t.points for t in won) + card_points(game.bury)
    if len(won) == rules.tricks:
        win, m = True, 3
    elif not won:
        win, m = False, 3
    else:
        win = side_points >= 61
        m = 2 if side_points >= 91 or side_points <= 30 else 1
    m *= game.multiplier * 2 ** len(game.cracks)
    forced = rules.nobody_picks.value == "forced-pick" and game.picker == game.dealer
    if not win and rules.double_on_the_bump and not (forced and not rules.forced_pick_bump):
        m *= 2
    sign = 1 if win else -1
    scores = [sign * m if s in game.partners else -sign * m for s in range(n)]
    scores[game.picker] = 0
    scores[game.picker] = -sum(scores)
    return tuple(scores)


def check_result(game: Game) -> None:
    result = game.result()
    assert result is not None
    assert sum(result.scores) == 0
    assert result.scores == ref_scores(game)
    if result.points is None:
        assert result.result.value == "doubler"
        assert result.tricks == ()
        assert all(s == 0 for s in result.scores)
    elif result.picker is None:
        aside = game.rules.leaster_blind is LeasterBlind.ASIDE
        assert sum(result.points) == 120 - (card_points(game.blind) if aside else 0)
    else:
        assert sum(result.points) == 120
        assert len(result.tricks) == game.rules.tricks
        assert result.alone == (not result.partners)
    for seat in range(game.players):
        assert game.view(seat).result == result
    again = replay(json.loads(dumps(game)))
    assert again.moves == game.moves
    assert again.result() == result
    assert to_record(again) == to_record(game)


def play_hand(rules: Rules, data: st.DataObject) -> Game:
    seed = data.draw(st.binary(min_size=1, max_size=8), label="seed")
    dealer = data.draw(st.integers(0, rules.players - 1), label="dealer")
    multiplier = data.draw(st.sampled_from([1, 1, 2]), label="multiplier")
    passing = data.draw(st.booleans(), label="everyone passes")
    game = Game.deal(rules, dealer, seed, multiplier)
    assert sum(map(len, game.hands)) + len(game.blind) == 32
    cut = data.draw(st.integers(0, 60), label="replay check at")
    while not game.is_done:
        check_cards(game)
        check_views(game)
        check_actions(game, data)
        check_against_reference(game)
        legal = game.legal_actions()
        if passing and Pass() in legal:
            action: Action = Pass()
        else:
            action = data.draw(st.sampled_from(legal), label="action")
        game = game.apply(action)
        if len(game.moves) == cut:
            assert loads(dumps(game)).moves == game.moves
    check_cards(game)
    check_views(game)
    assert game.legal_actions() == ()
    assert game.turn is None
    assert game.why_illegal(Move(0, Pass())) == "the hand is over"
    check_result(game)
    return game


@pytest.mark.parametrize("name", list(CONFIGS))
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_random_hands_keep_every_invariant(name: str, data: st.DataObject) -> None:
    play_hand(CONFIGS[name], data)
