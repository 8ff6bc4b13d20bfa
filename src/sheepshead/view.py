"""What one seat may know: the only thing bots, the API and the page ever see.

A ``SeatView`` holds the seat's own cards, the public history, and what this seat
alone knows (the picker's blind, bury and unknown card; a partner's own role).
Nothing else: not another seat's cards, not a bury or blind it did not pick, not
the unknown card face up. When the hand is done everything is shown.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sheepshead.actions import Action, Bury, Call, Move, Play
from sheepshead.cards import Card, sorted_for_display
from sheepshead.hand import HandResult, HandState, Phase
from sheepshead.rules import NobodyPicks, Rules

#: How an unknown card played face down looks to the other seats.
FACE_DOWN = "??"


@dataclass(frozen=True, slots=True)
class SeenTrick:
    """A trick as one seat saw it: ``None`` stands for the unknown card played face down."""

    leader: int
    cards: tuple[Card | None, ...]
    winner: int | None

    def seat_of(self, index: int, players: int) -> int:
        return (self.leader + index) % players

    def plays(self, players: int) -> tuple[tuple[int, Card | None], ...]:
        return tuple(((self.leader + i) % players, card) for i, card in enumerate(self.cards))


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    rules: Rules
    dealer: int
    multiplier: int
    phase: Phase
    turn: int | None
    #: This seat's cards now, trump first in rank order, then each fail suit.
    cards: tuple[Card, ...]
    #: The legal actions when it is this seat's turn, sorted by text; () otherwise.
    legal: tuple[Action, ...]
    #: For each card this seat holds but may not play now: the reason, in words.
    refusals: tuple[tuple[Card, str], ...]
    picker: int | None
    #: Seats that passed, in order.
    passes: tuple[int, ...]
    #: The blind: to its picker, or to everyone once the hand is done.
    blind: tuple[Card, ...] | None
    #: The bury: to its picker, or to everyone once the hand is done.
    bury: tuple[Card, ...] | None
    #: The called card (an ace, a ten, JD or JH), None if not called (yet).
    called: Card | None
    unknown_call: bool
    #: The picker's face-down card: to the picker, or to everyone once done.
    unknown: Card | None
    alone: bool
    #: Whether this seat is the picker's partner (a partner knows it; nobody else does).
    partner: bool
    #: Partners everyone knows of: shown by playing the called card, the second
    #: partner on the picker's right, or everyone once the hand is done.
    known_partners: frozenset[int]
    cracks: tuple[int, ...]
    named_trick: int | None
    tricks: tuple[SeenTrick, ...]
    #: The trick being played (its winner is None).
    trick: SeenTrick
    #: The moves as this seat saw them, in record text with hidden cards left out.
    moves: tuple[str, ...]
    result: HandResult | None

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat

    def to_json(self) -> dict[str, Any]:
        """A plain-JSON form, used for the canonical text and by the server."""

        def cards(cs: tuple[Card, ...] | None) -> list[str] | None:
            return None if cs is None else [c.text for c in cs]

        def trick(t: SeenTrick) -> dict[str, Any]:
            return {
                "leader": t.leader,
                "cards": [FACE_DOWN if c is None else c.text for c in t.cards],
                "winner": t.winner,
            }

        return {
            "seat": self.seat,
            "rules": self.rules.to_record(),
            "dealer": self.dealer,
            "multiplier": self.multiplier,
            "phase": self.phase.value,
            "turn": self.turn,
            "cards": cards(self.cards),
            "legal": [str(a) for a in self.legal],
            "refusals": {c.text: reason for c, reason in self.refusals},
            "picker": self.picker,
            "passes": list(self.passes),
            "blind": cards(self.blind),
            "bury": cards(self.bury),
            "called": None if self.called is None else self.called.text,
            "unknown_call": self.unknown_call,
            "unknown": None if self.unknown is None else self.unknown.text,
            "alone": self.alone,
            "partner": self.partner,
            "known_partners": sorted(self.known_partners),
            "cracks": list(self.cracks),
            "named_trick": self.named_trick,
            "tricks": [trick(t) for t in self.tricks],
            "trick": trick(self.trick),
            "moves": list(self.moves),
        }

    def canonical_text(self) -> str:
        """One deterministic text of everything this seat knows (seeds bot decisions)."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))


def _public_move(game: HandState, seat: int, move: Move, done: bool, sealed: bool = False) -> str:
    action = move.action
    if move.seat == seat:
        return str(move)
    if isinstance(action, Bury) and (sealed or not done):
        return f"{move.seat} bury"
    if done:
        return str(move)
    if isinstance(action, Call) and action.unknown is not None:
        return f"{move.seat} call {action.card} unknown"
    if isinstance(action, Play) and action.card is game.unknown and move.seat == game.picker:
        return f"{move.seat} play {FACE_DOWN}"
    return str(move)


def _known_partners(game: HandState) -> frozenset[int]:
    """Partners the whole table knows of before the hand is scored."""
    known: set[int] = set()
    if game.picker is None or game.called is None:
        return frozenset()
    if game.rules.second_partner:
        known.add((game.picker - 1) % game.players)
    called = game.called
    if any(called in t.cards for t in game.tricks) or called in game.trick_cards:
        known.update(s for s in game.partners if called in game.dealt[s])
    return frozenset(known)


def seat_view(game: HandState, seat: int, sealed: bool = False) -> SeatView:
    """What ``seat`` may know of ``game``; ``sealed``: a finished hand whose deal stays
    secret (see the module's text), so its blind and bury stay the picker's."""
    n = game.players
    if type(seat) is not int or not 0 <= seat < n:
        raise ValueError(f"there is no seat {seat!r} at a table of {n}")
    done = game.phase is Phase.DONE
    is_picker = seat == game.picker
    hidden = None if (done or is_picker) else game.unknown

    def seen(cards: tuple[Card, ...], leader: int) -> tuple[Card | None, ...]:
        if hidden is None or hidden not in cards:
            return cards
        return tuple(None if c is hidden else c for c in cards)

    tricks = tuple(SeenTrick(t.leader, seen(t.cards, t.leader), t.winner) for t in game.tricks)
    trick = SeenTrick(game.trick_leader, seen(game.trick_cards, game.trick_leader), None)

    known: frozenset[int] = game.partners if done else _known_partners(game)

    my_turn = game.turn == seat
    legal = game.legal_actions() if my_turn else ()
    refusals: tuple[tuple[Card, str], ...] = ()
    if my_turn and game.phase is Phase.PLAYING:
        allowed = set(game.legal_cards())
        refusals = tuple(
            (c, game.why_illegal(Move(seat, Play(c))) or "")
            for c in sorted_for_display(game.hands[seat])
            if c not in allowed
        )
    picked_or_done = is_picker or (done and not sealed)
    call = next((m.action for m in game.moves if isinstance(m.action, Call)), None)
    return SeatView(
        seat=seat,
        rules=game.rules,
        dealer=game.dealer,
        multiplier=game.multiplier,
        phase=game.phase,
        turn=game.turn,
        cards=sorted_for_display(game.hands[seat]),
        legal=legal,
        refusals=refusals,
        picker=game.picker,
        passes=tuple(m.seat for m in game.moves if str(m.action) == "pass"),
        blind=game.blind if picked_or_done and (done or game.picker is not None) else None,
        bury=game.bury if picked_or_done and game.picker is not None else None,
        called=game.called,
        unknown_call=isinstance(call, Call) and call.unknown is not None,
        unknown=game.unknown if is_picker or done else None,
        alone=game.alone,
        partner=seat in game.partners,
        known_partners=known,
        cracks=game.cracks,
        named_trick=game.named_trick,
        tricks=tricks,
        trick=trick,
        moves=tuple(_public_move(game, seat, m, done, sealed) for m in game.moves),
        result=game.result(),
    )


# What the hand is worth, as one seat knows it ----------------------------------------


@dataclass(frozen=True, slots=True)
class Doubling:
    """One thing that multiplied the hand: ``times`` over, for ``reason`` (``doubler``:
    the hand follows a thrown-in one; ``crack``: ``seat`` cracked; ``bump``: the
    picker's side lost with double on the bump)."""

    reason: str
    times: int
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class HandWorth:
    """The state of the hand for the table to show, made from a ``SeatView`` alone, so it
    cannot tell a seat anything its view does not.

    ``kind``: ``picking`` (nobody has picked yet), ``picker`` (a picker with a partner,
    or before the call), ``alone``, ``leaster`` or ``thrown-in``.
    ``side_points``: card points in the tricks won by the seats this seat knows to be on
    the picker's side (the bury too, for the picker only); None with no picker, and in a
    finished hand the scored total. ``face_down``: one of those tricks holds the unknown
    card face down, whose points are not in the sum. ``bury_points``: the picker's own.
    ``multiplier``: what the scores are multiplied by as far as known now (the bump
    only once the hand is lost), with its ``doublings``; ``bump_if_lost``: a loss of
    the picker's side would double it again.
    """

    kind: str
    side_points: int | None
    face_down: bool
    bury_points: int | None
    multiplier: int
    doublings: tuple[Doubling, ...]
    bump_if_lost: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side_points": self.side_points,
            "face_down": self.face_down,
            "bury_points": self.bury_points,
            "multiplier": self.multiplier,
            "doublings": [
                {"reason": d.reason, "times": d.times, "seat": d.seat} for d in self.doublings
            ],
            "bump_if_lost": self.bump_if_lost,
        }


def _kind(view: SeatView) -> str:
    if view.picker is not None:
        return "alone" if view.alone else "picker"
    if view.phase is Phase.PICKING:
        return "picking"
    if view.phase is Phase.DONE and not view.tricks:
        return "thrown-in"
    return "leaster"


def _bump_applies(view: SeatView) -> bool:
    """Whether a loss of the picker's side doubles: as ``Game.result`` decides it."""
    rules = view.rules
    forced = rules.nobody_picks is NobodyPicks.FORCED_PICK and view.picker == view.dealer
    return rules.double_on_the_bump and not (forced and not rules.forced_pick_bump)


def _side_points(view: SeatView) -> tuple[int | None, bool]:
    """The picker's side's card points as this seat knows them, and whether a face-down
    card was left out."""
    if view.picker is None:
        return None, False
    if view.result is not None and view.result.points is not None:
        return view.result.points[0], False
    side = {view.picker, *view.known_partners}
    if view.partner:
        side.add(view.seat)
    points, face_down = 0, False
    for trick in view.tricks:
        if trick.winner not in side:
            continue
        for card in trick.cards:
            if card is None:
                face_down = True
            else:
                points += card.points
    if view.seat == view.picker and view.bury is not None:
        points += sum(c.points for c in view.bury)
    return points, face_down


def hand_worth(view: SeatView) -> HandWorth:
    """What the hand is worth now, for the seat whose view this is."""
    doublings: list[Doubling] = []
    if view.multiplier > 1:
        doublings.append(Doubling("doubler", view.multiplier))
    doublings.extend(Doubling("crack", 2, seat) for seat in view.cracks)
    multiplier = view.multiplier * 2 ** len(view.cracks)
    bump = view.picker is not None and _bump_applies(view)
    result = view.result
    if result is not None and result.result.is_loss and bump:
        doublings.append(Doubling("bump", 2))
        multiplier *= 2
    points, face_down = _side_points(view)
    bury_points = None
    if view.seat == view.picker and view.bury is not None:
        bury_points = sum(c.points for c in view.bury)
    return HandWorth(
        kind=_kind(view),
        side_points=points,
        face_down=face_down,
        bury_points=bury_points,
        multiplier=multiplier,
        doublings=tuple(doublings),
        bump_if_lost=bump and result is None,
    )
