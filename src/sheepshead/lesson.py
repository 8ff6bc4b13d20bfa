"""The guided first game: two chosen deals that walk a new player through a hand.

The lesson is a ``Table`` like any other (``table.py``), at the standard rules, with
the computer players of a frozen version of their play (``bots.frozen``), so its two
deals always play out the same: in the first the player picks, buries, calls an ace,
leads trump, follows suit and trumps a fail trick; in the second the player defends,
follows suit and schmears a partner's trick. At each of the player's decisions the
lesson expects one action, the one its text names.

What a step is about (``Step.kind``: picking, the bury, calling, leading trump,
following suit, trumping in, schmearing...) is read here from the position, so the
words said about it always fit it; the words themselves are the catalog's
(``phrases.LESSON``, and a refusal ``lesson-<kind>`` of ``phrases.REFUSALS`` for a
legal choice the lesson does not take). A card the rules refuse is refused by the
engine, with its own reason. No I/O: the server (``server/lesson.py``) rebuilds the
lesson from the version the page sends.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from sheepshead.actions import Bury, Call, Move, Pass, Pick, Play, parse_action
from sheepshead.cards import Card
from sheepshead.game import Game
from sheepshead.refusals import IllegalAction
from sheepshead.rules import Rules, preset
from sheepshead.table import HUMAN, BadAction, StaleVersion, Table, TableConflict, Turn

__all__ = [
    "KINDS",
    "LESSON_HANDS",
    "Lesson",
    "OffLesson",
    "Step",
    "kind_of",
    "start",
]

RULES: Rules = preset("standard")
LEVEL = "standard"
#: The computer players' play, frozen: the lesson's deals must always go the same way.
BOT_VERSION = "1"
BOT_SEED = 1
#: The seat on the player's right deals the first hand, so the player speaks first.
FIRST_DEALER = 4


def _seed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


#: Each hand: its seed and the player's actions, in order (the computer players'
#: replies between them follow from the frozen bots).
LESSON_HANDS: tuple[tuple[bytes, tuple[str, ...]], ...] = (
    (
        _seed("lesson/17"),
        (
            "pick",
            "bury 9C AH",
            "call AC",
            "play QD",
            "play 7C",
            "play 8D",
            "play JC",
            "play JH",
            "play KD",
        ),
    ),
    (
        _seed("lesson/10104"),
        (
            "play AS",
            "play KC",
            "play JH",
            "play AD",
            "play 7S",
            "play JS",
        ),
    ),
)

#: The kinds of the lesson's steps, each with its words in ``phrases.LESSON`` (and its
#: refusal, ``lesson-<kind>``, in ``phrases.REFUSALS``). ``kind_of`` can also tell a
#: pass, a fail lead and a discard, which these deals do not ask for.
KINDS: tuple[str, ...] = (
    "pick",
    "bury",
    "call",
    "lead-trump",
    "follow",
    "follow-trump",
    "trump-in",
    "schmear",
)


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of the player: what the lesson expects, and what it is about."""

    hand: int
    #: The step's number among all the lesson's steps, from 1.
    number: int
    action: str
    kind: str
    #: The facts its words name: ``card``, ``cards``, ``suit`` (a fail suit's letter).
    params: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "number": self.number,
            "action": self.action,
            "kind": self.kind,
            "params": self.params,
        }


class OffLesson(Exception):
    """A legal action that is not the one the step asks for: ``code`` (``lesson-<kind>``)
    and ``params`` say why, as the catalog words it."""

    def __init__(self, step: Step) -> None:
        super().__init__(f"the lesson asks for {step.action!r} here")
        self.code = f"lesson-{step.kind}"
        self.params = dict(step.params)
        self.reason = str(self)


def _winning_seat(game: Game) -> int | None:
    """Who is winning the trick under way, by what is face up (None: the unknown card led)."""
    view = game.view(HUMAN)
    trick = view.trick
    if not trick.cards or trick.cards[0] is None:
        return None
    led = trick.cards[0]
    best_i = 0
    for i, card in enumerate(trick.cards):
        best = trick.cards[best_i]
        assert best is not None
        if card is not None and _beats(card, best, led):
            best_i = i
    return trick.seat_of(best_i, game.players)


def _beats(card: Card, best: Card, led: Card) -> bool:
    """Whether ``card`` beats ``best`` in a trick led with ``led``."""
    if card.is_trump:
        return not best.is_trump or card.power > best.power
    return not best.is_trump and card.fail_suit == led.fail_suit and card.power > best.power


def _my_side(game: Game) -> set[int] | None:
    """The seats the player knows are on its side, or None while it cannot tell."""
    view = game.view(HUMAN)
    picker = view.picker
    if picker is None:
        return None
    if picker == HUMAN or view.partner:
        return {picker, HUMAN, *view.known_partners}
    if view.known_partners or view.alone:
        return set(range(game.players)) - {picker, *view.known_partners}
    return None


def kind_of(game: Game, action_text: str) -> tuple[str, dict[str, Any]]:
    """What the player's decision ``action_text`` in ``game`` is about, and the facts its
    words name."""
    action = parse_action(action_text)
    if isinstance(action, Pick):
        return "pick", {}
    if isinstance(action, Pass):
        return "pass", {}
    if isinstance(action, Bury):
        return "bury", {"cards": [c.text for c in action.cards]}
    if isinstance(action, Call):
        return "call", {"card": action.card.text}
    if not isinstance(action, Play):
        raise ValueError(f"the lesson has no words for {action_text!r}")
    return _play_kind(game, action.card)


def _play_kind(game: Game, card: Card) -> tuple[str, dict[str, Any]]:
    view = game.view(HUMAN)
    params: dict[str, Any] = {"card": card.text}
    trick = view.trick
    if not trick.cards:
        return ("lead-trump" if card.is_trump else "lead-fail"), params
    led = trick.cards[0]
    if led is None:
        raise ValueError("the lesson's deals lead no unknown card")
    winner = _winning_seat(game)
    side = _my_side(game)
    n = game.players
    after = {(HUMAN + k) % n for k in range(1, n - len(trick.cards))}
    # Sure: a seat of the player's side wins it so far, and only that side plays after.
    sure = side is not None and winner in side and winner != HUMAN and after <= side
    if card.points >= 10 and sure:
        return "schmear", params
    if led.is_trump:
        holds = any(c.is_trump for c in view.cards)
        return ("follow-trump" if holds else "discard"), params
    assert led.fail_suit is not None
    params["suit"] = led.fail_suit.value
    if any(c.fail_suit == led.fail_suit for c in view.cards):
        return "follow", params
    return ("trump-in" if card.is_trump else "discard"), params


@dataclass(frozen=True, slots=True)
class Lesson:
    """The lesson as it stands: its table, and the step it waits for (None between
    the hands and at its end)."""

    table: Table
    step: Step | None

    @property
    def done(self) -> bool:
        return self.table.hand_over and self.table.hand_number == len(LESSON_HANDS)

    def state(self) -> dict[str, Any]:
        """The table's state for the player, with the lesson's part (``docs/api.md``)."""
        state = self.table.state()
        state["id"] = "lesson"
        state["lesson"] = {
            "hands": len(LESSON_HANDS),
            "steps": sum(len(moves) for _, moves in LESSON_HANDS),
            "step": None if self.step is None else self.step.to_json(),
            "done": self.done,
        }
        return state

    def act(self, action_text: str, version: int) -> tuple[Lesson, Turn]:
        """The player's action: refused by the engine (IllegalAction) if the rules refuse
        it, by the lesson (OffLesson) if it is legal but not the step's; else applied,
        with the computer players' replies."""
        table = self.table
        if version != table.version:
            raise StaleVersion(
                f"the lesson is at version {table.version}, not {version}",
                "stale-version",
                {"now": table.version, "sent": version},
            )
        if self.step is None:
            raise TableConflict("the hand is over: deal the next hand", "deal-next-hand")
        try:
            action = parse_action(action_text)
        except ValueError as exc:
            raise BadAction(f"cannot read the action {action_text!r}: {exc}") from None
        refusal = table.game.refusal(Move(HUMAN, action))
        if refusal is not None:
            raise IllegalAction(refusal)
        if str(action) != self.step.action:
            raise OffLesson(self.step)
        turn = table.act(action_text, version)
        return _at(turn.table), turn

    def next_hand(self, version: int) -> tuple[Lesson, Turn]:
        """Deal the lesson's next hand, once the current one is over."""
        table = self.table
        if table.hand_number >= len(LESSON_HANDS):
            raise TableConflict("that was the lesson's last hand", "lesson-over")
        turn = table.next_hand(LESSON_HANDS[table.hand_number][0], version)
        return _at(turn.table), turn


def _at(table: Table) -> Lesson:
    """The lesson at ``table``: the step it waits for, from the moves the player made."""
    if table.hand_over:
        return Lesson(table, None)
    hand = table.hand_number
    _, expected = LESSON_HANDS[hand - 1]
    mine = sum(1 for m in table.game.moves if m.seat == HUMAN)
    if mine >= len(expected) or table.game.turn != HUMAN:
        raise ValueError("the lesson's deals no longer play as written")
    before = sum(len(moves) for _, moves in LESSON_HANDS[: hand - 1])
    kind, params = kind_of(table.game, expected[mine])
    return Lesson(table, Step(hand, before + mine + 1, expected[mine], kind, params))


def start() -> Lesson:
    """The lesson's first hand, dealt, at the player's first decision."""
    seed = LESSON_HANDS[0][0]
    turn = Table.start(RULES, LEVEL, BOT_SEED, seed, FIRST_DEALER, BOT_VERSION)
    return _at(turn.table)


def at_version(version: int) -> Lesson:
    """The lesson rebuilt up to ``version`` (the page's), its player's steps as written.
    Raises StaleVersion if no point of the lesson has that version."""
    lesson = start()
    while lesson.table.version < version:
        if lesson.step is None:
            if lesson.done:
                break
            lesson, _ = lesson.next_hand(lesson.table.version)
        else:
            lesson, _ = lesson.act(lesson.step.action, lesson.table.version)
    if lesson.table.version != version:
        raise StaleVersion(
            f"the lesson has no version {version}",
            "stale-version",
            {"now": lesson.table.version, "sent": version},
        )
    return lesson


def walk() -> list[tuple[Step, Game]]:
    """Every step of the lesson with the position it is taken in (for the tests)."""
    out: list[tuple[Step, Game]] = []
    lesson = start()
    while True:
        if lesson.step is None:
            if lesson.done:
                return out
            lesson, _ = lesson.next_hand(lesson.table.version)
            continue
        out.append((lesson.step, lesson.table.game))
        lesson, _ = lesson.act(lesson.step.action, lesson.table.version)
