"""A live table: the human in seat 0, computer players in every other seat.

A table is a ``Match`` (hand after hand, the deal passing left) plus what makes it
live: the seeds of its hands, the bots' level and seed, and a ``version`` that
counts every change (each hand dealt, each action taken, bots' included).
``act(action_text, version)`` applies the human's action and lets the bots play
up to the human's next decision (or the end of the hand), returning the public
events in order. Tables are immutable; seeds come from outside, so the same
seeds, level and actions always rebuild the same table (``restore``).

No HTTP and no database here: the server stores what ``hands`` returns and
restores from it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sheepshead import bots
from sheepshead.actions import (
    PLAYS,
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
    parse_action,
    parse_move,
)
from sheepshead.cards import Card
from sheepshead.deal import seed_commitment
from sheepshead.game import Game, HandResult
from sheepshead.match import Match
from sheepshead.record import result_json, to_record
from sheepshead.refusals import IllegalAction
from sheepshead.rules import Result, Rules
from sheepshead.view import FACE_DOWN, hand_worth, seat_view

__all__ = [
    "HUMAN",
    "NAMES",
    "BadAction",
    "Event",
    "StaleVersion",
    "Table",
    "TableConflict",
    "Turn",
    "hand_events",
    "names_for",
]

#: The human's seat: always 0, drawn at the bottom of the table.
HUMAN = 0
#: Seat names; a table of n players uses the first n.
NAMES: tuple[str, ...] = ("You", *bots.SEAT_NAMES)


def names_for(players: int) -> tuple[str, ...]:
    return NAMES[:players]


class TableConflict(Exception):
    """The request does not fit the table as it now stands (resync, then retry).
    ``code`` and ``params`` say why as data (``docs/api.md``)."""

    def __init__(self, reason: str, code: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.params = params or {}


class StaleVersion(TableConflict):
    """The action was sent against an older version of the table."""


class BadAction(ValueError):
    """Action text that cannot be read (``play QX``); ``reason`` says why, for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Event:
    """One public fact, in order: what seat 0 may see and a sentence saying it."""

    type: str
    seat: int | None
    text: str
    card: str | None = None
    winner: int | None = None
    points: int | None = None
    scores: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "seat": self.seat,
            "text": self.text,
            "card": self.card,
            "winner": self.winner,
            "points": self.points,
            "scores": None if self.scores is None else list(self.scores),
        }


log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Table:
    rules: Rules
    #: The computer players' level (one of ``bots.LEVELS``).
    level: str
    #: Seeds every bot decision of this table, so a replay meets the same answers.
    bot_seed: int
    match: Match
    #: The seed of every hand dealt so far, the current one last.
    seeds: tuple[bytes, ...]
    #: Hands dealt plus actions taken (bots' included): any change bumps it.
    version: int
    #: The version of the bots' play (one of ``bots.versions()``), None for this code's:
    #: a daily game keeps its day's.
    bot_version: str | None = None
    #: The seats a person plays: the computer players act for every other seat. A
    #: friends' table sets it (``replace``) to the seats whose players are there.
    humans: frozenset[int] = frozenset({HUMAN})

    # Building -----------------------------------------------------------

    @classmethod
    def start(
        cls,
        rules: Rules,
        level: str,
        bot_seed: int,
        seed: bytes,
        first_dealer: int | None = None,
        bot_version: str | None = None,
    ) -> Turn:
        """Deal the first hand and let the bots act up to the human's first decision.

        By default the seat on the human's right deals, so the human speaks first.
        """
        check_level(level, bot_version)
        dealer = rules.players - 1 if first_dealer is None else first_dealer
        table = cls(rules, level, bot_seed, Match(rules, dealer), (), 0, bot_version)
        return table._deal(seed)

    @classmethod
    def restore(
        cls,
        rules: Rules,
        level: str,
        bot_seed: int,
        first_dealer: int,
        hands: Sequence[tuple[bytes, Sequence[str]]],
        settled: Match | None = None,
        bot_version: str | None = None,
    ) -> Table:
        """Rebuild a table from its hands' seeds and moves (record text, ``"2 pick"``).

        ``settled``, if given, is this table's match as its first finished hands left
        it (see ``settled()``): those hands are taken from it, not replayed again.
        Raises ValueError if the moves do not replay: stored data is not trusted blindly.
        """
        match = Match(rules, first_dealer) if settled is None else settled
        done = len(match.hands)
        if match.current is not None or done > len(hands):
            raise ValueError("a settled match has only finished hands, and no more than stored")
        version = done + sum(len(moves) for _, moves in hands[:done])
        for seed, moves in hands[done:]:
            match = match.start_hand(seed)
            version += 1
            for text in moves:
                game = match.current
                if game is None:
                    raise ValueError(f"move {text!r} follows the end of its hand")
                move = parse_move(text)
                if move.seat != game.turn:
                    raise ValueError(f"move {text!r} is out of turn")
                match = match.apply(move.action)
                version += 1
        seeds = tuple(seed for seed, _ in hands)
        return cls(rules, level, bot_seed, match, seeds, version, bot_version)

    def settled(self) -> Match:
        """The match as the finished hands left it, the current hand left out: what
        ``restore`` can start from instead of replaying those hands again."""
        match = self.match
        if match.current is None:
            return match
        return Match(
            match.rules, match.first_dealer, match.hands, None, match.scores, match.doubles_owed
        )

    # Facts --------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def game(self) -> Game:
        """The current hand, or the last one once it is over (until the next is dealt)."""
        current = self.match.current
        if current is not None:
            return current
        if not self.match.hands:
            raise ValueError("no hand has been dealt")
        return self.match.hands[-1]

    @property
    def hand_number(self) -> int:
        """The current hand's number, counting from 1."""
        return len(self.seeds)

    @property
    def hand_over(self) -> bool:
        return self.match.current is None

    @property
    def seed(self) -> bytes:
        """The current hand's seed. Secret until the hand is over: see ``state``."""
        return self.seeds[-1]

    def hands(self) -> list[tuple[bytes, list[str]]]:
        """Every hand's seed and moves in record text: what a store keeps to ``restore``."""
        return [self.hand(n) for n in range(1, len(self.seeds) + 1)]

    def hand(self, number: int) -> tuple[bytes, list[str]]:
        """Hand ``number``'s (from 1) seed and moves in record text."""
        if not 1 <= number <= len(self.seeds):
            raise ValueError(f"there is no hand {number}")
        finished = self.match.hands
        game = finished[number - 1] if number <= len(finished) else self.match.current
        assert game is not None
        return self.seeds[number - 1], [str(m) for m in game.moves]

    def finished(self, number: int) -> Game | None:
        """Hand ``number`` (from 1) if it is over, else None."""
        if 1 <= number <= len(self.match.hands):
            return self.match.hands[number - 1]
        return None

    def hand_record(self, number: int) -> dict[str, Any] | None:
        """The hand record (``hand-record.md``) of a finished hand, else None."""
        game = self.finished(number)
        return None if game is None else to_record(game)

    # Acting -------------------------------------------------------------

    def act(self, action_text: str, version: int, seat: int = HUMAN) -> Turn:
        """Apply a person's action (``seat``'s), then the bots' up to the next decision
        of a seat in ``humans``.

        Raises StaleVersion, TableConflict (the hand is over), BadAction (unreadable
        text) or IllegalAction (the engine's reason); the table is unchanged then.
        """
        self._check_version(version)
        game = self.match.current
        if game is None:
            raise TableConflict("the hand is over: deal the next hand", "deal-next-hand")
        if game.turn != seat:
            raise TableConflict(
                f"it is {NAMES[game.turn or 0]}'s turn, not yours",
                "not-your-turn",
                {"turn": game.turn},
            )
        try:
            action = parse_action(action_text)
        except ValueError as exc:
            raise BadAction(f"cannot read the action {action_text!r}: {exc}") from None
        refusal = game.refusal(Move(seat, action))
        if refusal is not None:
            raise IllegalAction(refusal)
        events: list[Event] = []
        return self._apply(action, events)._run_bots(events)

    def cover(self, version: int) -> Turn:
        """The computer player decides for the seat whose turn it is (a person whose
        clock ran out, or who is away), then the bots run as after ``act``."""
        self._check_version(version)
        game = self.match.current
        if game is None:
            raise TableConflict("the hand is over: deal the next hand", "deal-next-hand")
        events: list[Event] = []
        return self._apply(_bot_action(self, game), events)._run_bots(events)

    def next_hand(self, seed: bytes, version: int) -> Turn:
        """Deal the next hand (only once the current one is over) and run the bots."""
        self._check_version(version)
        if not self.hand_over:
            raise TableConflict("the current hand is not over yet", "hand-not-over")
        return self._deal(seed)

    def _check_version(self, version: int) -> None:
        if version != self.version:
            raise StaleVersion(
                f"this table is at version {self.version}, not {version}: "
                "it changed since you saw it",
                "stale-version",
                {"now": self.version, "sent": version},
            )

    def _deal(self, seed: bytes) -> Turn:
        match = self.match.start_hand(seed)
        table = replace(self, match=match, seeds=(*self.seeds, seed), version=self.version + 1)
        return table._run_bots([])

    def _apply(self, action: Action, events: list[Event]) -> Table:
        before = self.match.current
        assert before is not None and before.turn is not None
        seat = before.turn
        match = self.match.apply(action)
        after = match.current if match.current is not None else match.hands[-1]
        events.extend(_events(before, after, Move(seat, action)))
        return replace(self, match=match, version=self.version + 1)

    def _run_bots(self, events: list[Event]) -> Turn:
        table = self
        while True:
            game = table.match.current
            if game is None or game.turn in table.humans:
                return Turn(table, tuple(events))
            assert game.turn is not None
            table = table._apply(_bot_action(table, game), events)

    # What seat 0 may see ---------------------------------------------------

    def state(self, sealed: bool = False, seat: int = HUMAN) -> dict[str, Any]:
        """Everything ``seat`` (seat 0 at a solo table) may know, as JSON (the API's
        TableState without its id).

        ``sealed``: the deal stays secret once the hand is over (a daily deal before
        its day ends), so the summary holds only what seat 0 saw while playing: its own
        hand, and the blind and bury only if it picked (``view.seat_view``).
        """
        game = self.game
        over = self.hand_over
        view = seat_view(game, seat, sealed and over)
        summary: dict[str, Any] | None = None
        if over:
            result = game.result()
            assert result is not None
            picked = game.picker == seat
            summary = {
                "result": result_json(result),
                "hands": [
                    [c.text for c in cards] if s == seat or not sealed else None
                    for s, cards in enumerate(game.dealt)
                ],
                "blind": [c.text for c in game.blind] if picked or not sealed else None,
                "bury": [c.text for c in game.bury] if picked or not sealed else None,
            }
        return {
            "version": self.version,
            "seat": seat,
            "players": self.players,
            "rules": self.rules.to_record(),
            "level": self.level,
            "names": list(names_for(self.players)),
            "hand_number": self.hand_number,
            "view": view_json(game, sealed and over, seat),
            "worth": hand_worth(view).to_json(),
            "scores": list(self.match.scores),
            "score_sheet": [
                _sheet_line(n, g, self.seeds[n - 1])
                for n, g in enumerate(self.match.hands, start=1)
            ],
            "seed_sha256": seed_commitment(self.seed),
            "seed": self.seed.hex() if over else None,
            "summary": summary,
            "hand_over": over,
        }


def view_json(game: Game, sealed: bool = False, seat: int = HUMAN) -> dict[str, Any]:
    """``seat``'s view, each refused card's reason as ``{code, params, text}`` (the bots
    read ``SeatView.to_json()`` itself, whose reasons are the sentences alone);
    ``sealed`` as in ``view.seat_view``."""
    view = seat_view(game, seat, sealed)
    out = view.to_json()
    reasons: dict[str, Any] = {}
    for card, _ in view.refusals:
        refusal = game.refusal(Move(seat, PLAYS[card]))
        assert refusal is not None
        reasons[card.text] = refusal.to_json()
    out["refusals"] = reasons
    return out


@dataclass(frozen=True, slots=True)
class Turn:
    """A table after a step, and the public events of that step, in order."""

    table: Table
    events: tuple[Event, ...]

    def events_json(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.events]


def _bot_action(table: Table, game: Game) -> Action:
    """The bot's choice; should a bot ever fail or choose what the rules refuse, the
    first legal action instead, so that no game can get stuck on a bot's bug (the
    moves are stored, so a replay is unaffected by the bot changing later)."""
    assert game.turn is not None
    legal = game.legal_actions()
    try:
        action = bots.decide(
            table.level, game.view(game.turn), seed=table.bot_seed, version=table.bot_version
        )
    except Exception as exc:
        # Said without the traceback or the action: either could name a hidden card.
        log.error(
            "a %s bot failed (%s); it plays the first legal action", table.level, type(exc).__name__
        )
        return legal[0]
    if action not in legal:
        log.error("a %s bot chose an illegal action; it plays the first legal one", table.level)
        return legal[0]
    return action


def check_level(level: str, bot_version: str | None = None) -> None:
    """Raise ValueError unless the level's computer players, of that version of their
    play, can be made here."""
    if level not in bots.LEVELS:
        raise ValueError(f"no level {level!r}; levels: {', '.join(bots.LEVELS)}")
    try:
        bots.make_bot(level, bot_version)
    except ImportError:
        raise ValueError(f"the {level} level is not available yet") from None


def hand_events(game: Game) -> list[Event]:
    """Every event of a hand so far, as seat 0 saw them (for a review, or a resync)."""
    state = Game.from_deal(game.rules, game.dealer, game.dealt, game.blind, game.multiplier)
    events: list[Event] = []
    for move in game.moves:
        after = state.apply_move(move)
        events.extend(_events(state, after, move))
        state = after
    return events


def _sheet_line(number: int, game: Game, seed: bytes) -> dict[str, Any]:
    """A finished hand's line, with its deal's fingerprint and seed (to check the deal)."""
    result = game.result()
    assert result is not None
    return {
        "hand": number,
        "dealer": game.dealer,
        "picker": result.picker,
        "partners": list(result.partners),
        "result": result.result.value,
        "multiplier": result.multiplier,
        "scores": list(result.scores),
        "seed_sha256": seed_commitment(seed),
        "seed": seed.hex(),
    }


# Events: public facts in words --------------------------------------------------


def _says(seat: int, verb: str, third_person: str | None = None) -> str:
    """``'You pass'`` for seat 0, ``'Ann passes'`` for a bot."""
    if seat == HUMAN:
        return f"You {verb}"
    return f"{NAMES[seat]} {third_person or verb + 's'}"


def _card_list(cards: Sequence[Card]) -> str:
    names = [c.name for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _events(before: Game, after: Game, move: Move) -> list[Event]:
    seat, action = move
    events: list[Event] = []
    match action:
        case Pass():
            text = _says(seat, "pass", "passes")
            if after.phase is not before.phase and after.picker is None:
                if after.is_done:
                    text += ": nobody picked, so the hand is thrown in"
                else:
                    text += ": nobody picked, so this hand is a leaster"
            events.append(Event("pass", seat, text))
        case Pick():
            events.append(Event("pick", seat, _says(seat, "pick up the blind", "picks")))
        case Bury(cards):
            if seat == HUMAN:
                text = f"You bury the {_card_list(cards)}"
            else:
                text = f"{NAMES[seat]} buries {len(cards)} cards"
            events.append(Event("bury", seat, text))
        case Call(card, unknown):
            text = _says(seat, f"call the {card.name}", f"calls the {card.name}")
            if unknown is not None:
                text += (
                    f", with the {unknown.name} as the unknown card"
                    if seat == HUMAN
                    else ", with an unknown card"
                )
            events.append(Event("call", seat, text, card=card.text))
        case Alone():
            events.append(Event("alone", seat, _says(seat, "go alone", "goes alone")))
        case Crack():
            events.append(Event("crack", seat, _says(seat, "crack") + ": the hand counts double"))
        case NoCrack():
            events.append(Event("nocrack", seat, _says(seat, "do not crack", "does not crack")))
        case Name(trick):
            text = _says(seat, "name", "names") + f" trick {trick} to take the blind"
            events.append(Event("name", seat, text))
        case Play(card):
            events.extend(_play_events(before, after, seat, card))
    if after.is_done:
        result = after.result()
        assert result is not None
        events.append(_hand_event(result))
    return events


def _face_down(game: Game, seat: int, card: Card) -> bool:
    """Whether seat 0 sees this card only face down (the picker's unknown card)."""
    return card is game.unknown and seat == game.picker and seat != HUMAN


def _play_events(before: Game, after: Game, seat: int, card: Card) -> list[Event]:
    if _face_down(before, seat, card):
        events = [Event("play", seat, f"{NAMES[seat]} plays a card face down", card=FACE_DOWN)]
    else:
        text = _says(seat, f"play the {card.name}", f"plays the {card.name}")
        events = [Event("play", seat, text, card=card.text)]
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        hidden = any(_face_down(before, s, c) for s, c in trick.plays(before.players))
        taker = _says(trick.winner, "take", "takes")
        if hidden:
            # Its points would tell what the face-down card is worth.
            text, points = f"{taker} the trick, with a face-down card", None
        else:
            text, points = f"{taker} the trick: {trick.points} points", trick.points
        events.append(Event("trick", None, text, winner=trick.winner, points=points))
    return events


_RESULT_WORDS = {
    Result.WIN: "wins",
    Result.WIN_SCHNEIDER: "wins with schneider",
    Result.WIN_NO_TRICK: "wins every trick",
    Result.LOSS: "loses",
    Result.LOSS_SCHNEIDER: "loses, schneidered",
    Result.LOSS_NO_TRICK: "loses without a trick",
}


def _names(seats: Sequence[int]) -> str:
    names = [NAMES[s] if s != HUMAN else "you" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _hand_event(result: HandResult) -> Event:
    scores = result.scores
    yours = scores[HUMAN]
    tail = f" You score {yours:+d}." if yours else " You score 0."
    if result.result is Result.DOUBLER:
        return Event(
            "hand",
            None,
            "Everyone passed: the hand is thrown in and the next one counts double.",
            scores=scores,
        )
    if result.leaster:
        assert result.points is not None
        winners = [s for s, score in enumerate(scores) if score > 0]
        if not winners:
            text = "Leaster: everyone ties, nobody scores."
        else:
            verb = "wins" if len(winners) == 1 and winners[0] != HUMAN else "win"
            low = result.points[winners[0]]
            text = f"Leaster: {_capital(_names(winners))} {verb} with {low} points."
        return Event("hand", None, text + tail, scores=scores)
    assert result.picker is not None and result.points is not None
    side = [result.picker, *result.partners]
    who = _capital(_names(side))
    verb = _RESULT_WORDS[result.result]
    if len(side) > 1 or side[0] == HUMAN:
        verb = verb.replace("wins", "win").replace("loses", "lose")
    alone = ", alone," if result.alone else ""
    text = f"{who}{alone} {verb}: {result.points[0]} points."
    return Event("hand", None, text + tail, points=result.points[0], scores=scores)
