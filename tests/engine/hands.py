"""Shared helpers for the engine's tests: hands written in card text.

``deal_of("QC JD AC 7C KS 9H / ... / * | TH 8S")`` builds a deal: one group of cards
per seat, seats separated by ``/``, the blind after ``|``. A ``*`` hand gets the next
unused cards in deck order, so a test spells out only the hands it is about.
``run(game, "1 pass", "2 pick", ...)`` applies record-text moves, seat included.
"""

from __future__ import annotations

from sheepshead.actions import Move, parse_move
from sheepshead.cards import DECK, Card, parse_cards
from sheepshead.game import Game
from sheepshead.rules import Rules


def deal_of(
    text: str, rules: Rules | None = None
) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
    rules = rules or Rules()
    hands_text, _, blind_text = text.partition("|")
    groups = [g.strip() for g in hands_text.split("/")]
    assert len(groups) == rules.players, f"{len(groups)} hands for {rules.players} players"
    named = [None if g == "*" else parse_cards(g) for g in groups]
    blind = parse_cards(blind_text) if blind_text.strip() != "*" else None
    used = {c for h in named if h for c in h} | set(blind or ())
    spare = iter([c for c in DECK if c not in used])
    hands = [
        h if h is not None else tuple(next(spare) for _ in range(rules.cards_per_seat))
        for h in named
    ]
    if blind is None:
        blind = tuple(next(spare) for _ in range(rules.blind_size))
    return hands, blind


def game_of(text: str, rules: Rules | None = None, dealer: int = 0, multiplier: int = 1) -> Game:
    rules = rules or Rules()
    hands, blind = deal_of(text, rules)
    return Game.from_deal(rules, dealer, hands, blind, multiplier)


def run(game: Game, *moves: str) -> Game:
    """Apply moves written as in a record (``"2 bury 8S TH"``); several may share one
    string, separated by commas."""
    for chunk in moves:
        for text in chunk.split(","):
            if text.strip():
                game = game.apply_move(parse_move(text))
    return game


def reason(game: Game, move: str) -> str | None:
    """Why the engine refuses a move, checking that ``apply`` and ``why_illegal`` agree."""
    parsed: Move = parse_move(move)
    why = game.why_illegal(parsed)
    try:
        game.apply_move(parsed)
    except ValueError as exc:
        refused: str | None = str(exc)
    else:
        refused = None
    assert refused == why, (refused, why)
    return why


def legal(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def plays(game: Game) -> list[str]:
    """The cards the seat to act may play, as text, sorted."""
    return sorted(c.text for c in game.legal_cards())
