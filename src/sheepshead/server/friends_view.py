"""What one seat of a friends' table may see: its state and its events.

``seat_events`` is the one place that turns a step's events into what a seat may
see (the POST replies and the sockets both go through it); ``seat_state`` is the
one place that builds a seat's state (``GET`` and the sockets both use it).

The events are today's ``table.Event`` objects, made as seat 0 of a solo table
sees the hand; here they are seen again from the reading seat, with the visibility
rules of ``table._events``: the picker's unknown card is face down to every other
seat (and so is the value of a trick holding it), the picker's bury is named to
the picker alone, and sentences say "you" to the seat they speak of.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheepshead import bots
from sheepshead.cards import Card
from sheepshead.game import Game
from sheepshead.table import Event, Table
from sheepshead.view import FACE_DOWN

#: A computer player's name in each seat (seat 0 is the host's; a computer there
#: is "Fay", a name no other seat's computer has).
COMPUTER_NAMES: tuple[str, ...] = ("Fay", *bots.SEAT_NAMES)


def _face_down(game: Game, event: Event) -> bool:
    """Whether this play is the picker's unknown card, played face down."""
    unknown = game.unknown
    return (
        unknown is not None
        and event.seat == game.picker
        and event.card in (unknown.text, FACE_DOWN)
    )


def _trick_hides(game: Game, index: int, seat: int) -> bool:
    """Whether trick ``index`` holds a card this seat saw face down."""
    if not 0 <= index < len(game.tricks) or game.unknown is None or seat == game.picker:
        return False
    trick = game.tricks[index]
    return any(s == game.picker and c is game.unknown for s, c in trick.plays(game.players))


def _card_name(text: str | None) -> str:
    return Card.parse(text).name if text and text != FACE_DOWN else "card"


def _text(event: Event, seat: int, names: Sequence[str], card: str | None) -> str:
    """The event's sentence as ``seat`` reads it (the page writes its own, translated,
    from the fields; this is for other programs)."""
    mine = event.seat == seat
    who = "You" if mine else names[event.seat] if event.seat is not None else ""
    s = "" if mine else "s"
    match event.type:
        case "pass":
            tail = event.text.partition(": ")[2]
            return f"{who} pass{'' if mine else 'es'}" + (f": {tail}" if tail else "")
        case "pick":
            return f"{who} pick{s} up the blind"
        case "bury":
            return f"{who} bur{'y' if mine else 'ies'} the cards laid away"
        case "call":
            unknown = ", with an unknown card" if "unknown" in event.text else ""
            return f"{who} call{s} the {_card_name(event.card)}{unknown}"
        case "alone":
            return f"{who} go{'' if mine else 'es'} alone"
        case "crack":
            return f"{who} crack{s}: the hand counts double"
        case "nocrack":
            return f"{who} do{'' if mine else 'es'} not crack"
        case "name":
            return f"{who} name{s} a trick to take the blind"
        case "play":
            if card == FACE_DOWN:
                return f"{who} play{s} a card face down"
            return f"{who} play{s} the {_card_name(card)}"
        case "trick":
            taker = "You" if event.winner == seat else names[event.winner or 0]
            verb = "take" if event.winner == seat else "takes"
            if event.points is None:
                return f"{taker} {verb} the trick, with a face-down card"
            return f"{taker} {verb} the trick: {event.points} points"
    if event.scores is not None:
        return f"The hand is over. You score {event.scores[seat]:+d}."
    return event.text


def seat_events(
    events: Sequence[Event], seat: int, game: Game, names: Sequence[str]
) -> list[dict[str, Any]]:
    """The events of one step (all of ``game``'s hand, ending where ``game`` stands)
    as ``seat`` may see them, as JSON."""
    tricks_after = len(game.tricks)
    trick_index = tricks_after - sum(1 for e in events if e.type == "trick")
    out: list[dict[str, Any]] = []
    for event in events:
        item = event.to_json()
        if event.type == "play" and _face_down(game, event):
            assert game.unknown is not None
            item["card"] = game.unknown.text if seat == game.picker else FACE_DOWN
        elif event.type == "trick":
            if _trick_hides(game, trick_index, seat):
                item["points"] = None
            elif event.points is None and 0 <= trick_index < tricks_after:
                # Face down to seat 0, not to this seat (the picker).
                item["points"] = game.tricks[trick_index].points
            trick_index += 1
        item["text"] = _text(
            Event(
                event.type,
                event.seat,
                event.text,
                item["card"],
                event.winner,
                item["points"],
                event.scores,
            ),
            seat,
            names,
            item["card"],
        )
        out.append(item)
    return out


def seat_state(table: Table, seat: int) -> dict[str, Any]:
    """A seated player's game state: a solo game's state, seen from their seat."""
    return table.state(seat=seat)
