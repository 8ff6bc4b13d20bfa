"""A live table: the human in seat 0, computer players in every other seat.

A table is a ``Match`` (hand after hand, the deal passing left) plus what makes it
live: the seeds of its hands, the bots' level and seed, and a ``version`` that
counts every change (each hand dealt, each action taken, bots' included).
``act(action_text, version)`` applies the human's action and lets the bots play
up to the human's next decision (or the end of the hand), returning the public
events in order (``events.py``: typed facts, each sent only to the seats that may
see it). Tables are immutable; seeds come from outside, so the same
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
    Move,
    parse_action,
    parse_move,
)
from sheepshead.deal import seed_commitment
from sheepshead.events import Event, events_for_seat, events_of
from sheepshead.game import Game
from sheepshead.match import Match, sheet_line
from sheepshead.record import result_json, to_record
from sheepshead.refusals import IllegalAction
from sheepshead.rules import Rules
from sheepshead.view import SeatView, hand_worth, seat_view

__all__ = [
    "HUMAN",
    "NAMES",
    "BadAction",
    "StaleVersion",
    "Table",
    "TableConflict",
    "Turn",
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

    def score_sheet(self) -> list[dict[str, Any]]:
        """Every finished hand's line of the score sheet, from the first."""
        return [sheet_line(n, g, self.seeds[n - 1]) for n, g in enumerate(self.match.hands, 1)]

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
        assert before is not None
        assert before.turn is not None
        seat = before.turn
        match = self.match.apply(action)
        after = match.current if match.current is not None else match.hands[-1]
        events.extend(events_of(before, after, Move(seat, action)))
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

    def state(
        self,
        sealed: bool = False,
        sheet: Sequence[dict[str, Any]] | None = None,
        seat: int = HUMAN,
    ) -> dict[str, Any]:
        """Everything ``seat`` (seat 0 at a solo table) may know, as JSON (the API's
        TableState without its id).

        ``sheet``: the score sheet's lines as stored when each hand ended, if the caller
        has them (so that they are not made again for every reply).

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
            "view": view_json(game, sealed and over, view, seat),
            "worth": hand_worth(view).to_json(),
            "scores": list(self.match.scores),
            "score_sheet": list(sheet) if sheet is not None else self.score_sheet(),
            "seed_sha256": seed_commitment(self.seed),
            "seed": self.seed.hex() if over else None,
            "summary": summary,
            "hand_over": over,
        }


def view_json(
    game: Game, sealed: bool = False, view: SeatView | None = None, seat: int = HUMAN
) -> dict[str, Any]:
    """``seat``'s view, each refused card's reason as ``{code, params, text}`` (the bots
    read ``SeatView.to_json()`` itself, whose reasons are the sentences alone);
    ``sealed`` as in ``view.seat_view``; ``view``, that view if the caller has it."""
    if view is None:
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
    """A table after a step, and the events of that step, in order: every fact, the
    hidden ones included (``events.py``); ``events_json`` is what seat 0 may see."""

    table: Table
    events: tuple[Event, ...]

    def events_json(self) -> list[dict[str, Any]]:
        """The events seat 0 may see, as the API sends them (``events_for_seat``)."""
        return events_for_seat(self.events, HUMAN, names_for(self.table.players))


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
