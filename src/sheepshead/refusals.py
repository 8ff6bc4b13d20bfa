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

from collections.abc import Mapping

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
from sheepshead.phrases import ENGINE_REFUSALS
from sheepshead.phrases import english as phrase
from sheepshead.rules import PartnerRule
from sheepshead.values import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any

_JD = Card(Rank.JACK, Suit.DIAMONDS)


class Refusal(Value):
    """Why an action is refused: a code (see ``docs/api.md``) and its parameters
    (seats and counts as numbers, cards as text, suits as a letter or "trump")."""

    __slots__ = __match_args__ = ("code", "params")
    code: str
    params: Mapping[str, Any]

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        object.__setattr__(self, "code", code)
        # A fresh dict for each refusal without parameters (as a default factory gives).
        object.__setattr__(self, "params", {} if params is None else params)

    def __str__(self) -> str:
        return english(self.code, self.params)

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


def english(code: str, p: Mapping[str, Any]) -> str:
    """A refusal's sentence (``phrases.ENGINE_REFUSALS``) from its code and params."""
    variant = "server-unknown-allowed" if p.get("unknown_allowed") else "server"
    words: dict[str, Any] = {**p}
    if "picker" in p:
        words["who"] = "the picker" if p["picker"] else f"seat {p['seat']}"
    if "suit" in p:
        suit = p["suit"]
        words["suits"] = "trump" if suit == "trump" else Suit(suit).plural
        words["suit"] = suit if suit == "trump" else Suit(suit).word
    if "phase" in p:
        words["expected"] = _EXPECTED[p["phase"]]
    if "choices" in p:
        words["choices"] = " or ".join(p["choices"])
    return phrase(ENGINE_REFUSALS[code][variant], words)


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
