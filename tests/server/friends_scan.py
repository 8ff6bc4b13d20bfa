"""A leak scan of friends' tables: people play random hands through the service, and
after every change every seat's messages (the reply to its own action, and what its
socket is sent: ``Friends.state`` with ``Friends.events_since``) are searched for any
card that seat may not see, and for the hand's seed before the hand is over.

Used by ``tests/server/test_friends_leaks.py`` (a few hands) and ``bench/friends_leaks.py``
(hundreds).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI

from sheepshead.game import Game
from sheepshead.server.friends_play import Friends
from sheepshead.store.identity import IdentityStore
from sheepshead.view import FACE_DOWN

CARD = re.compile(r"\b(?:[789TJQKA]|10)[CSHD]\b")


@dataclass
class Scan:
    hands: int = 0
    messages: int = 0
    leaks: list[str] = field(default_factory=list)


def _seen(game: Game, seat: int) -> set[str]:
    """The cards ``seat`` may see now."""
    if game.is_done:
        return {c.text for cards in game.dealt for c in cards} | {c.text for c in game.blind}
    seen = {c.text for c in game.dealt[seat]}
    hidden = None if seat == game.picker else game.unknown
    for trick in game.tricks:
        seen |= {c.text for c in trick.cards if c is not hidden}
    seen |= {c.text for c in game.trick_cards if c is not hidden}
    if seat == game.picker:
        seen |= {c.text for c in game.blind} | {c.text for c in game.bury}
    return seen


def _strings(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Every string in a JSON value with its path, leaving out what names a card
    without saying where it lies (a call and its choices, the called card)."""
    if isinstance(value, dict):
        out = []
        for key, item in value.items():
            if key in ("called", "rules") or (key == "card" and value.get("type") == "call"):
                continue
            out += _strings(item, f"{path}.{key}")
        return out
    if isinstance(value, list):
        out = []
        for item in value:
            if isinstance(item, str) and re.match(r"(\d+ )?call ", item):
                continue
            out += _strings(item, path)
        return out
    return [(path, value)] if isinstance(value, str) else []


def check(scan: Scan, game: Game, seed_hex: str, seat: int, message: Any, where: str) -> None:
    scan.messages += 1
    allowed = _seen(game, seat) | {FACE_DOWN}
    for path, text in _strings(message):
        for card in CARD.findall(text):
            if card.replace("10", "T") not in allowed:
                scan.leaks.append(f"{where}: seat {seat} sees {card} at {path}: {text[:80]}")
        if not game.is_done and seed_hex in text:
            scan.leaks.append(f"{where}: seat {seat} sees the seed at {path}")


def play(app: FastAPI, players: int, humans: int, hands: int, rng: random.Random) -> Scan:
    """One table of ``players`` seats, ``humans`` of them people, ``hands`` hands."""
    friends: Friends = app.state.friends
    names = IdentityStore(app.state.engine)
    people = []
    for n in range(humans):
        player = names.new_player()
        names.set_name(player, f"Scan{rng.randrange(10**9)}x{n}", f"k{player}", f"l{player}")
        people.append(player)
    stored = friends.create(people[0], {"players": players}, "beginner", None, False, None)
    code = stored.code
    for player in people[1:]:
        friends.sit(code, player, None)
    step = friends.start(code, people[0])
    scan = Scan()
    seen_version = dict.fromkeys(range(players), 0)
    while scan.hands < hands:
        table = step.table
        assert table is not None
        game = table.game
        seed_hex = table.seed.hex()
        for seat in range(players):
            if step.stored.seats[seat].player_id is None:
                continue
            message = {
                "state": friends.state(step.stored, seat, table),
                "events": friends.events_since(step.stored, table, seat, seen_version[seat]),
            }
            seen_version[seat] = table.version
            check(scan, game, seed_hex, seat, message, f"hand {scan.hands + 1}")
        if table.hand_over:
            scan.hands += 1
            if scan.hands < hands:
                step = friends.next_hand(code, people[0], table.version)[0]
            continue
        turn = game.turn
        assert turn is not None
        person = step.stored.seats[turn].player_id
        assert person is not None, "the computer players acted up to a person's turn"
        legal = table.state(seat=turn)["view"]["legal"]
        step, done = friends.act(code, person, rng.choice(legal), table.version)
        assert step.table is not None
        reply = friends.step_json(step, done, turn)
        check(scan, step.table.game, seed_hex, turn, reply, f"reply, hand {scan.hands + 1}")
    return scan
