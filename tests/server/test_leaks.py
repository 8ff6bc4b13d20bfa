"""No response ever holds a card seat 0 may not see, nor a seed before its hand is over.

Complete random hands are played through the API under every preset and a few house
rules. Every response body of a hand is kept; when the hand is over its record gives
the truth (every deal, the blind, the bury, the unknown card), and each body is
checked against what seat 0 could know at that point: its own cards, the blind if it
picked, the cards played face up, and the called card. Cards are looked for both as
text (``QC``) and in words (``queen of clubs``), anywhere in the body.

A daily deal stays sealed after it is over, until its day ends: the bodies of today's
finished deals are held to what seat 0 saw by the end (the tricks, with the unknown
card; the blind and bury only if it picked), and show no other seat's hand.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from server.helpers import Json, TestClient, make_client
from sheepshead import daily_game
from sheepshead.actions import Call, Move, Pass, Pick, parse_move
from sheepshead.cards import DECK, Card
from sheepshead.events import events_for_seat, events_of, hand_events
from sheepshead.game import Game
from sheepshead.record import replay, to_record
from sheepshead.rules import PRESETS, Rules
from sheepshead.server import Settings, create_app
from sheepshead.server.identity import COOKIE
from sheepshead.store import StoredHand
from sheepshead.store.daily_store import DailyStore

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


def side_points_seat_0_may_know(game: Game) -> tuple[int | None, int | None]:
    """From the truth: the picker's side's card points as seat 0 may know them (the
    tricks of the picker, of partners shown to all, of seat 0 if it is a partner; the
    face-down card's points left out unless seat 0 is the picker; the bury for the
    picker only), and the bury's points for the picker only."""
    if game.picker is None:
        return None, None
    side = {game.picker}
    if game.called is not None:
        played = [c for t in game.tricks for c in t.cards] + list(game.trick_cards)
        if game.rules.second_partner:
            side.add((game.picker - 1) % game.players)
        if game.called in played:
            side |= {s for s in game.partners if game.called in game.dealt[s]}
    if 0 in game.partners:
        side.add(0)
    hidden = game.unknown if game.picker != 0 else None
    points = sum(
        c.points for t in game.tricks if t.winner in side for c in t.cards if c is not hidden
    )
    if game.picker != 0:
        return points, None
    bury = sum(c.points for c in game.bury)
    return points + bury, bury


def check_worth(body: str, game: Game) -> None:
    """The state's `worth` says no more than seat 0 may know (a hand not yet over)."""
    try:
        parsed = json.loads(body)
    except ValueError:
        return
    state = parsed.get("state", parsed) if isinstance(parsed, dict) else None
    if not isinstance(state, dict) or "view" not in state:
        return
    assert "worth" in state, "a state without its worth"
    worth = state["worth"]
    side, bury = side_points_seat_0_may_know(game)
    assert worth["side_points"] == side, (worth, side)
    assert worth["bury_points"] == bury, (worth, bury)
    assert worth["multiplier"] == game.multiplier * 2 ** len(game.cracks), worth


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
        check_worth(body, game)
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
    honest = (
        '{"view":{"cards":["7C"]},"worth":{"side_points":null,"bury_points":null,'
        '"multiplier":1},"seed":null}'
    )
    check_hand([(1, honest)], end, record)
    for leak in (
        honest.replace('"7C"', '"7S"'),  # seat 1's card, as text
        '{"detail":"the ace of diamonds"}',  # the blind, in words
        honest.replace("null}", '"' + "ab" * 32 + '"}'),  # the seed
        honest.replace("null}", '"00"}'),  # a state without "seed": null
        # Points on the picker's side before anyone picked.
        '{"view":{},"worth":{"side_points":0,"bury_points":null,"multiplier":1},"seed":null}',
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
    player = app.state.identities.new_player()  # an identity with no game yet
    client.cookies.set(COOKIE, player)
    seed, moves = _bot_calls_an_unknown_card()
    game_id = store.create_game(
        player, {}, "standard", 4, 12345, 1 + len(moves), [StoredHand(1, seed, tuple(moves), False)]
    )
    response = client.get(f"/api/v1/games/{game_id}")
    state = response.json()
    assert state["view"]["unknown_call"]
    assert state["view"]["unknown"] is None
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


# Today's daily deals, finished -------------------------------------------------------

DAILY_SECRET = "leak scan secret"
#: Noon in Chicago: the day is far from over.
DAILY_NOON = datetime(2025, 6, 1, 17, 0, tzinfo=UTC)


def seen_by_the_end(game: Game) -> set[Card]:
    """What seat 0 may know of a finished deal whose day is not over: its own hand,
    the blind and bury if it picked, every card played (the unknown card face up once
    scored), and the called card. Another seat's bury, a leaster's blind: never."""
    known = set(game.dealt[0]) | {c for t in game.tricks for c in t.cards}
    if game.picker == 0:
        known |= set(game.blind) | set(game.bury)
    if game.called is not None:
        known.add(game.called)
    return known


def check_sealed(bodies: list[str], game: Game, secrets: list[str]) -> None:
    for body in bodies:
        leaked = cards_in(body) - seen_by_the_end(game)
        assert not leaked, f"a finished deal shows {sorted(c.text for c in leaked)}"
        assert not any(secret in body for secret in secrets), "a seed showed"
        found = json.loads(body)
        summary = (found.get("state") or found).get("summary")
        if summary is not None:
            assert summary["hands"][1:] == [None] * 4, "another seat's hand showed"


def test_today_s_finished_daily_deals_show_no_card_seat_0_did_not_see(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path,
        dev=True,
        daily_secret=DAILY_SECRET,
        daily_level="standard",
        rate_identities=None,
        rate_actions=None,
        rate_actions_per_address=None,
    )
    app = create_app(settings)
    app.state.daily_clock = lambda: DAILY_NOON
    try:
        client = make_client(app)
        day_seed = daily_game.day_seed(DAILY_SECRET.encode(), DAILY_NOON.date())
        secrets = [day_seed.hex()] + [daily_game.deal_seed(day_seed, k).hex() for k in range(5)]
        rng = random.Random("daily leaks")
        base = "/api/v1/daily/attempts"
        response = client.post(base)
        state = response.json()["state"]
        reads = [base + "/{id}", base + "/current"]
        store = DailyStore(app.state.engine)
        hidden_bury = 0
        for k in range(daily_game.DEALS):
            start = (moves_of(state), response.text)
            state, bodies = play_and_record(client, rng, state, base, reads)
            attempt = store.attempt(state["id"], client.cookies[COOKIE])
            assert attempt is not None
            dealt = daily_game.deal(day_seed, k)
            truth = {
                "format": "sheepshead-hand/1",
                "dealer": dealt.dealer,
                "hands": [[c.text for c in hand] for hand in dealt.dealt],
                "blind": [c.text for c in dealt.blind],
                "actions": list(attempt.moves[k]),
            }
            check_hand([start, *bodies], {"seed": secrets[k + 1]}, truth)
            # The deal is over: every reply about it, and every read, stays sealed.
            game = replay(truth)
            url = f"{base}/{state['id']}"
            finished = [bodies[-1][1], client.get(url).text, client.get(base + "/current").text]
            finished.append(client.get(f"{url}/deals/{k + 1}/record").text)
            check_sealed(finished, game, secrets)
            hidden_bury += game.picker not in (None, 0)
            if k + 1 < daily_game.DEALS:
                response = client.post(f"{url}/next-deal", json={"version": state["version"]})
                assert response.status_code == 200, response.text
                state = response.json()["state"]
        assert hidden_bury, "no deal had another seat's bury to hide"
    finally:
        app.state.daily.close()
        app.state.engine.dispose()


def _partner_wins_before_showing() -> tuple[Json, Game]:
    """A record where seat 2 picks and calls, and seat 0 (a defender) has seen the
    hidden partner win a trick without playing the called card."""
    rules = Rules()
    for i in itertools.count():
        seed = hashlib.sha256(b"partner %d" % i).digest()
        game = Game.deal(rules, 1, seed)  # seat 2 speaks first
        game = game.apply(Pick())
        rng = random.Random(i)
        while game.phase.value != "done":
            game = game.apply(rng.choice(game.legal_actions()))
            if game.picker != 2 or game.alone or 0 in game.partners:
                break
            partner = next(iter(game.partners), None)
            played = [c for t in game.tricks for c in t.cards] + list(game.trick_cards)
            hidden = game.called is not None and game.called not in played
            if hidden and any(t.winner == partner for t in game.tricks) and not game.trick_cards:
                record = to_record(game)
                return record, game
    raise AssertionError("unreachable")


def test_the_checker_catches_side_points_a_defender_may_not_know() -> None:
    record, game = _partner_wins_before_showing()
    end = {"seed": "ab" * 32}
    moves = len(game.moves)
    partner = next(iter(game.partners))
    own = sum(t.points for t in game.tricks if t.winner == game.picker)
    theirs = sum(t.points for t in game.tricks if t.winner == partner)
    bury = sum(c.points for c in game.bury)
    assert theirs > 0 or bury > 0

    def body(side: int, bury_points: int | None = None) -> str:
        worth = {"side_points": side, "bury_points": bury_points, "multiplier": 1}
        return json.dumps({"view": {}, "worth": worth, "seed": None})

    check_hand([(moves, body(own))], end, record)
    leaks = [body(own + theirs)] if theirs else []  # the hidden partner's tricks
    if bury:
        leaks += [body(own + bury), body(own, bury)]  # the bury, to a defender
    for leak in leaks:
        with pytest.raises(AssertionError):
            check_hand([(moves, leak)], end, record)


# The typed events, per seat -------------------------------------------------------------


def visible_to(seat: int, game: Game) -> set[Card]:
    """What ``seat`` may know of where cards are, in this (true) state of a hand: its
    own cards, the blind and bury if it picked, the cards played face up, the called card."""
    known = set(game.dealt[seat])
    if game.picker == seat:
        known |= set(game.blind)
    face_down = game.unknown if game.picker != seat else None
    played = [c for t in game.tricks for c in t.cards] + list(game.trick_cards)
    known |= {c for c in played if c is not face_down}
    if game.called is not None:
        known.add(game.called)
    return known


def _seat_events_hand(rules: Rules, seed: bytes, rnd: random.Random) -> list[tuple[Game, Any]]:
    """A random hand, each step's (state after it, its events), calling an unknown card
    and picking whenever allowed so that the hidden facts come up."""
    game = Game.deal(rules, rules.players - 1, seed)
    steps = []
    while not game.is_done:
        legal = game.legal_actions()
        unknown = [a for a in legal if isinstance(a, Call) and a.unknown is not None]
        picks = [a for a in legal if isinstance(a, Pick)]
        action = (unknown or picks or legal)[0] if unknown or picks else rnd.choice(legal)
        assert game.turn is not None
        move = Move(game.turn, action)
        after = game.apply(action)
        steps.append((after, events_of(game, after, move)))
        game = after
    return steps


@pytest.mark.parametrize("rules", RULES, ids=lambda r: json.dumps(r, sort_keys=True))
def test_each_seat_is_sent_only_the_events_it_may_see(rules: Json) -> None:
    """Every seat, every step of random hands: the events sent to that seat name no card
    it may not see (as text or in words), and keep a face-down trick's points from it;
    the picker alone is sent its bury and its unknown card."""
    rnd = random.Random(json.dumps(rules, sort_keys=True))
    rule_set = Rules.from_record(rules)
    names = [f"P{s}" for s in range(rule_set.players)]
    shown_to_picker: set[str] = set()
    for n in range(3):
        for after, events in _seat_events_hand(rule_set, b"seat events %d" % n, rnd):
            for seat in range(rule_set.players):
                sent = events_for_seat(events, seat, names)
                body = json.dumps(sent)
                assert len(sent) == len(events), "every event is sent, redacted where hidden"
                if after.is_done:
                    continue
                leaked = cards_in(body) - visible_to(seat, after)
                assert not leaked, (seat, sorted(c.text for c in leaked), sent)
                for event in sent:
                    if event["type"] == "trick" and after.unknown is not None:
                        hidden = seat != after.picker and any(
                            c is after.unknown for c in after.tricks[-1].cards
                        )
                        assert not hidden or event["points"] is None, event
                    private = event.get("cards") or event.get("unknown") not in (None, "??")
                    if seat == after.picker and private:
                        shown_to_picker.add(event["type"])
    assert "bury" in shown_to_picker, "the picker is sent its own bury"


def test_a_face_down_card_reaches_the_picker_only() -> None:
    seed, moves = _bot_calls_an_unknown_card()
    game = Game.deal(Rules(), 4, seed)
    for text in moves:
        game = game.apply_move(parse_move(text))
    events = hand_events(_play_out(game))
    unknown = game.unknown
    assert unknown is not None
    assert game.picker == 1
    names = ["You", "Ann", "Bob", "Cal", "Dot"]
    picker = events_for_seat(events, 1, names)
    call = next(e for e in picker if e["type"] == "call")
    assert call["unknown"] == unknown.text
    assert unknown.name in call["text"]
    assert any(e["type"] == "play" and e["card"] == unknown.text for e in picker)
    assert _face_down_trick(picker, unknown.text)["points"] is not None, (
        "the picker knows its own card"
    )
    for seat in (0, 2, 3, 4):
        sent = events_for_seat(events, seat, names)
        call = next(e for e in sent if e["type"] == "call")
        assert call["unknown"] == "??"
        assert unknown.name not in call["text"]
        played = [e for e in sent if e["type"] == "play" and e["seat"] == 1]
        assert FACE_DOWN_CARD in [e["card"] for e in played]
        assert unknown.text not in [e["card"] for e in played]
        bury = next(e for e in sent if e["type"] == "bury")
        assert bury["cards"] is None
        assert bury["count"] == 2
        # Its points would tell what the face-down card is worth.
        assert _face_down_trick(sent, FACE_DOWN_CARD)["points"] is None


def _face_down_trick(sent: list[Json], card: str) -> Json:
    """The trick event that follows the picker's (seat 1's) play of ``card``."""
    at = next(
        i
        for i, e in enumerate(sent)
        if e["type"] == "play" and e["seat"] == 1 and e["card"] == card
    )
    return next(e for e in sent[at:] if e["type"] == "trick")


FACE_DOWN_CARD = "??"


def _play_out(game: Game) -> Game:
    while not game.is_done:
        game = game.apply(game.legal_actions()[0])
    return game
