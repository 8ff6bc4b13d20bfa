"""What one seat of a friends' table may see: its state and its events.

``seat_events`` is the one place that turns a step's events into what a seat may
see (the POST replies and the sockets both go through it); ``seat_state`` is the
one place that builds a seat's state (``GET`` and the sockets both use it).

The events are the typed events of ``events.py``, each knowing who may see it
(the picker's unknown card is face down to every other seat, and so is the value
of a trick holding it; the bury is named to the picker alone); ``events_for_seat``
sends each seat what it may see, its sentence saying "you" to the seat it speaks of.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheepshead import bots
from sheepshead.events import Event, events_for_seat
from sheepshead.game import Game
from sheepshead.table import Table

#: A computer player's name in each seat (seat 0 is the host's; a computer there
#: is "Fay", a name no other seat's computer has).
COMPUTER_NAMES: tuple[str, ...] = ("Fay", *bots.SEAT_NAMES)


def seat_events(
    events: Sequence[Event], seat: int, game: Game, names: Sequence[str]
) -> list[dict[str, Any]]:
    """The events of one step (of ``game``'s hand, ending where ``game`` stands) as
    ``seat`` may see them, as JSON."""
    del game  # each typed event knows who may see it
    return events_for_seat(events, seat, names)


def seat_state(table: Table, seat: int) -> dict[str, Any]:
    """A seated player's game state: a solo game's state, seen from their seat."""
    return table.state(seat=seat)
