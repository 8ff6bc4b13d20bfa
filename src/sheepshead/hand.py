"""A hand's phases, its tricks and its result: the values the engine, the views and
the refusals all speak of, and ``HandState``, what the refusals and the views read of
a hand (``game.Game`` has it). They sit below ``game.py``, so that ``refusals`` and
``view`` need not import it: no import cycle.
"""

from __future__ import annotations

from enum import StrEnum

from sheepshead.actions import Action, Move
from sheepshead.cards import Card
from sheepshead.rules import Result, Rules
from sheepshead.values import Value

_set = object.__setattr__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Protocol
else:  # at run time HandState is a plain class: only the type checker reads it
    Protocol = object


class Phase(StrEnum):
    PICKING = "picking"
    BURYING = "burying"
    CALLING = "calling"
    CRACKING = "cracking"
    NAMING = "naming"
    PLAYING = "playing"
    DONE = "done"


class Trick(Value):
    """A trick: who led, the cards in the order played, and (once complete) who won it."""

    __slots__ = __match_args__ = ("leader", "cards", "winner")
    leader: int
    cards: tuple[Card, ...]
    winner: int

    def __init__(self, leader: int, cards: tuple[Card, ...], winner: int) -> None:
        _set(self, "leader", leader)
        _set(self, "cards", cards)
        _set(self, "winner", winner)

    @property
    def points(self) -> int:
        return sum(card.points for card in self.cards)

    def seat_of(self, index: int, players: int) -> int:
        return (self.leader + index) % players

    def plays(self, players: int) -> tuple[tuple[int, Card], ...]:
        return tuple(((self.leader + i) % players, card) for i, card in enumerate(self.cards))


class HandResult(Value):
    """The score of a finished hand, as ``sheepshead check`` reports it."""

    __slots__ = __match_args__ = (
        "picker",
        "partners",
        "alone",
        "leaster",
        "tricks",
        "points",
        "result",
        "scores",
        "multiplier",
    )
    picker: int | None
    partners: tuple[int, ...]
    alone: bool
    leaster: bool
    tricks: tuple[Trick, ...]
    #: [picker side, defenders] with the bury; one per seat in a leaster; None for a doubler.
    points: tuple[int, ...] | None
    result: Result
    scores: tuple[int, ...]
    #: Everything the hand's scores were multiplied by (record multiplier, cracks, bump).
    multiplier: int

    def __init__(
        self,
        picker: int | None,
        partners: tuple[int, ...],
        alone: bool,
        leaster: bool,
        tricks: tuple[Trick, ...],
        points: tuple[int, ...] | None,
        result: Result,
        scores: tuple[int, ...],
        multiplier: int,
    ) -> None:
        _set(self, "picker", picker)
        _set(self, "partners", partners)
        _set(self, "alone", alone)
        _set(self, "leaster", leaster)
        _set(self, "tricks", tricks)
        _set(self, "points", points)
        _set(self, "result", result)
        _set(self, "scores", scores)
        _set(self, "multiplier", multiplier)


class HandState(Protocol):
    """What ``refusals`` and ``view`` read of a hand: ``game.Game``'s public state."""

    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def multiplier(self) -> int: ...
    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def blind(self) -> tuple[Card, ...]: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def picker(self) -> int | None: ...
    @property
    def bury(self) -> tuple[Card, ...]: ...
    @property
    def called(self) -> Card | None: ...
    @property
    def unknown(self) -> Card | None: ...
    @property
    def alone(self) -> bool: ...
    @property
    def partners(self) -> frozenset[int]: ...
    @property
    def cracks(self) -> tuple[int, ...]: ...
    @property
    def named_trick(self) -> int | None: ...
    @property
    def tricks(self) -> tuple[Trick, ...]: ...
    @property
    def trick_leader(self) -> int: ...
    @property
    def trick_cards(self) -> tuple[Card, ...]: ...
    @property
    def called_led_at(self) -> int | None: ...
    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def card_masks(self) -> int: ...
    def mask_of_seat(self, seat: int) -> int: ...
    @property
    def moves(self) -> tuple[Move, ...]: ...
    @property
    def is_done(self) -> bool: ...
    def holds(self, seat: int, card: Card) -> bool: ...
    def legal_actions(self) -> tuple[Action, ...]: ...
    def legal_cards(self) -> tuple[Card, ...]: ...
    def why_illegal(self, move: Move) -> str | None: ...
    def result(self) -> HandResult | None: ...
