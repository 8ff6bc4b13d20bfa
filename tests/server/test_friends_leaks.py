"""No seat of a friends' table is sent a card it may not see: 60 hands at tables of
3 to 6 with 2 to 5 people (``bench/friends_leaks.py`` plays hundreds)."""

from __future__ import annotations

import random

import pytest
from fastapi import FastAPI

from server.friends_scan import play

#: (seats, people, hands): 60 hands in all.
TABLES = [(3, 2, 10), (4, 3, 10), (5, 2, 10), (5, 4, 10), (6, 5, 10), (6, 3, 10)]


@pytest.mark.parametrize(("players", "humans", "hands"), TABLES)
def test_no_message_to_any_seat_holds_a_card_it_may_not_see(
    app: FastAPI, players: int, humans: int, hands: int
) -> None:
    scan = play(app, players, humans, hands, random.Random(players * 10 + humans))
    assert scan.hands == hands
    assert scan.messages > hands * humans
    assert scan.leaks == []
