"""Table states the dealing rarely gives in a few hands (a crack, the unknown card),
made by the engine itself: a seed and the moves that reach the position, replayed by
``Table.restore`` and written as the API writes them (``state_json``). A browser test
serves one as the reply that starts a game, so the page draws exactly that state."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from typing import Any

from playwright.sync_api import Page, Route

from sheepshead.actions import Call, Crack, NoCrack, Pass, Pick, Play
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import Rules
from sheepshead.server.tables import state_json
from sheepshead.table import Table

GAME_ID = "ab" * 16


def _state(rules: Rules, dealer: int, seed: bytes, game: Game) -> dict[str, Any]:
    moves = [str(m) for m in game.moves]
    table = Table.restore(rules, "standard", 1, dealer, [(seed, moves)])
    return state_json(GAME_ID, table)


def cracked() -> dict[str, Any]:
    """Cracking on: Ann picks and calls, Bob cracks; the player leads the first trick."""
    rules = Rules(cracking=True)
    for i in itertools.count():
        seed = hashlib.sha256(b"cracked %d" % i).digest()
        game = Game.deal(rules, 4, seed).apply(Pass()).apply(Pick())
        game = game.apply(game.legal_actions()[0])  # the bury
        calls = [a for a in game.legal_actions() if isinstance(a, Call) and a.unknown is None]
        if not calls:
            continue
        game = game.apply(calls[0])
        while game.phase is Phase.CRACKING:
            legal = game.legal_actions()
            game = game.apply(Crack() if game.turn == 2 and Crack() in legal else NoCrack())
        if game.cracks == (2,) and game.turn == 0:
            return _state(rules, 4, seed, game)
    raise AssertionError("unreachable")


def _unknown_led(seed: bytes) -> Game | None:
    """Ann (first to speak, the player deals) picks, calls with an unknown card and
    leads it face down; the others follow up to the player."""
    game = Game.deal(Rules(), 0, seed).apply(Pick())
    for bury in game.legal_actions():
        buried = game.apply(bury)
        for call in buried.legal_actions():
            if not (isinstance(call, Call) and call.unknown is not None):
                continue
            called = buried.apply(call)
            lead = Play(call.unknown)
            if lead not in called.legal_actions():
                continue
            played = called.apply(lead)
            while played.turn != 0:
                played = played.apply(played.legal_actions()[0])
            return played
    return None


def unknown_led() -> dict[str, Any]:
    """The player's turn on a trick the picker led with the unknown card, face down."""
    for i in itertools.count():
        seed = hashlib.sha256(b"unknown led %d" % i).digest()
        game = _unknown_led(seed)
        if game is not None:
            return _state(Rules(), 0, seed, game)
    raise AssertionError("unreachable")


def unknown_over() -> dict[str, Any]:
    """The same kind of hand played to its end: the summary can name the unknown card."""
    for i in itertools.count():
        seed = hashlib.sha256(b"unknown led %d" % i).digest()
        game = _unknown_led(seed)
        if game is None:
            continue
        rng = random.Random(i)
        while game.phase is not Phase.DONE:
            game = game.apply(rng.choice(game.legal_actions()))
        return _state(Rules(), 0, seed, game)
    raise AssertionError("unreachable")


def serve(page: Page, state: dict[str, Any]) -> None:
    """Start the page's game with ``state``: the reply to its first request for a game."""
    body = json.dumps({"state": state, "events": []})

    def fulfil(route: Route) -> None:
        if route.request.method == "POST":
            route.fulfill(status=201, content_type="application/json", body=body)
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(state))

    page.route("**/api/v1/games", fulfil)
    page.route("**/api/v1/games/current", fulfil)
    # The coach's count of hints (coach.js): none asked for in a position made up here.
    page.route(
        f"**/api/v1/games/{GAME_ID}/hints",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body='{"hints": {}}'
        ),
    )


def fresh(rules: Rules | None = None) -> dict[str, Any]:
    """A new deal: the player speaks first (picking)."""
    rules = rules or Rules()
    seed = b"\x05" * 32
    return _state(rules, rules.players - 1, seed, Game.deal(rules, rules.players - 1, seed))


def burying() -> dict[str, Any]:
    """The player picked: the blind is in the hand, two cards to bury."""
    seed = b"\x05" * 32
    game = Game.deal(Rules(), 4, seed).apply(Pick())
    return _state(Rules(), 4, seed, game)
