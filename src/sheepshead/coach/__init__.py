"""The coach: rates a seat's decisions in expected points, from what it could see.

``review(record, seat)`` replays a hand record and judges each of the seat's
decisions (pick or pass, bury, call, alone, crack, name, every card) from the seat's
view at that moment: worlds sampled consistent with the view, every legal option
played out on the same worlds (``judge.py``, ``worlds.py``), the expected game
points and card points of the seat's side per option, the loss against the best, a
label, and a reason in a player's words for a flagged decision (``reasons.py``).
``hint(view)`` is the expert's choice for a view, with its reason.

Pure: no I/O, no clock; the same record and seat give the same review anywhere. The
coach reads the record and the seat, nothing of who played, and its random numbers
are its own, seeded from each view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from sheepshead.actions import Action, parse_move
from sheepshead.coach.judge import Effort, Evaluation, OptionValue, evaluate, label_of
from sheepshead.coach.reasons import HINT_MESSAGES, MESSAGES, Reason, reason_for, words
from sheepshead.record import RecordError, start_of
from sheepshead.view import SeatView

__all__ = [
    "HINT",
    "HINT_MESSAGES",
    "MESSAGES",
    "REVIEW",
    "Advice",
    "Effort",
    "Evaluation",
    "Judgement",
    "OptionValue",
    "Reason",
    "RecordError",
    "decisions",
    "hint",
    "label_of",
    "review",
    "words",
]


#: A review's worlds per decision; a hint's, fewer (it must answer at the table).
REVIEW = Effort()
HINT = Effort(first=24, batch=24, most=96, keep=4, race=8, card_playouts=960, auction_playouts=480)


@dataclass(frozen=True, slots=True)
class Judgement:
    """One decision of the seat, judged."""

    #: The action's index in the record's actions.
    index: int
    seat: int
    #: The action as recorded (canonical text, seat included).
    action: str
    evaluation: Evaluation
    reason: Reason | None
    #: The seat's view when it decided (only what the seat could see).
    view: SeatView

    @property
    def best(self) -> str:
        return f"{self.seat} {self.evaluation.best}"

    def to_json(self) -> dict[str, Any]:
        """The object ``sheepshead analyze --json`` prints (docs/bots.md)."""
        ev = self.evaluation
        return {
            "index": self.index,
            "action": self.action,
            "best": self.best,
            "loss": round(ev.loss, 3),
            "card_points_loss": round(ev.card_points_loss, 2),
            "label": ev.label,
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """The expert's choice in a view, for a hint."""

    action: Action
    evaluation: Evaluation
    reason: Reason | None


def decisions(record: Any, seat: int) -> Iterator[tuple[int, SeatView, Action]]:
    """(index, view before it, action) for each of the seat's actions in the record.
    Raises RecordError for a bad record, ValueError for a seat not at the table."""
    game = start_of(record)
    if type(seat) is not int or not 0 <= seat < game.players:
        raise ValueError(f"there is no seat {seat!r} at a table of {game.players}")
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("actions must be a list of action strings")
    for index, text in enumerate(actions):
        try:
            move = parse_move(text)
        except ValueError as exc:
            raise RecordError(f"cannot read action {text!r}: {exc}", index) from None
        if move.seat == seat:
            yield index, game.view(seat), move.action
        try:
            game = game.apply_move(move)
        except ValueError as exc:
            raise RecordError(str(exc), index) from None


def review(
    record: Any,
    seat: int = 0,
    effort: Effort = REVIEW,
    progress: Callable[[int], None] | None = None,
) -> list[Judgement]:
    """Every decision of ``seat`` in the record, judged, in the record's order.
    ``progress`` is told the count of decisions judged so far, after each."""
    out = []
    for index, view, action in decisions(record, seat):
        ev = evaluate(view, action, effort)
        reason = None if ev.label is None and ev.card_points_loss < 8 else reason_for(view, ev)
        out.append(Judgement(index, seat, f"{seat} {action}", ev, reason, view))
        if progress is not None:
            progress(len(out))
    return out


def hint(view: SeatView, effort: Effort = HINT) -> Advice:
    """What the expert would do in this view (it must be the seat's turn)."""
    ev = evaluate(view, None, effort)
    reason = None
    if len(ev.options) > 1:
        # Why the choice beats the runner-up (``HINT_MESSAGES`` say it before the play).
        second = ev.options[1]
        runner = evaluate_pair(view, ev, second.action)
        reason = reason_for(view, runner) or Reason("best-in-playouts", {"best": ""})
    return Advice(ev.best, ev, reason)


def evaluate_pair(view: SeatView, ev: Evaluation, other: Action) -> Evaluation:
    """``ev`` read as if ``other`` had been played: the loss against the best."""
    values = {v.action: v for v in ev.options}
    best, mine = values[ev.best], values[other]
    return Evaluation(
        other,
        ev.best,
        ev.options,
        max(0.0, best.game_points - mine.game_points),
        best.card_points - mine.card_points,
        ev.se,
        ev.worlds,
        ev.forced,
    )
