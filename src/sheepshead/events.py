"""A hand's events as typed facts, each marking who may see it, and the one way to send
them: ``events_for_seat``.

``events_of(before, after, move)`` gives the facts of one move (``Passed``, ``Picked``,
``Buried``, ``Called``, ``WentAlone``, ``Cracked``, ``DidNotCrack``, ``Named``,
``Played``, ``TrickTaken``, ``HandScored``), the whole truth: the bury's cards, the
unknown card, a face-down card. Each event says who may see it (``to``: None for
everyone, else the one seat), and what the others see instead (``redacted``: the
same event with the hidden fact left out, or None).

``events_for_seat(events, seat, names)`` is what every sender calls (the solo table's
replies; the friends' tables' sockets): the events that seat may see, each as its wire
JSON, ``{type, seat, ...facts, text}``, the ``text`` the English sentence of
``phrases.EVENTS`` said to that seat. ``docs/api.md`` shows each type's JSON.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from sheepshead.actions import Alone, Bury, Call, Crack, Move, Name, NoCrack, Pass, Pick, Play
from sheepshead.cards import Card
from sheepshead.game import Game
from sheepshead.hand import HandResult
from sheepshead.phrases import EVENTS, english, english_list
from sheepshead.rules import Result

__all__ = [
    "FACE_DOWN",
    "Buried",
    "Called",
    "Cracked",
    "DidNotCrack",
    "Event",
    "HandScored",
    "Named",
    "Passed",
    "Picked",
    "Played",
    "TrickTaken",
    "WentAlone",
    "event_json",
    "events_for_seat",
    "events_of",
    "hand_events",
]

#: What a seat sees of a card it may not see (as ``view.FACE_DOWN``).
FACE_DOWN = "??"


@dataclass(frozen=True, slots=True)
class Event:
    """One fact of a hand. ``seat``: who acted (None for a trick taken or the hand's
    score). Subclasses name their ``type`` (the wire's) and their facts."""

    type: ClassVar[str] = ""
    seat: int | None

    @property
    def to(self) -> int | None:
        """Who may see this event: None for everyone, else that one seat."""
        return None

    def redacted(self) -> Event | None:
        """What a seat that may not see this event sees instead (None: nothing)."""
        return None

    def seen_by(self, seat: int) -> Event | None:
        """This event as ``seat`` may see it, or None."""
        return self if self.to is None or self.to == seat else self.redacted()

    def facts(self) -> dict[str, Any]:
        """The facts on the wire, beside ``type``, ``seat`` and ``text``."""
        return {}

    def words(self, reader: int, names: Sequence[str]) -> tuple[str, dict[str, Any]]:
        """The variant of ``phrases.EVENTS[type]`` said to ``reader``, and its params."""
        return self._mine(reader), self._name(names)

    def _mine(self, reader: int, suffix: str = "") -> str:
        return ("you" if self.seat == reader else "other") + suffix

    def _name(self, names: Sequence[str]) -> dict[str, Any]:
        return {} if self.seat is None else {"name": names[self.seat]}


@dataclass(frozen=True, slots=True)
class Passed(Event):
    type: ClassVar[str] = "pass"
    #: The last pass, when nobody picked: "leaster" or "thrown-in"; else None.
    nobody_picked: str | None = None

    def facts(self) -> dict[str, Any]:
        return {"nobody_picked": self.nobody_picked}

    def words(self, reader: int, names: Sequence[str]) -> tuple[str, dict[str, Any]]:
        suffix = "" if self.nobody_picked is None else "-" + self.nobody_picked
        return self._mine(reader, suffix), self._name(names)


@dataclass(frozen=True, slots=True)
class Picked(Event):
    type: ClassVar[str] = "pick"


@dataclass(frozen=True, slots=True)
class Buried(Event):
    """The picker's bury: its cards to the picker only; the others see how many."""

    type: ClassVar[str] = "bury"
    count: int = 0
    cards: tuple[Card, ...] | None = None

    @property
    def to(self) -> int | None:
        return None if self.cards is None else self.seat

    def redacted(self) -> Event | None:
        return replace(self, cards=None)

    def facts(self) -> dict[str, Any]:
        cards = None if self.cards is None else [c.text for c in self.cards]
        return {"count": self.count, "cards": cards}

    def words(self, reader: int, names: Sequence[str]) -> tuple[str, dict[str, Any]]:
        if self.seat == reader and self.cards is not None:
            return "you", {"cards": english_list([c.name for c in self.cards])}
        return "other", {**self._name(names), "n": self.count}


@dataclass(frozen=True, slots=True)
class Called(Event):
    """A called card, with the picker's unknown card if it calls one: which card that
    is, the picker only sees."""

    type: ClassVar[str] = "call"
    card: Card | None = None
    #: The unknown card; None to a seat that may not see it, or if there is none.
    unknown: Card | None = None
    with_unknown: bool = False

    @property
    def to(self) -> int | None:
        return None if self.unknown is None else self.seat

    def redacted(self) -> Event | None:
        return replace(self, unknown=None)

    def facts(self) -> dict[str, Any]:
        assert self.card is not None
        unknown = None
        if self.with_unknown:
            unknown = FACE_DOWN if self.unknown is None else self.unknown.text
        return {"card": self.card.text, "unknown": unknown}

    def words(self, reader: int, names: Sequence[str]) -> tuple[str, dict[str, Any]]:
        assert self.card is not None
        params = {**self._name(names), "card": self.card.name}
        if not self.with_unknown:
            return self._mine(reader), params
        if self.seat == reader and self.unknown is not None:
            return "you-unknown", {**params, "unknown": self.unknown.name}
        return "other-unknown", params


@dataclass(frozen=True, slots=True)
class WentAlone(Event):
    type: ClassVar[str] = "alone"


@dataclass(frozen=True, slots=True)
class Cracked(Event):
    type: ClassVar[str] = "crack"


@dataclass(frozen=True, slots=True)
class DidNotCrack(Event):
    type: ClassVar[str] = "nocrack"


@dataclass(frozen=True, slots=True)
class Named(Event):
    """The trick named to take the blind (a leaster's "named trick" rule)."""

    type: ClassVar[str] = "name"
    trick: int = 0

    def facts(self) -> dict[str, Any]:
        return {"trick": self.trick}

    def words(self, reader: int, names: Sequence[str]) -> tuple[str, dict[str, Any]]:
        return self._mine(reader), {**self._name(names), "n": self.trick}


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A card played; the picker's unknown card goes face down: the picker only sees it."""

    type: ClassVar[str] = "play"
    #: None to a seat that sees it face down.
    card: Card | None = None
    face_down: bool = False

    @property
    def to(self) -> int | None:
        return self.seat if self.face_down and self.card is not None else None

    def redacted(self) -> Event | None:
        return replace(self, card=None)

    def facts(self) -> dict[str, Any]:
        return {"card": FACE_DOWN if self.card is None else self.card.text}

    def words(self, reader: int, names: Sequence[str]) -> tuple[str, dict[str, Any]]:
        if self.card is None:
            return "face-down", self._name(names)
        return self._mine(reader), {**self._name(names), "card": self.card.name}


@dataclass(frozen=True, slots=True)
class TrickTaken(Event):
    """A trick's winner and card points. A trick holding the face-down card keeps its
    points from every seat but the picker's: they would tell what that card is worth."""

    type: ClassVar[str] = "trick"
    winner: int = 0
    #: None to a seat that may not know them.
    points: int | None = None
    #: The picker, if the trick holds its face-down card (else None).
    face_down_of: int | None = None

    @property
    def to(self) -> int | None:
        return self.face_down_of if self.points is not None else None

    def redacted(self) -> Event | None:
        return replace(self, points=None)

    def facts(self) -> dict[str, Any]:
        return {"winner": self.winner, "points": self.points}

    def words(self, reader: int, names: Sequence[str]) -> tuple[str, dict[str, Any]]:
        mine = "you" if self.winner == reader else "other"
        name = {"name": names[self.winner]}
        if self.points is None:
            return mine + "-face-down", name
        return mine, {**name, "n": self.points}


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    """The hand is over: its result, as ``sheepshead check`` reports it (its tricks
    left out: every seat has seen them)."""

    type: ClassVar[str] = "hand"
    result: HandResult | None = None

    def facts(self) -> dict[str, Any]:
        r = self.result
        assert r is not None
        return {
            "result": r.result.value,
            "picker": r.picker,
            "partners": list(r.partners),
            "alone": r.alone,
            "leaster": r.leaster,
            "points": None if r.points is None else list(r.points),
            "scores": list(r.scores),
        }

    def words(self, reader: int, names: Sequence[str]) -> tuple[str, dict[str, Any]]:
        r = self.result
        assert r is not None
        if r.result is Result.DOUBLER:
            return "doubler", {}
        assert r.points is not None

        def called(seats: Iterable[int]) -> str:
            return english_list(["you" if s == reader else names[s] for s in seats])

        if r.leaster:
            winners = [s for s, score in enumerate(r.scores) if score > 0]
            if not winners:
                return "leaster-tie", {}
            return "leaster", {"names": called(winners), "n": r.points[winners[0]]}
        assert r.picker is not None
        side = "alone" if r.alone else "side"
        return f"{side}-{r.result.value}", {
            "side": called([r.picker, *r.partners]),
            "points": r.points[0],
        }


def _score(n: int) -> str:
    return f"{n:+d}" if n else "0"


def event_json(event: Event, reader: int, names: Sequence[str]) -> dict[str, Any]:
    """One event as ``reader`` may see it, on the wire: ``{type, seat, ...facts, text}``.
    The caller has checked that the reader may see it (``events_for_seat`` does)."""
    variant, params = event.words(reader, names)
    text = english(EVENTS[event.type][variant], params)
    if isinstance(event, HandScored):
        assert event.result is not None
        score = event.result.scores[reader]
        text += " " + english(EVENTS["hand"]["score"], {"score": _score(score)})
    return {"type": event.type, "seat": event.seat, **event.facts(), "text": text}


def events_for_seat(
    events: Iterable[Event], seat: int, names: Sequence[str]
) -> list[dict[str, Any]]:
    """The events ``seat`` may see, in order, each as its wire JSON said to that seat
    (``names``: each seat's name, for the English ``text``). Every sender goes through
    here, so that no seat is sent an event it may not see."""
    out: list[dict[str, Any]] = []
    for event in events:
        shown = event.seen_by(seat)
        if shown is not None:
            out.append(event_json(shown, seat, names))
    return out


# The facts of a move ---------------------------------------------------------------------


def events_of(before: Game, after: Game, move: Move) -> list[Event]:
    """Every fact of ``move`` (``before`` -> ``after``), the hidden ones included."""
    seat, action = move
    events: list[Event] = []
    match action:
        case Pass():
            nobody: str | None = None
            if after.phase is not before.phase and after.picker is None:
                nobody = "thrown-in" if after.is_done else "leaster"
            events.append(Passed(seat, nobody))
        case Pick():
            events.append(Picked(seat))
        case Bury(cards):
            events.append(Buried(seat, len(cards), tuple(cards)))
        case Call(card, unknown):
            events.append(Called(seat, card, unknown, unknown is not None))
        case Alone():
            events.append(WentAlone(seat))
        case Crack():
            events.append(Cracked(seat))
        case NoCrack():
            events.append(DidNotCrack(seat))
        case Name(trick):
            events.append(Named(seat, trick))
        case Play(card):
            events.extend(_play_events(before, after, seat, card))
    if after.is_done:
        events.append(HandScored(None, after.result()))
    return events


def _face_down(game: Game, seat: int, card: Card) -> bool:
    """Whether the card goes face down: the picker's unknown card."""
    return card is game.unknown and seat == game.picker


def _play_events(before: Game, after: Game, seat: int, card: Card) -> list[Event]:
    events: list[Event] = [Played(seat, card, _face_down(before, seat, card))]
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        hidden = any(_face_down(before, s, c) for s, c in trick.plays(before.players))
        events.append(
            TrickTaken(None, trick.winner, trick.points, before.picker if hidden else None)
        )
    return events


def hand_events(game: Game) -> list[Event]:
    """Every event of a hand so far (for a review, or a resync)."""
    state = Game.from_deal(game.rules, game.dealer, game.dealt, game.blind, game.multiplier)
    events: list[Event] = []
    for move in game.moves:
        after = state.apply_move(move)
        events.extend(events_of(state, after, move))
        state = after
    return events
