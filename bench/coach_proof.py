"""Proofs for the planted positions (``coach_positions.py``), by the engine alone.

- ``worlds``: hand records that look the same to one seat as the real one: the cards
  it cannot see (the other seats' unplayed cards, and another picker's bury) moved at
  random between their holders, each move kept only if the engine still replays the
  record (so every void shown and every duty of the call still holds).
- ``open_value``: for a card the seat may play, the card points its side takes
  from here to the end when every card is known and both sides play their best (an
  open-card search over ``Game``, alpha-beta on the side's card points).

A schmear is proven to give points away *for nothing* when one other legal card
keeps the seat's side at least 10 card points more than the schmear does in the real
deal and in every one of the worlds; it is proven *right* when no legal card does
better than the schmear in any of them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from sheepshead.actions import Play
from sheepshead.cards import Card
from sheepshead.game import Game, Phase
from sheepshead.record import RecordError, replay

#: Worlds besides the real deal in which a proof must hold.
WORLDS = 48
#: Random moves of hidden cards tried per world.
MOVES = 32


def _side(game: Game, seat: int) -> frozenset[int]:
    """The seats on ``seat``'s side in this deal (every card known)."""
    picker = game.picker
    assert picker is not None
    side = {picker}
    if not game.alone and game.called is not None:
        side |= {s for s, hand in enumerate(game.dealt) if game.called in hand}
    return frozenset(side) if seat in side else frozenset(range(game.players)) - side


def _search(game: Game, side: frozenset[int], alpha: int, beta: int, memo: dict[Any, int]) -> int:
    """Card points ``side`` takes from here on, both sides at their best (exact at the
    start of a trick, where it is remembered; within ``alpha``..``beta`` elsewhere)."""
    if game.phase is not Phase.PLAYING:
        return 0
    key = None
    if not game.trick_cards:
        key = (game.card_masks, game.trick_leader, game.called_led_at is None)
        if key in memo:
            return memo[key]
        alpha, beta = -1, 10**6
    seat = game.turn
    assert seat is not None
    done = len(game.tricks)
    mine = seat in side
    best = -1 if mine else 10**6
    for card in game.legal_cards():
        after = game.apply(Play(card))
        gained = 0
        if len(after.tricks) > done:
            trick = after.tricks[-1]
            gained = trick.points if trick.winner in side else 0
        value = gained + _search(after, side, alpha - gained, beta - gained, memo)
        if mine:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    if key is not None:
        memo[key] = best
    return best


def open_value(game: Game, card: Card, memo: dict[Any, int] | None = None) -> int:
    """The card points the side of the seat to play takes from here on if it plays
    ``card``, every card known and both sides at their best. ``memo`` may be shared by
    the calls on one game (its positions are keyed by every seat's cards)."""
    seat = game.turn
    assert seat is not None
    assert game.phase is Phase.PLAYING
    side = _side(game, seat)
    done = len(game.tricks)
    after = game.apply(Play(card))
    gained = 0
    if len(after.tricks) > done:
        trick = after.tricks[-1]
        gained = trick.points if trick.winner in side else 0
    return gained + _search(after, side, -1, 10**6, {} if memo is None else memo)


def _hidden(game: Game, seat: int) -> list[tuple[int, Card]]:
    """The cards ``seat`` cannot see, as (holder, card); holder -1 is another picker's bury."""
    slots = [(s, c) for s in range(game.players) if s != seat for c in game.hands[s]]
    if game.picker != seat:
        slots += [(-1, c) for c in game.bury]
    return slots


def _record(
    record: dict[str, Any], game: Game, seat: int, slots: list[tuple[int, Card]]
) -> dict[str, Any]:
    """``record`` rebuilt with the hidden cards where ``slots`` put them."""
    played: dict[int, list[str]] = {s: [] for s in range(game.players)}
    for text in record["actions"]:
        parts = text.split()
        if parts[1] == "play":
            played[int(parts[0])].append(parts[2])
    hands = [list(h) for h in record["hands"]]
    blind = list(record["blind"])
    actions = list(record["actions"])
    bury = [c.text for s, c in slots if s == -1]
    for s in range(game.players):
        if s != seat:
            hands[s] = played[s] + [c.text for h, c in slots if h == s]
    picker = game.picker
    if bury and picker is not None:
        # Another picker: it takes a blind of exactly the cards it buries.
        blind = bury
        head = [str(picker), "bury"]
        text = f"{picker} bury {' '.join(bury)}"
        actions = [text if t.split()[:2] == head else t for t in actions]
    return {**record, "hands": hands, "blind": blind, "actions": actions}


def worlds(record: dict[str, Any], seat: int, rnd: random.Random) -> Iterator[Game]:
    """Games that ``seat`` cannot tell from ``replay(record)``, one at a time, for ever."""
    game = replay(record)
    base = _hidden(game, seat)
    while True:
        slots = list(base)
        current = record
        for _ in range(MOVES):
            i, j = rnd.randrange(len(slots)), rnd.randrange(len(slots))
            if slots[i][0] == slots[j][0]:
                continue
            trial = list(slots)
            trial[i], trial[j] = (slots[i][0], slots[j][1]), (slots[j][0], slots[i][1])
            candidate = _record(record, game, seat, trial)
            try:
                replay(candidate)
            except (RecordError, ValueError):
                continue
            slots, current = trial, candidate
        yield replay(current)
