"""Positions to test the coach with, made by the engine alone (``Game``, random legal
play), never by the coach's or the bots' code; used by ``bench/coach.py`` and
``tests/bots/test_coach.py``.

- ``planted``: from the third trick on, a seat to play schmears its dearest legal card
  (10+ card points) onto a trick whose winning trump nobody can beat any more (every
  higher trump is out, whatever the hidden cards), while it holds a legal card worth at
  least 10 points less. An *error* when the trick's winner is a known opponent of the
  seat and the open-card proof of ``coach_proof`` shows the points given away for
  nothing: one of the cheaper cards keeps the seat's side at least 10 card points more,
  in the real deal and in each of 48 other deals the seat cannot tell from it. A
  *control* when the winner is a known ally and the same proof shows the schmear right
  (no legal card does better in any of those deals).
- ``moved``: the same record with two unplayed cards of the same suit swapped between
  two other seats: the seat to be judged cannot tell the two apart.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain, islice
from typing import Any

from coach_proof import WORLDS, open_value, worlds
from sheepshead.actions import Action, Alone, Call, Pass, Pick, Play
from sheepshead.cards import Card
from sheepshead.game import Game, Phase
from sheepshead.record import RecordError, replay, to_record
from sheepshead.rules import preset

#: Positions are taken from this trick on (0-based): the open-card proof of the
#: later tricks is cheap (at most four cards a seat).
FIRST = 2


@dataclass(frozen=True)
class Planted:
    record: dict[str, Any]
    seat: int
    #: True: the schmear gives the points to a known opponent; False: to a known ally.
    error: bool
    schmear: Card


def _random_auction(game: Game, rnd: random.Random) -> Game:
    """Somebody picks (a random seat), buries at random and calls an ace or ten (or
    goes alone when it cannot: such deals are skipped by ``planted``)."""
    picker = rnd.randrange(game.players)
    while game.phase is not Phase.PLAYING:
        legal = game.legal_actions()
        action: Action
        if game.phase is Phase.PICKING:
            action = Pick() if game.turn == picker and Pick() in legal else Pass()
            if action not in legal:
                action = legal[0]
        elif game.phase is Phase.CALLING:
            calls = [a for a in legal if isinstance(a, Call) and a.unknown is None]
            action = rnd.choice(calls or [a for a in legal if isinstance(a, Alone)] or list(legal))
        else:
            action = rnd.choice(legal)
        game = game.apply(action)
        if game.phase is Phase.DONE:
            break
    return game


def _knows_sides(game: Game, seat: int, other: int) -> int:
    """+1 when ``seat`` knows ``other`` is an ally, -1 an opponent, 0 when it cannot tell."""
    picker = game.picker
    assert picker is not None
    side = {picker, *game.partners}
    same = 1 if (seat in side) == (other in side) else -1
    called = game.called
    out = called is None or game.alone or any(called in t.cards for t in game.tricks)
    out = out or called in game.trick_cards
    if out or other == picker or seat in game.partners:
        return same
    return 0


def _sure_trump_winner(game: Game) -> int | None:
    """The seat whose trump wins the trick so far, if no unplayed trump can beat it."""
    cards = game.trick_cards
    trumps = [(c.power, i) for i, c in enumerate(cards) if c.is_trump]
    if not trumps:
        return None
    power, at = max(trumps)
    played = {c for t in game.tricks for c in t.cards} | set(cards)
    if any(c.is_trump and c.power > power and c not in played for h in game.dealt for c in h):
        return None
    if any(c.is_trump and c.power > power and c not in played for c in game.blind):
        return None
    return (game.trick_leader + at) % game.players


def _schmear(game: Game, error: bool) -> tuple[Card, Card] | None:
    """The dearest legal card if it is worth 10 points or more and a legal card is worth
    at least 10 less (the schmear and its cheaper alternative), or None."""
    legal = game.legal_cards()
    for rich in sorted(legal, key=lambda c: -c.points):
        cheap = [c for c in legal if c.points <= rich.points - 10]
        if rich.points >= 10 and cheap:
            return rich, cheap[0]
    return None


def _proven(game: Game, record: dict[str, Any], seat: int, rich: Card, error: bool) -> bool:
    """An error: one cheaper legal card keeps the seat's side at least 10 card points more
    than ``rich`` in the real deal and in each of ``WORLDS`` worlds the seat cannot tell
    from it, all played open; a control: no legal card does better than ``rich`` in any
    of them. (Checked world by world; the first that fails ends the proof.)"""
    others = islice(worlds(record, seat, random.Random(str(record["hands"]))), WORLDS)
    legal = game.legal_cards()
    cheap = [c for c in legal if c.points <= rich.points - 10]
    for g in chain([game], others):
        memo: dict[Any, int] = {}
        mine = open_value(g, rich, memo)
        if error:
            cheap = [c for c in cheap if open_value(g, c, memo) - mine >= 10]
            if not cheap:
                return False
        elif any(open_value(g, c, memo) > mine for c in legal if c != rich):
            return False
    return True


def planted(count: int, error: bool, seed: str = "coach-planted") -> Iterator[Planted]:
    """``count`` positions of the kind (at most one per deal), each a record that ends
    with the schmear."""
    rules = preset("standard")
    made = deal = 0
    while made < count:
        rnd = random.Random(f"{seed}/{error}/{deal}")
        digest = hashlib.sha256(f"{seed}/{deal}".encode()).digest()
        game = _random_auction(Game.deal(rules, deal % 5, digest), rnd)
        deal += 1
        if game.alone:
            continue
        while game.phase is Phase.PLAYING:
            seat = game.turn
            assert seat is not None
            # From the third trick on (the open-card proof is cheap there), while the
            # seat still has a choice.
            late = len(game.tricks) >= FIRST and len(game.hands[seat]) > 1
            winner = _sure_trump_winner(game) if late else None
            found = _schmear(game, error) if winner is not None and winner != seat else None
            if found is not None and winner is not None:
                side = _knows_sides(game, seat, winner)
                record = to_record(game)
                if side == (-1 if error else 1) and _proven(game, record, seat, found[0], error):
                    after = game.apply(Play(found[0]))
                    yield Planted(to_record(after), seat, error, found[0])
                    made += 1
                    break
            game = game.apply(rnd.choice(game.legal_actions()))


def cut_at(record: dict[str, Any], seat: int, nth: int) -> dict[str, Any] | None:
    """The record up to and including the seat's ``nth`` card play (None if fewer)."""
    seen = 0
    for i, text in enumerate(record["actions"]):
        parts = text.split()
        if int(parts[0]) == seat and parts[1] == "play":
            seen += 1
            if seen == nth:
                return {**record, "actions": record["actions"][: i + 1]}
    return None


def moved(record: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any] | None:
    """The record with two unplayed cards of one suit swapped between two other seats
    (both still replayable), or None when no such swap is legal."""
    game = replay(record)
    others = [s for s in range(game.players) if s != seat]
    hidden = {game.called, game.unknown}
    swaps = []
    for a in others:
        for b in others:
            if a >= b:
                continue
            for x in game.hands[a]:
                for y in game.hands[b]:
                    same = x.is_trump == y.is_trump and (x.is_trump or x.suit is y.suit)
                    if same and x not in hidden and y not in hidden:
                        swaps.append((x, y))
    rnd.shuffle(swaps)
    for x, y in swaps:
        alt = copy.deepcopy(record)
        alt["hands"] = [[_swap(c, x, y) for c in hand] for hand in alt["hands"]]
        alt["blind"] = [_swap(c, x, y) for c in alt["blind"]]
        try:
            replay(alt)
        except RecordError:
            continue
        return alt
    return None


def _swap(text: str, x: Card, y: Card) -> str:
    return y.text if text == x.text else x.text if text == y.text else text
