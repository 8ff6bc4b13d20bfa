"""The hand before its play: picking, burying, calling, cracking and naming.

For ``Game``: each phase's legal actions (sorted by text, as records list them) and
what a legal action changes in the state (``apply`` gives the new values of the
state's fields; ``Game.apply`` makes the new state). Cards are read as the rules
kernel's masks (``kernel.py``): a call's rules ask which aces, tens and suits the
picker holds.
"""

from __future__ import annotations

from itertools import combinations, repeat
from operator import is_

from sheepshead import kernel
from sheepshead.actions import (
    ALONE,
    CRACK,
    NOCRACK,
    PASS,
    PICK,
    Action,
    Alone,
    Bury,
    Call,
    Crack,
    Name,
    NoCrack,
    Pass,
    Pick,
)
from sheepshead.cards import FAIL_SUITS, Card, Rank, Suit, ace_of, ten_of
from sheepshead.cardsets import BY_TEXT, cards_of
from sheepshead.hand import Phase
from sheepshead.rules import JdPickerHolds, LeasterBlind, NobodyPicks, PartnerRule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from sheepshead.hand import HandState


_JD = Card(Rank.JACK, Suit.DIAMONDS)
_JH = Card(Rank.JACK, Suit.HEARTS)
#: The fail suits in the text order of their cards (C, H, S), with their kernel keys:
#: calls listed in this order come out sorted by text.
_BY_TEXT: tuple[tuple[int, Card, Card], ...] = tuple(
    (kernel.SUIT_KEY[s], ace_of(s), ten_of(s)) for s in sorted(FAIL_SUITS, key=lambda s: s.value)
)
_FORCED = (PICK,)
_PICK_OR_PASS = (PASS, PICK)
_PARTNER = (NOCRACK,)
_CRACK_OR_NOT = (CRACK, NOCRACK)
_new = object.__new__
# Enum members as plain names: a member read from its class costs a class lookup.
_PICKING, _BURYING, _CALLING = Phase.PICKING, Phase.BURYING, Phase.CALLING
_CRACKING, _NAMING, _PLAYING, _DONE = Phase.CRACKING, Phase.NAMING, Phase.PLAYING, Phase.DONE
_FORCED_PICK, _DOUBLER = NobodyPicks.FORCED_PICK, NobodyPicks.DOUBLER
_NO_PARTNER, _JACK_OF_DIAMONDS = PartnerRule.NONE, PartnerRule.JACK_OF_DIAMONDS
_set_cards = Bury.__dict__["cards"].__set__  # the slot, as Bury.of_sorted sets it


#: The fields of ``game.Game``'s state before the play, at the deal, but those of the deal
#: itself (``game._start`` fills them): what ``apply`` changes.
AT_DEAL: dict[str, Any] = {
    "rules": None,
    "players": 0,
    "dealer": 0,
    "multiplier": 1,
    "dealt": (),
    "blind": (),
    "phase": _PICKING,
    "turn": 0,
    "is_done": False,
    "picker": None,
    "bury": (),
    "called": None,
    "unknown": None,
    "alone": False,
    "partners": frozenset(),
    "cracks": (),
    "named_trick": None,
    "tricks": (),
    "trick_leader": 0,
    "trick_cards": (),
    "called_suit": None,
    "called_led_at": None,
    "_legal": None,
    "card_masks": 0,
    "_hands": None,
    "_log": None,
    "_moves": None,
    "_ntricks": 0,
    "_called": 0,
    "_cs": kernel.NO_SUIT,
    "_unk": 0,
    "_ten": False,
}


def legal(game: HandState) -> tuple[Action, ...]:
    """The legal actions of the seat to act, in a phase before the play; () when done."""
    phase = game.phase
    if phase is _PICKING:
        if game.turn == game.dealer and game.rules.nobody_picks is _FORCED_PICK:
            return _FORCED
        return _PICK_OR_PASS
    if phase is _BURYING:
        assert game.picker is not None
        return _buries(cards_of(game.mask_of_seat(game.picker)), game.rules.blind_size)
    if phase is _CALLING:
        return tuple(_calls(game))
    if phase is _CRACKING:
        return _PARTNER if game.turn in game.partners else _CRACK_OR_NOT
    if phase is _NAMING:
        return tuple(sorted((Name(t) for t in range(1, game.rules.tricks + 1)), key=str))
    return ()


def _buries(cards: tuple[Card, ...], size: int) -> tuple[Action, ...]:
    """Every bury of ``size`` of the text-sorted ``cards``: combinations of sorted
    cards come out in the text order of their records."""
    if size == 2:
        return tuple(map(_TWO_CARD_BURIES.__getitem__, combinations(cards, 2)))
    combos = list(combinations(cards, size))
    buries = list(map(_new, repeat(Bury, len(combos))))
    for bury, combo in zip(buries, combos, strict=True):
        _set_cards(bury, combo)
    return tuple(buries)


def _bury_of(cards: tuple[Card, ...]) -> Bury:
    bury = _new(Bury)
    _set_cards(bury, cards)
    return bury


#: Every bury of two cards (the blind of 3, 5 and 6 players), by its cards in text
#: order: the same values as ``Bury.of_sorted`` makes, made once, as ``PLAYS`` is.
_TWO_CARD_BURIES: dict[tuple[Card, ...], Bury] = {
    pair: _bury_of(pair) for pair in combinations(BY_TEXT, 2)
}


def _calls(game: HandState) -> list[Action]:
    """The picker's legal calls, in text order ("alone" first)."""
    picker = game.picker
    assert picker is not None
    rules = game.rules
    hand = game.mask_of_seat(picker)
    held = hand | kernel.mask_of(game.bury)
    calls: list[Action] = []
    if rules.partner is _JACK_OF_DIAMONDS:
        if not held & _JD.bit:
            calls.append(Call(_JD))
        elif rules.jd_picker_holds is JdPickerHolds.CALL_JACK_OF_HEARTS and not held & _JH.bit:
            calls.append(Call(_JH))
        else:
            return [ALONE]
    else:
        calls = _ace_calls(game, picker, hand, held)
    if rules.alone or not calls:
        calls.insert(0, ALONE)
    return calls


def _ace_calls(game: HandState, picker: int, hand: int, held: int) -> list[Action]:
    """A called-ace table's calls: an ace of a suit the picker holds without its ace;
    else, with every ace held, a ten whose ace is in hand; else an unknown call."""
    suits = kernel.SUIT_MASK
    calls: list[Action] = [
        Call(ace) for key, ace, _ in _BY_TEXT if not held & ace.bit and hand & suits[key]
    ]
    if calls:
        return calls
    if all(held & ace.bit for _, ace, _ in _BY_TEXT):
        if game.rules.call_ten:
            calls = [Call(ten) for _, ace, ten in _BY_TEXT if not held & ten.bit and hand & ace.bit]
    elif game.rules.call_unknown:
        cards = game.hands[picker]
        for key, ace, _ in _BY_TEXT:
            if not held & ace.bit and not hand & suits[key]:
                calls.extend(Call(ace, card) for card in cards)
    return calls


def allows(legal: tuple[Action, ...], action: Action) -> bool:
    """Whether ``action`` is one of ``legal``: by identity first (the actions a caller
    took from ``legal_actions``), then by value."""
    return any(map(is_, legal, repeat(action))) or action in legal


def apply(game: HandState, seat: int, action: Action) -> dict[str, Any]:
    """The fields a legal action of ``seat`` changes, with their new values."""
    return _APPLY[type(action)](game, seat, action)


def _pick(game: HandState, seat: int, action: Any) -> dict[str, Any]:
    changes = _holding(game, seat, game.mask_of_seat(seat) | kernel.mask_of(game.blind))
    changes["picker"] = seat
    changes["phase"] = _BURYING
    return changes


def _bury(game: HandState, seat: int, action: Any) -> dict[str, Any]:
    cards = action.cards
    changes = _holding(game, seat, game.mask_of_seat(seat) & ~kernel.mask_of(cards))
    changes["bury"] = cards
    if game.rules.partner is _NO_PARTNER:
        changes.update(_after_call(game, alone=True))
    else:
        changes["phase"] = _CALLING
    return changes


def _alone(game: HandState, seat: int, action: Any) -> dict[str, Any]:
    return _after_call(game, alone=True)


def _name(game: HandState, seat: int, action: Any) -> dict[str, Any]:
    return {"named_trick": action.trick, "phase": _PLAYING, "turn": _first(game)}


def _first(game: HandState) -> int:
    return (game.dealer + 1) % game.players


def _holding(game: HandState, seat: int, mask: int) -> dict[str, Any]:
    """The state's fields for the seat's cards now being ``mask``."""
    shift = seat << 5
    masks = game.card_masks & ~(kernel.FULL << shift) | mask << shift
    return {"card_masks": masks, "turn": seat}


def _pass(game: HandState, seat: int, action: Any) -> dict[str, Any]:
    if seat != game.dealer:
        return {"turn": (seat + 1) % game.players}
    if game.rules.nobody_picks is _DOUBLER:
        return {"phase": _DONE, "turn": None, "is_done": True}
    if game.rules.leaster_blind is LeasterBlind.NAMED_TRICK:
        return {"phase": _NAMING, "turn": game.dealer}
    return {"phase": _PLAYING, "turn": _first(game)}


def _call(game: HandState, seat: int, action: Any) -> dict[str, Any]:
    card = action.card
    holder = next(s for s in range(game.players) if game.mask_of_seat(s) & card.bit)
    assert holder != seat
    partners = {holder}
    if game.rules.second_partner:
        partners.add((seat - 1) % game.players)
    unknown = action.unknown
    return {
        "called": card,
        "unknown": unknown,
        "called_suit": card.fail_suit,
        "partners": frozenset(partners),
        "_called": card.bit,
        "_cs": kernel.duty_suit(card),
        "_unk": 0 if unknown is None else unknown.bit,
        "_ten": card.rank is Rank.TEN,
        **_after_call(game, alone=False),
    }


def _after_call(game: HandState, alone: bool) -> dict[str, Any]:
    picker = game.picker
    assert picker is not None
    if game.rules.cracking and picker != game.dealer:
        return {"alone": alone, "phase": _CRACKING, "turn": (picker + 1) % game.players}
    return {"alone": alone, "phase": _PLAYING, "turn": _first(game)}


def _crack(game: HandState, seat: int, action: Any) -> dict[str, Any]:
    cracks = (*game.cracks, seat) if type(action) is Crack else game.cracks
    if seat == game.dealer:
        return {"cracks": cracks, "phase": _PLAYING, "turn": _first(game)}
    return {"cracks": cracks, "turn": (seat + 1) % game.players}


#: What each kind of action changes. (By the action's type: ``Game.apply`` has checked
#: that the action is legal, so one of these.)
_APPLY: dict[type, Callable[[HandState, int, Any], dict[str, Any]]] = {
    Pick: _pick,
    Pass: _pass,
    Bury: _bury,
    Call: _call,
    Alone: _alone,
    Crack: _crack,
    NoCrack: _crack,
    Name: _name,
}
