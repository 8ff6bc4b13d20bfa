"""Why the engine refuses an action, in one sentence a player can read.

``why_illegal(game, move)`` backs ``Game.why_illegal`` (and so the reason that
``Game.apply`` raises): "seat 3 must follow hearts", "the picker must keep a heart
until hearts are led". The wording is part of the interface: the golden records,
the rules table and the browser's ``words.js`` patterns match it byte for byte.

This module sits below ``game.py``: it reads a ``Game``'s public state and two of
its helpers (``_follows_as``, ``_duty_card``) but never imports it at run time, so
there is no import cycle; ``Game`` is named here for type checking only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from sheepshead.cards import Card, Rank, Suit, ace_of
from sheepshead.rules import PartnerRule

if TYPE_CHECKING:
    from sheepshead.game import Game

_JD = Card(Rank.JACK, Suit.DIAMONDS)

#: What the seat to act must do in each phase, and the actions that phase takes.
#: Keyed by the ``Phase`` values: ``Phase`` is a StrEnum, so ``game.phase`` looks them up.
_EXPECTED: dict[str, str] = {
    "picking": "pick or pass",
    "burying": "bury",
    "calling": "call a card or go alone",
    "cracking": "crack or not",
    "naming": "name the trick that takes the blind",
    "playing": "play a card",
}
_PHASE_ACTIONS: dict[str, tuple[type[Action], ...]] = {
    "picking": (Pick, Pass),
    "burying": (Bury,),
    "calling": (Call, Alone),
    "cracking": (Crack, NoCrack),
    "naming": (Name,),
    "playing": (Play,),
}


def _suit_word(suit: Suit | None) -> str:
    return "trump" if suit is None else suit.plural


def why_illegal(game: Game, move: Move) -> str | None:
    """Why the seat may not take the action now, or None if it may."""
    seat, action = move.seat, move.action
    if game.is_done:
        return "the hand is over"
    if seat != game.turn:
        if not 0 <= seat < game.players:
            return f"there is no seat {seat} at a table of {game.players}"
        return f"it is seat {game.turn}'s turn, not seat {seat}'s"
    if action in game.legal_actions():
        return None
    return _reason(game, seat, action)


def _reason(game: Game, seat: int, action: Action) -> str:
    phase = game.phase
    verb = str(action).split(" ", 1)[0]
    if not isinstance(action, _PHASE_ACTIONS[phase]):
        return f"seat {seat} must {_EXPECTED[phase]} now, not {verb}"
    match action:
        case Pass():
            return "everyone else passed: the dealer must pick"
        case Bury(cards):
            return _bury_reason(game, seat, cards)
        case Call() | Alone():
            return _call_reason(game, action)
        case Crack():
            return "the picker's partner may not crack"
        case Name(trick):
            return f"name a trick from 1 to {game.rules.tricks}, not {trick}"
        case Play(card):
            return _play_reason(game, seat, card)
    return f"seat {seat} may not {action} now"


def _bury_reason(game: Game, seat: int, cards: tuple[Card, ...]) -> str:
    size = game.rules.blind_size
    if len(cards) != size:
        return f"the picker buries {size} cards, not {len(cards)}"
    for card in cards:
        if card not in game.hands[seat]:
            return f"the picker does not hold {card}"
    return "that bury is not allowed"


def _call_reason(game: Game, action: Action) -> str:
    picker = game.picker
    assert picker is not None
    legal = game.legal_actions()
    if isinstance(action, Alone):
        return "going alone is not allowed while a partner can be called"
    assert isinstance(action, Call)
    card = action.card
    rules = game.rules
    if rules.partner is PartnerRule.JACK_OF_DIAMONDS:
        if card is _JD and game.holds(picker, _JD):
            return "the picker holds the jack of diamonds and cannot call it"
        return f"under the jack-of-diamonds rule the picker may {' or '.join(map(str, legal))}"
    if game.holds(picker, card):
        return f"the picker holds {card} and cannot call it"
    if card.rank is Rank.TEN and not card.is_trump:
        if not rules.call_ten:
            return "the called ten is not played under these rules"
        if not any(isinstance(a, Call) and a.card.rank is Rank.TEN for a in legal):
            return "a ten may be called only by a picker who holds all three fail aces"
        return f"{card} cannot be called: the picker must hold that suit's ace in hand"
    if card.rank is not Rank.ACE or card.is_trump:
        return f"{card} cannot be called: call a fail ace, or a ten"
    has_suit = any(c.fail_suit is card.suit for c in game.hands[picker])
    if action.unknown is None:
        if not has_suit:
            return f"the picker must hold a {card.suit.word} to call {card}" + (
                " (or call it with an unknown card)"
                if any(isinstance(a, Call) and a.unknown is not None for a in legal)
                else ""
            )
        return f"{card} cannot be called now"
    if not rules.call_unknown:
        return "the unknown-card call is not played under these rules"
    if has_suit:
        return f"the picker holds a {card.suit.word}: call {card} without an unknown card"
    if action.unknown not in game.hands[picker]:
        return f"the unknown card must be in the picker's hand, and {action.unknown} is not"
    return "an unknown card may be called only when no ace can be called"


def _play_reason(game: Game, seat: int, card: Card) -> str:
    hand = game.hands[seat]
    if card not in hand:
        return f"seat {seat} does not hold {card}"
    suit = game.called_suit
    who = "the picker" if seat == game.picker else f"seat {seat}"
    if not game.trick_cards:
        called = game.called
        assert suit is not None and called is not None
        keep = called if called in hand else ace_of(suit)
        return f"{who} may lead {suit.plural} only with {keep} until {suit.plural} are led"
    led = game._follows_as(game.trick_leader, game.trick_cards[0])
    if game._follows_as(seat, card) is not led and any(
        game._follows_as(seat, c) is led for c in hand
    ):
        return f"{who} must follow {_suit_word(led)}"
    legal = game.legal_cards()
    if len(legal) == 1 and legal[0] is not card and led is suit:
        assert suit is not None
        what = "the unknown card" if legal[0] is game.unknown else str(legal[0])
        return f"{who} must play {what} on the first {suit.word} trick"
    duty = game._duty_card(seat)
    assert suit is not None
    if duty is game.unknown:
        return f"{who} must keep the unknown card until {suit.plural} are led"
    if duty is game.called or (game.called is not None and game.called.rank is Rank.TEN):
        return f"{who} must keep {duty} until {suit.plural} are led"
    return f"{who} must keep a {suit.word} until {suit.plural} are led"
