"""Hand records (``sheepshead-hand/1``): read, write, replay and check.

The format is pinned in ``shared/hand-record.md``; other programs depend on it.
"""

from __future__ import annotations

import json

from sheepshead.actions import Move, parse_move
from sheepshead.cards import Card
from sheepshead.game import Game
from sheepshead.hand import HandResult
from sheepshead.refusals import IllegalAction
from sheepshead.rules import Rules, RulesError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any

FORMAT = "sheepshead-hand/1"
_FIELDS = {"format", "rules", "dealer", "multiplier", "hands", "blind", "actions"}


class RecordError(ValueError):
    """A record that cannot be replayed. ``action`` is the 0-based index of the first
    bad action, or None when a field of the record itself is bad."""

    def __init__(self, message: str, action: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.action = action


def _cards(value: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of cards")
    try:
        return tuple(Card.parse(item) for item in value)
    except ValueError as exc:
        raise RecordError(f"{what}: {exc}") from None


def start_of(data: Any) -> Game:
    """The hand a record deals, before any action. Raises RecordError (action None)."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise RecordError(f"unknown record field: {unknown[0]}")
    if data.get("format") != FORMAT:
        raise RecordError(f'format must be "{FORMAT}"')
    try:
        rules = Rules.from_record(data.get("rules", {}))
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    dealer = data.get("dealer")
    if type(dealer) is not int or not 0 <= dealer < rules.players:
        raise RecordError(f"dealer must be a seat from 0 to {rules.players - 1}")
    multiplier = data.get("multiplier", 1)
    if type(multiplier) is not int or multiplier < 1:
        raise RecordError("multiplier must be a positive integer")
    hands_value = data.get("hands")
    if not isinstance(hands_value, list):
        raise RecordError("hands must be a list with one list of cards per seat")
    hands = [_cards(h, f"hands[{seat}]") for seat, h in enumerate(hands_value)]
    blind = _cards(data.get("blind"), "blind")
    try:
        return Game.from_deal(rules, dealer, hands, blind, multiplier)
    except ValueError as exc:
        raise RecordError(str(exc)) from None


def replay(data: Any) -> Game:
    """Replay a record to the state it reaches. Raises RecordError."""
    game = start_of(data)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("actions must be a list of action strings")
    for index, text in enumerate(actions):
        try:
            move = parse_move(text)
        except ValueError as exc:
            raise RecordError(f"cannot read action {text!r}: {exc}", index) from None
        if game.is_done:
            raise RecordError("the hand is over: no action may follow", index)
        try:
            game = game.apply_move(move)
        except IllegalAction as exc:
            raise RecordError(exc.reason, index) from None
    return game


def loads(text: str) -> Game:
    """Parse and replay a record's JSON text."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"not JSON: {exc}") from None
    return replay(data)


def to_record(game: Game) -> dict[str, Any]:
    """The record of a hand (any state): canonical text, fields in the documented order."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": game.rules.to_record(),
        "dealer": game.dealer,
    }
    if game.multiplier != 1:
        record["multiplier"] = game.multiplier
    record["hands"] = [[c.text for c in hand] for hand in game.dealt]
    record["blind"] = [c.text for c in game.blind]
    record["actions"] = [str(m) for m in game.moves]
    return record


def dumps(game: Game) -> str:
    return json.dumps(to_record(game))


def result_json(result: HandResult) -> dict[str, Any]:
    return {
        "picker": result.picker,
        "partners": list(result.partners),
        "alone": result.alone,
        "leaster": result.leaster,
        "tricks": [
            {
                "leader": t.leader,
                "cards": [c.text for c in t.cards],
                "winner": t.winner,
                "points": t.points,
            }
            for t in result.tricks
        ],
        "points": None if result.points is None else list(result.points),
        "result": result.result.value,
        "scores": list(result.scores),
    }


def check(text: str) -> tuple[int, dict[str, Any]]:
    """``sheepshead check``: the exit code and the JSON object to print."""
    try:
        game = loads(text)
    except RecordError as exc:
        return 1, {"ok": False, "action": exc.action, "error": exc.message}
    result = game.result()
    if result is None:
        assert game.turn is not None
        legal = sorted(str(Move(game.turn, a)) for a in game.legal_actions())
        return 0, {"ok": True, "complete": False, "next": {"seat": game.turn, "legal": legal}}
    return 0, {"ok": True, "complete": True, **result_json(result)}


__all__ = [
    "FORMAT",
    "RecordError",
    "check",
    "dumps",
    "loads",
    "replay",
    "result_json",
    "start_of",
    "to_record",
]
