"""No response ever holds a card seat 0 may not see, nor a seed before its hand is over.

Complete random hands are played through the API under every preset and a few house
rules. Every response body of a hand is kept; when the hand is over its record gives
the truth (every deal, the blind, the bury, the unknown card), and each body is
checked against what seat 0 could know at that point: its own cards, the blind if it
picked, the cards played face up, and the called card. Cards are looked for both as
text (``QC``) and in words (``queen of clubs``), anywhere in the body.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
from typing import Any

import pytest
from fastapi import FastAPI

from api.helpers import Json, TestClient
from sheepshead.actions import Call, Pass, Pick
from sheepshead.cards import DECK, Card
from sheepshead.game import Game
from sheepshead.record import replay
from sheepshead.rules import PRESETS, Rules
from sheepshead.server.identity import COOKIE
from sheepshead.store import StoredHand

CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])(?:[789TJQKA]|10)[CSHD](?![0-9A-Za-z])")
RULES: list[dict[str, Any]] = [
    *(PRESETS[name].to_record() for name in sorted(PRESETS)),
    {"cracking": True, "leaster_blind": "named-trick"},
    {"players": 6, "second_partner": True},
    {"alone": False, "call_ten": False},
]
#: The checkers' own tests: a hand dealt in deck order, seats 0 and 1 passed.
TWO_PASSES: Json = {
    "format": "sheepshead-hand/1",
    "dealer": 4,
    "hands": [[c.text for c in DECK[i * 6 : i * 6 + 6]] for i in range(5)],
    "blind": [c.text for c in DECK[30:]],
    "actions": ["0 pass", "1 pass"],
}
Bodies = list[tuple[int, str]]


def visible_to_seat_0(game: Game) -> set[Card]:
    """What seat 0 may know of where cards are, in this (true) state of a hand."""
    known = set(game.dealt[0])
    if game.picker == 0:
        known |= set(game.blind)
    face_down = game.unknown if game.picker not in (None, 0) else None
    played = [c for t in game.tricks for c in t.cards] + list(game.trick_cards)
    known |= {c for c in played if c is not face_down}
    if game.called is not None:
        known.add(game.called)
    if game.picker == 0:
        # The cards the picker may call are named as choices: that says where they
        # are not (seat 0's own hand), never where they are.
        known |= {a.card for a in game.legal_actions() if isinstance(a, Call)}
    return known


def cards_in(body: str) -> set[Card]:
    found = {Card.parse(text) for text in CARD_TEXT.findall(body)}
    lowered = body.lower()
    found |= {card for card in DECK if card.name in lowered}
    return found


def check_hand(bodies: list[tuple[int, str]], end: Json, record: Json) -> None:
    """Each body of a hand, sent after the given number of moves, against the truth."""
    seed = end["seed"]
    assert seed is not None
    full = replay(record)
    start = replay({**record, "actions": []})
    for moves, body in bodies:
        game = start
        for move in full.moves[:moves]:
            game = game.apply_move(move)
        if game.is_done:
            continue
        leaked = cards_in(body) - visible_to_seat_0(game)
        assert not leaked, f"after {moves} moves the body shows {sorted(c.text for c in leaked)}"
        assert seed not in body, "the seed showed before the hand was over"
        if '"state"' in body or '"view"' in body:
            assert '"seed":null' in body.replace(" ", "")


def moves_of(state: Json) -> int:
    return len(state["view"]["moves"])


def play_and_record(
    client: TestClient,
    rng: random.Random,
    state: Json,
    base: str,
    reads: list[str],
    *,
    always_read: bool = False,
) -> tuple[Json, Bodies]:
    """Play seat 0's part of the current hand at random, with a refused card, a stale
    copy and the `reads` now and then (after every move if `always_read`); the last
    state and every body."""
    bodies: Bodies = []
    while not state["hand_over"]:
        url = f"{base}/{state['id']}/actions"
        body = {"action": rng.choice(state["view"]["legal"]), "version": state["version"]}
        refusals = list(state["view"]["refusals"])
        if refusals and rng.random() < 0.3:
            bad = client.post(url, json={**body, "action": f"play {rng.choice(refusals)}"})
            assert bad.status_code == 422, bad.text
            bodies.append((moves_of(state), bad.text))
        reply = client.post(url, json=body)
        assert reply.status_code == 200, reply.text
        state = reply.json()["state"]
        bodies.append((moves_of(state), reply.text))
        if rng.random() < 0.2:
            stale = client.post(url, json=body)
            assert stale.status_code == 409, stale.text
            bodies.append((moves_of(state), stale.text))
        if always_read or rng.random() < 0.3:
            for read in reads:
                bodies.append((moves_of(state), client.get(read.format(id=state["id"])).text))
    return state, bodies


@pytest.mark.parametrize("rules", RULES, ids=lambda r: "-".join(f"{k}={v}" for k, v in r.items()))
def test_random_hands_never_show_a_hidden_card_or_the_seed(
    client: TestClient, rules: dict[str, Any]
) -> None:
    rng = random.Random(repr(rules))
    response = client.post("/api/v1/games", json={"rules": rules})
    assert response.status_code == 201
    state = response.json()["state"]
    game_id = state["id"]
    for _hand in range(3):
        start = (moves_of(state), response.text)
        # Seat 0's moves, with the game read after each.
        state, bodies = play_and_record(
            client, rng, state, "/api/v1/games", ["/api/v1/games/{id}"], always_read=True
        )
        number = state["hand_number"]
        record = client.get(f"/api/v1/games/{game_id}/hands/{number}/record").json()
        check_hand([start, *bodies], state, record)
        response = client.post(
            f"/api/v1/games/{game_id}/next-hand", json={"version": state["version"]}
        )
        assert response.status_code == 200
        state = response.json()["state"]


def test_the_checker_catches_a_leak() -> None:
    record = TWO_PASSES
    end = {"seed": "ab" * 32}
    honest = '{"view":{"cards":["7C"]},"seed":null}'
    check_hand([(1, honest)], end, record)
    for leak in (
        '{"view":{"cards":["7S"]},"seed":null}',  # seat 1's card, as text
        '{"detail":"the ace of diamonds"}',  # the blind, in words
        '{"view":{},"seed":"' + "ab" * 32 + '"}',  # the seed
        '{"view":{},"seed":"00"}',  # a state without "seed": null
    ):
        with pytest.raises(AssertionError):
            check_hand([(1, leak)], end, record)


def _bot_calls_an_unknown_card() -> tuple[bytes, list[str]]:
    """A seed and moves where seat 0 passes, Ann picks and calls with an unknown card."""
    for i in itertools.count():
        seed = hashlib.sha256(b"unknown %d" % i).digest()
        game = Game.deal(Rules(), 4, seed).apply(Pass()).apply(Pick())
        for bury in game.legal_actions():
            buried = game.apply(bury)
            calls = [a for a in buried.legal_actions() if isinstance(a, Call) and a.unknown]
            if calls:
                return seed, [str(m) for m in buried.apply(calls[0]).moves]
    raise AssertionError("unreachable")


def test_a_bots_unknown_card_stays_face_down_until_the_hand_is_over(
    app: FastAPI, client: TestClient
) -> None:
    store = app.state.store
    player = store.new_player()  # an identity with no game yet
    client.cookies.set(COOKIE, player)
    seed, moves = _bot_calls_an_unknown_card()
    game_id = store.create_game(
        player, {}, "standard", 4, 12345, 1 + len(moves), [StoredHand(1, seed, tuple(moves), False)]
    )
    response = client.get(f"/api/v1/games/{game_id}")
    state = response.json()
    assert state["view"]["unknown_call"] and state["view"]["unknown"] is None
    bodies = [(moves_of(state), response.text)]
    rng = random.Random(5)
    while not state["hand_over"]:
        response = client.post(
            f"/api/v1/games/{game_id}/actions",
            json={"action": rng.choice(state["view"]["legal"]), "version": state["version"]},
        )
        state = response.json()["state"]
        bodies.append((moves_of(state), response.text))
    record = client.get(f"/api/v1/games/{game_id}/hands/1/record").json()
    check_hand(bodies, state, record)
    assert any('"??"' in body for _, body in bodies[:-1]), "the unknown card was never played"
    assert state["view"]["unknown"] == moves[-1].split()[-1]  # shown once the hand is over
