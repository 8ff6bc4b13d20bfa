"""Why the engine refuses an action: a ``Refusal``, a code with its parameters.

``refusal(game, move)`` is the one check: it backs ``Game.why_illegal`` and the
``IllegalAction`` that ``Game.apply`` raises. ``str(refusal)`` is the sentence a
player reads ("seat 3 must follow hearts", "the picker must keep a heart until hearts
are led"); that wording is part of the interface (the golden records match it byte
for byte), while the page words the code and parameters in the player's language
(``docs/api.md`` lists every code). A card's refusal comes from the rules kernel
(``kernel.play_refusal``), which also gives the legal cards.

This module sits below ``game.py``: it reads a hand's public state as a
``hand.HandState`` (which ``Game`` is) and never imports ``game.py``: no import cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sheepshead import kernel
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
from sheepshead.cards import Card, Rank, Suit
from sheepshead.hand import HandState
from sheepshead.rules import PartnerRule

_JD = Card(Rank.JACK, Suit.DIAMONDS)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is refused: a code (see ``docs/api.md``) and its parameters
    (seats and counts as numbers, cards as text, suits as a letter or "trump")."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return ENGLISH[self.code](self.params)

    def to_json(self) -> dict[str, Any]:
        """``{code, params, text}``, as the API sends it."""
        return {"code": self.code, "params": dict(self.params), "text": str(self)}


class IllegalAction(ValueError):
    """An action the rules do not allow here. ``refusal`` says why; ``reason`` is its
    sentence, for a person."""

    def __init__(self, refusal: Refusal) -> None:
        reason = str(refusal)
        super().__init__(reason)
        self.refusal = refusal
        self.reason = reason


def _who(p: Mapping[str, Any]) -> str:
    return "the picker" if p["picker"] else f"seat {p['seat']}"


def _suits(p: Mapping[str, Any]) -> str:
    """A suit parameter in the plural: "hearts", or "trump"."""
    suit = p["suit"]
    return "trump" if suit == "trump" else Suit(suit).plural


def _suit(p: Mapping[str, Any]) -> str:
    return Suit(p["suit"]).word


#: Each refusal code's English sentence, from its parameters.
ENGLISH: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "hand-over": lambda p: "the hand is over",
    "no-seat": lambda p: f"there is no seat {p['seat']} at a table of {p['players']}",
    "not-your-turn": lambda p: f"it is seat {p['turn']}'s turn, not seat {p['seat']}'s",
    "wrong-phase": lambda p: f"seat {p['seat']} must {_EXPECTED[p['phase']]} now, not {p['verb']}",
    "dealer-must-pick": lambda p: "everyone else passed: the dealer must pick",
    "bury-count": lambda p: f"the picker buries {p['size']} cards, not {p['count']}",
    "bury-not-held": lambda p: f"the picker does not hold {p['card']}",
    "bury-not-allowed": lambda p: "that bury is not allowed",
    "alone-not-allowed": lambda p: "going alone is not allowed while a partner can be called",
    "call-jd-held": lambda p: "the picker holds the jack of diamonds and cannot call it",
    "call-jd-rule": lambda p: (
        f"under the jack-of-diamonds rule the picker may {' or '.join(p['choices'])}"
    ),
    "call-held": lambda p: f"the picker holds {p['card']} and cannot call it",
    "call-ten-not-played": lambda p: "the called ten is not played under these rules",
    "call-ten-needs-aces": lambda p: (
        "a ten may be called only by a picker who holds all three fail aces"
    ),
    "call-ten-needs-ace": lambda p: (
        f"{p['card']} cannot be called: the picker must hold that suit's ace in hand"
    ),
    "call-not-ace": lambda p: f"{p['card']} cannot be called: call a fail ace, or a ten",
    "call-needs-suit": lambda p: (
        f"the picker must hold a {_suit(p)} to call {p['card']}"
        + (" (or call it with an unknown card)" if p["unknown_allowed"] else "")
    ),
    "call-not-now": lambda p: f"{p['card']} cannot be called now",
    "unknown-not-played": lambda p: "the unknown-card call is not played under these rules",
    "unknown-has-suit": lambda p: (
        f"the picker holds a {_suit(p)}: call {p['card']} without an unknown card"
    ),
    "unknown-not-held": lambda p: (
        f"the unknown card must be in the picker's hand, and {p['unknown']} is not"
    ),
    "unknown-not-now": lambda p: "an unknown card may be called only when no ace can be called",
    "partner-no-crack": lambda p: "the picker's partner may not crack",
    "name-range": lambda p: f"name a trick from 1 to {p['tricks']}, not {p['trick']}",
    "not-now": lambda p: f"seat {p['seat']} may not {p['action']} now",
    # A card's refusals, from the rules kernel.
    "not-held": lambda p: f"seat {p['seat']} does not hold {p['card']}",
    "lead-only-with": lambda p: (
        f"{_who(p)} may lead {_suits(p)} only with {p['card']} until {_suits(p)} are led"
    ),
    "must-follow": lambda p: f"{_who(p)} must follow {_suits(p)}",
    "must-play-on-first-trick": lambda p: (
        f"{_who(p)} must play {p['card']} on the first {_suit(p)} trick"
    ),
    "keep-unknown": lambda p: f"{_who(p)} must keep the unknown card until {_suits(p)} are led",
    "keep-card": lambda p: f"{_who(p)} must keep {p['card']} until {_suits(p)} are led",
    "keep-suit": lambda p: f"{_who(p)} must keep a {_suit(p)} until {_suits(p)} are led",
}

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


def refusal(game: HandState, move: Move) -> Refusal | None:
    """Why the seat may not take the action now, or None if it may: the one check."""
    seat, action = move.seat, move.action
    if game.is_done:
        return Refusal("hand-over")
    if seat != game.turn:
        if not 0 <= seat < game.players:
            return Refusal("no-seat", {"seat": seat, "players": game.players})
        return Refusal("not-your-turn", {"turn": game.turn, "seat": seat})
    phase = game.phase
    if not isinstance(action, _PHASE_ACTIONS[phase]):
        verb = str(action).split(" ", 1)[0]
        return Refusal("wrong-phase", {"seat": seat, "phase": phase.value, "verb": verb})
    if type(action) is Play:
        return play_refusal(game, seat, action.card)
    if action in game.legal_actions():
        return None
    match action:
        case Pass():
            return Refusal("dealer-must-pick")
        case Bury(cards):
            return _bury_refusal(game, seat, cards)
        case Call() | Alone():
            return _call_refusal(game, action)
        case Crack():
            return Refusal("partner-no-crack")
        case Name(trick):
            return Refusal("name-range", {"tricks": game.rules.tricks, "trick": trick})
    return Refusal("not-now", {"seat": seat, "action": str(action)})  # pragma: no cover


def play_refusal(game: HandState, seat: int, card: Card) -> Refusal | None:
    """Why the seat to act may not play ``card`` now, or None if it may: the rules
    kernel's check over the game's public state."""
    hand = kernel.mask_of(game.hands[seat])
    called = game.called
    cs = kernel.duty_suit(called)
    unk = 0 if game.unknown is None else game.unknown.bit
    led = -1
    if game.trick_cards:
        led = kernel.suit_of(game.trick_cards[0].bit, unk, cs)
    found = kernel.play_refusal(
        hand,
        card.bit,
        led,
        seat == game.picker,
        0 if called is None else called.bit,
        cs,
        unk,
        called is not None and called.rank is Rank.TEN,
        -1 if game.called_led_at is None else game.called_led_at,
        len(game.tricks),
    )
    if found is None:
        return None
    code, params = found
    return Refusal(code, {"seat": seat, "picker": seat == game.picker, **params})


def _bury_refusal(game: HandState, seat: int, cards: tuple[Card, ...]) -> Refusal:
    size = game.rules.blind_size
    if len(cards) != size:
        return Refusal("bury-count", {"size": size, "count": len(cards)})
    for card in cards:
        if card not in game.hands[seat]:
            return Refusal("bury-not-held", {"card": card.text})
    return Refusal("bury-not-allowed")


def _call_refusal(game: HandState, action: Action) -> Refusal:
    picker = game.picker
    assert picker is not None
    legal = game.legal_actions()
    if isinstance(action, Alone):
        return Refusal("alone-not-allowed")
    assert isinstance(action, Call)
    card = action.card
    rules = game.rules
    text = card.text
    if rules.partner is PartnerRule.JACK_OF_DIAMONDS:
        if card is _JD and game.holds(picker, _JD):
            return Refusal("call-jd-held")
        return Refusal("call-jd-rule", {"choices": [str(a) for a in legal]})
    if game.holds(picker, card):
        return Refusal("call-held", {"card": text})
    if card.rank is Rank.TEN and not card.is_trump:
        if not rules.call_ten:
            return Refusal("call-ten-not-played")
        if not any(isinstance(a, Call) and a.card.rank is Rank.TEN for a in legal):
            return Refusal("call-ten-needs-aces")
        return Refusal("call-ten-needs-ace", {"card": text})
    if card.rank is not Rank.ACE or card.is_trump:
        return Refusal("call-not-ace", {"card": text})
    suit = card.suit.value
    has_suit = any(c.fail_suit is card.suit for c in game.hands[picker])
    if action.unknown is None:
        if not has_suit:
            unknown_allowed = any(isinstance(a, Call) and a.unknown is not None for a in legal)
            return Refusal(
                "call-needs-suit", {"card": text, "suit": suit, "unknown_allowed": unknown_allowed}
            )
        return Refusal("call-not-now", {"card": text})
    if not rules.call_unknown:
        return Refusal("unknown-not-played")
    if has_suit:
        return Refusal("unknown-has-suit", {"card": text, "suit": suit})
    if action.unknown not in game.hands[picker]:
        return Refusal("unknown-not-held", {"unknown": action.unknown.text})
    return Refusal("unknown-not-now")
