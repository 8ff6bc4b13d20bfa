"""Actions: what a seat may do, as small frozen values with a record text form.

``str(action)`` is the record's verb text without the seat (``bury 8S TH``,
``call AC unknown 7H``); ``parse_action`` reads it back, accepting ``10D`` and a
bury in any order. A ``Move`` is an action with its seat, written ``2 pick``.
"""

from __future__ import annotations

from collections import namedtuple
from itertools import pairwise

from sheepshead.cards import DECK, Card
from sheepshead.values import Value

_set = object.__setattr__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any, NamedTuple

__all__ = [
    "Action",
    "Alone",
    "Bury",
    "Call",
    "Crack",
    "Move",
    "Name",
    "NoCrack",
    "Pass",
    "Pick",
    "Play",
    "moves_of",
    "parse_action",
    "parse_move",
]


class Pick(Value):
    __slots__ = ()

    def __str__(self) -> str:
        return "pick"


class Pass(Value):
    __slots__ = ()

    def __str__(self) -> str:
        return "pass"


class Bury(Value):
    """The cards the picker lays away, kept in byte order of their text."""

    __slots__ = __match_args__ = ("cards",)
    cards: tuple[Card, ...]

    def __init__(self, cards: tuple[Card, ...]) -> None:
        if any(a.text > b.text for a, b in pairwise(cards)):
            cards = tuple(sorted(cards, key=lambda c: c.text))
        _set(self, "cards", cards)

    @classmethod
    def of_sorted(cls, cards: tuple[Card, ...]) -> Bury:
        """A bury of cards already in text order (the engine lists every bury so)."""
        bury = object.__new__(cls)
        _set(bury, "cards", cards)
        return bury

    def __eq__(self, other: object) -> bool:
        # ``Value.__eq__``, without building tuples of fields: an action is looked up
        # among the legal ones by value (``auction.allows``), and a four-card blind
        # gives a picker hundreds of buries (the expert's searched bury's hot spot).
        if other.__class__ is self.__class__:
            assert isinstance(other, Bury)
            return self.cards == other.cards
        return NotImplemented

    __hash__ = Value.__hash__

    def __str__(self) -> str:
        return "bury " + " ".join(c.text for c in self.cards)


class Call(Value):
    """Call a card (an ace, a ten, or under the jack-of-diamonds rule JD or JH);
    ``unknown`` is the picker's face-down card of an unknown call."""

    __slots__ = __match_args__ = ("card", "unknown")
    card: Card
    unknown: Card | None

    def __init__(self, card: Card, unknown: Card | None = None) -> None:
        _set(self, "card", card)
        _set(self, "unknown", unknown)

    def __str__(self) -> str:
        if self.unknown is None:
            return f"call {self.card.text}"
        return f"call {self.card.text} unknown {self.unknown.text}"


class Alone(Value):
    __slots__ = ()

    def __str__(self) -> str:
        return "alone"


class Crack(Value):
    __slots__ = ()

    def __str__(self) -> str:
        return "crack"


class NoCrack(Value):
    __slots__ = ()

    def __str__(self) -> str:
        return "nocrack"


class Name(Value):
    """The dealer names the trick (1-based) whose winner takes a leaster's blind."""

    __slots__ = __match_args__ = ("trick",)
    trick: int

    def __init__(self, trick: int) -> None:
        _set(self, "trick", trick)

    def __str__(self) -> str:
        return f"name {self.trick}"


class Play(Value):
    __slots__ = __match_args__ = ("card",)
    card: Card

    def __init__(self, card: Card) -> None:
        _set(self, "card", card)

    # The most compared and hashed action, written out (the same as Value's).
    def __eq__(self, other: object) -> bool:
        if other.__class__ is Play:
            assert isinstance(other, Play)
            return self.card == other.card
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.card,))

    def __str__(self) -> str:
        return f"play {self.card.text}"


Action = Pick | Pass | Bury | Call | Alone | Crack | NoCrack | Name | Play

PICK = Pick()
PASS = Pass()
ALONE = Alone()
CRACK = Crack()
NOCRACK = NoCrack()
#: One Play per card, so legal lists and lookups share objects.
PLAYS: dict[Card, Play] = {card: Play(card) for card in DECK}


def play_of(card: Card) -> Play:
    return PLAYS[card]


if TYPE_CHECKING:

    class _Move(NamedTuple):
        seat: int
        action: Action

else:  # the same class, without importing typing (start-up)
    _Move = namedtuple("Move", ["seat", "action"])


class Move(_Move):
    """An action and the seat that took it: one entry of a record's ``actions``."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"{self.seat} {self.action}"


def moves_of(log: tuple[Any, int, Action] | None) -> tuple[Move, ...]:
    """The moves of a chain of (earlier chain, seat, action), None at its start (how a
    ``game.Game`` keeps its moves), in order."""
    steps: list[Move] = []
    chain = log
    while chain is not None:
        chain, seat, action = chain
        steps.append(Move(seat, action))
    steps.reverse()
    return tuple(steps)


_SIMPLE: dict[str, Action] = {
    "pick": PICK,
    "pass": PASS,
    "alone": ALONE,
    "crack": CRACK,
    "nocrack": NOCRACK,
}


def parse_action(text: str) -> Action:
    """Read an action's verb text (no seat). Raises ValueError saying what is wrong."""
    if not isinstance(text, str):
        raise ValueError(f"an action is text such as 'play QC', not {text!r}")
    words = text.split()
    if not words:
        raise ValueError("empty action")
    verb, args = words[0], words[1:]
    if verb in _SIMPLE:
        if args:
            raise ValueError(f"'{verb}' takes nothing after it")
        return _SIMPLE[verb]
    if verb == "play":
        if len(args) != 1:
            raise ValueError("'play' takes one card, such as 'play QC'")
        return play_of(Card.parse(args[0]))
    if verb == "bury":
        if not args:
            raise ValueError("'bury' takes the cards to bury, such as 'bury 8S TH'")
        cards = tuple(Card.parse(a) for a in args)
        if len(set(cards)) != len(cards):
            raise ValueError("a bury names each card once")
        return Bury(cards)
    if verb == "call":
        if len(args) == 1:
            return Call(Card.parse(args[0]))
        if len(args) == 3 and args[1] == "unknown":
            return Call(Card.parse(args[0]), Card.parse(args[2]))
        raise ValueError("'call' takes a card, then optionally 'unknown' and a card")
    if verb == "name":
        if len(args) != 1 or not args[0].isdigit() or not args[0].isascii():
            raise ValueError("'name' takes a trick number, such as 'name 3'")
        return Name(int(args[0]))
    raise ValueError(f"unknown action verb {verb!r}")


def parse_move(text: str) -> Move:
    """Read ``"<seat> <verb> [args]"``."""
    if not isinstance(text, str):
        raise ValueError(f"an action is text such as '1 play QC', not {text!r}")
    seat_text, _, rest = text.strip().partition(" ")
    if not (seat_text.isdigit() and seat_text.isascii()):
        raise ValueError(f"an action starts with its seat number: {text!r}")
    return Move(int(seat_text), parse_action(rest))
