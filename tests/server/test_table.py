"""The live table: the human in seat 0, bots up to the human's next decision, public events."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheepshead import bots
from sheepshead.actions import Action, Move, Play, parse_action
from sheepshead.cards import Card
from sheepshead.deal import seed_commitment
from sheepshead.events import events_for_seat, hand_events
from sheepshead.game import Game
from sheepshead.record import replay
from sheepshead.refusals import IllegalAction
from sheepshead.rules import PRESETS, Rules
from sheepshead.table import (
    HUMAN,
    NAMES,
    BadAction,
    StaleVersion,
    Table,
    TableConflict,
    Turn,
)
from sheepshead.view import SeatView


def seed(n: int) -> bytes:
    return hashlib.sha256(f"table test {n}".encode()).digest()


def start(rules: Rules | None = None, n: int = 1, bot_seed: int = 7) -> Turn:
    return Table.start(rules or Rules(), "standard", bot_seed, seed(n))


def first_legal(table: Table) -> str:
    legal: list[str] = table.state()["view"]["legal"]
    return legal[0]


def play_hand(table: Table, pick: int = 0) -> tuple[Table, list[Turn]]:
    """Play the human's part by always taking legal action number ``pick`` (mod count)."""
    turns = []
    while not table.hand_over:
        legal = table.state()["view"]["legal"]
        turn = table.act(legal[pick % len(legal)], table.version)
        turns.append(turn)
        table = turn.table
    return table, turns


def test_a_new_table_waits_for_the_human_or_the_end_of_the_hand() -> None:
    turn = start()
    table = turn.table
    assert table.hand_number == 1
    # The seat on the human's right deals, so the human speaks first.
    assert table.game.dealer == table.players - 1
    assert table.game.turn == HUMAN
    assert turn.events == ()
    assert table.version == 1


def test_the_first_dealer_can_be_chosen_and_bots_speak_before_the_human() -> None:
    turn = Table.start(Rules(), "standard", 3, seed(2), first_dealer=0)
    # Seats 1..4 speak first; each of their actions is an event, in seat order.
    seats = [e.seat for e in turn.events if e.type in ("pass", "pick")]
    assert seats == list(range(1, 1 + len(seats)))
    assert seats, "the four bots speak before the dealer"
    assert turn.table.version == 1 + len(turn.table.game.moves)
    assert turn.table.game.turn in (HUMAN, None)


def test_an_action_brings_every_event_up_to_the_humans_next_decision() -> None:
    table = start().table
    turn = table.act("pick", table.version)
    assert [e.type for e in turn.events] == ["pick"]
    assert turn.events_json() == [{"type": "pick", "seat": 0, "text": "You pick up the blind"}]
    table = turn.table
    assert table.game.turn == HUMAN
    assert table.version == 2
    table, turns = play_hand(table)
    for turn in turns:
        assert turn.events[0].seat == HUMAN
        assert all(e.seat != HUMAN for e in turn.events[1:] if e.type != "trick")
        # Each step ends where the human must decide, or with the hand scored.
        assert turn.table.game.turn == HUMAN or turn.events[-1].type == "hand"
    assert turns[-1].events[-1].type == "hand"


def test_stale_versions_bad_text_and_illegal_actions_change_nothing() -> None:
    table = start().table
    before = table.state()
    with pytest.raises(StaleVersion, match="version 1, not 0"):
        table.act("pick", 0)
    with pytest.raises(BadAction, match="cannot read the action"):
        table.act("play XX", table.version)
    with pytest.raises(BadAction):
        table.act("", table.version)
    with pytest.raises(IllegalAction) as caught:
        table.act("play QC", table.version)
    assert caught.value.reason == table.game.why_illegal(Move(HUMAN, parse_action("play QC")))
    assert caught.value.reason == "seat 0 must pick or pass now, not play"
    assert table.state() == before


def test_a_refused_card_is_refused_with_the_reason_the_view_gives() -> None:
    for n in range(40):
        table = start(n=n).table
        while not table.hand_over:
            view = table.state()["view"]
            if view["refusals"]:
                card, refusal = next(iter(view["refusals"].items()))
                with pytest.raises(IllegalAction) as caught:
                    table.act(f"play {card}", table.version)
                assert caught.value.reason == refusal["text"]
                assert caught.value.refusal.to_json() == refusal
                return
            table = table.act(view["legal"][-1], table.version).table
    pytest.fail("no refused card in 40 hands")


def test_the_next_hand_comes_only_after_the_hand_and_the_deal_passes_left() -> None:
    table = start().table
    with pytest.raises(TableConflict, match="not over"):
        table.next_hand(seed(99), table.version)
    table, _ = play_hand(table)
    with pytest.raises(TableConflict, match="hand is over"):
        table.act("pass", table.version)
    with pytest.raises(StaleVersion):
        table.next_hand(seed(99), table.version - 1)
    dealer = table.game.dealer
    turn = table.next_hand(seed(99), table.version)
    assert turn.table.hand_number == 2
    assert turn.table.game.dealer == (dealer + 1) % table.players
    assert turn.table.seed == seed(99)


def test_the_seed_is_shown_as_its_hash_and_revealed_only_after_the_hand() -> None:
    table = start().table
    state = table.state()
    assert state["seed"] is None
    assert state["summary"] is None
    assert not state["hand_over"]
    assert state["seed_sha256"] == seed_commitment(seed(1))
    assert seed(1).hex() not in json.dumps(state)
    table, _ = play_hand(table)
    state = table.state()
    assert state["hand_over"]
    assert state["seed"] == seed(1).hex()
    assert state["summary"]["hands"] == [[c.text for c in h] for h in table.game.dealt]


def test_the_score_sheet_and_running_scores_add_up_hand_by_hand() -> None:
    table = start().table
    totals = [0] * table.players
    for hand in range(1, 5):
        table, turns = play_hand(table, pick=hand)
        last = turns[-1].events_json()[-1]
        assert last["type"] == "hand"
        assert last["scores"] is not None
        assert sum(last["scores"]) == 0
        totals = [a + b for a, b in zip(totals, last["scores"], strict=True)]
        state = table.state()
        assert state["scores"] == totals
        assert [line["hand"] for line in state["score_sheet"]] == list(range(1, hand + 1))
        assert state["score_sheet"][-1]["scores"] == last["scores"]
        table = table.next_hand(seed(100 + hand), table.version).table


@settings(max_examples=12, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    n=st.integers(0, 10_000),
    bot_seed=st.integers(0, 2**63 - 1),
    pick=st.integers(0, 50),
)
def test_a_table_restored_from_its_seeds_and_moves_is_the_same_table(
    preset: str, n: int, bot_seed: int, pick: int
) -> None:
    table = start(PRESETS[preset], n, bot_seed).table
    for hand in range(2):
        table, _ = play_hand(table, pick)
        table = table.next_hand(seed(n + 1 + hand), table.version).table
    if not table.hand_over:
        table = table.act(first_legal(table), table.version).table
    restored = Table.restore(
        table.rules, table.level, table.bot_seed, table.match.first_dealer, table.hands()
    )
    assert restored.state() == table.state()
    assert restored.version == table.version
    # The bots are deterministic: the restored table meets the same answers.
    if not restored.hand_over:
        action = first_legal(table)
        assert restored.act(action, restored.version).events == (
            table.act(action, table.version).events
        )


def test_restore_refuses_moves_that_do_not_replay() -> None:
    with pytest.raises(ValueError, match="out of turn"):
        Table.restore(Rules(), "standard", 1, 4, [(seed(1), ["1 pass"])])
    with pytest.raises(ValueError, match="must pick or pass now"):
        Table.restore(Rules(), "standard", 1, 4, [(seed(1), ["0 play QC"])])


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="no level"):
        Table.start(Rules(), "grandmaster", 1, seed(1))


def _unknown_call_hand() -> Game:
    """Seat 1 picks, holding both black aces and no heart, and calls AH with JC unknown."""
    game = replay(
        {
            "format": "sheepshead-hand/1",
            "dealer": 0,
            "hands": [
                ["KH", "9H", "8H", "7C", "8C", "9C"],
                ["QC", "QS", "QH", "QD", "JC", "JS"],
                ["TH", "7H", "KC", "TC", "7S", "8S"],
                ["AH", "JH", "JD", "AD", "TD", "KD"],
                ["9S", "TS", "KS", "9D", "8D", "7D"],
            ],
            "blind": ["AC", "AS"],
            "actions": ["1 pick", "1 bury JS QD", "1 call AH unknown JC"],
        }
    )
    # Play on, leading hearts whenever possible, until the hand is done.
    while not game.is_done:
        legal = game.legal_actions()
        hearts = [a for a in legal if str(a).endswith("H")]
        game = game.apply(hearts[0] if hearts and not game.trick_cards else legal[0])
    return game


def test_events_keep_the_bury_and_the_unknown_card_hidden() -> None:
    game = _unknown_call_hand()
    events = events_for_seat(hand_events(game), HUMAN, NAMES)
    texts = json.dumps(events)
    bury = next(e for e in events if e["type"] == "bury")
    assert bury["text"] == "Ann buries 2 cards"
    assert bury["cards"] is None
    assert bury["count"] == 2
    call = next(e for e in events if e["type"] == "call")
    assert call["card"] == "AH"
    assert call["unknown"] == "??"
    assert call["text"] == "Ann calls the ace of hearts, with an unknown card"
    face_down = [e for e in events if e["type"] == "play" and e["card"] == "??"]
    assert len(face_down) == 1
    assert face_down[0]["seat"] == 1
    assert face_down[0]["text"] == "Ann plays a card face down"
    # The trick's points would give away what the face-down card is worth.
    at = events.index(face_down[0])
    trick = next(e for e in events[at:] if e["type"] == "trick")
    assert trick["points"] is None
    assert "face-down" in trick["text"]
    for hidden in ("jack of clubs", "jack of spades", "queen of diamonds", "JC", "JS", "QD"):
        assert hidden not in texts
    result = game.result()
    assert result is not None
    assert events[-1]["type"] == "hand"
    assert events[-1]["scores"] == list(result.scores)


def test_the_called_card_falling_shows_in_the_event_and_the_view() -> None:
    game = _unknown_call_hand()
    # AH is held by seat 3 (Cal): the partner, known to all once the ace is played.
    events = events_for_seat(hand_events(game), HUMAN, NAMES)
    plays = [e for e in events if e["type"] == "play" and e["card"] == "AH"]
    assert [(e["seat"], e["text"]) for e in plays] == [(3, "Cal plays the ace of hearts")]
    assert 3 in game.view(0).known_partners


def test_the_humans_own_events_say_you_and_show_its_own_bury() -> None:
    table = start().table
    table = table.act("pick", table.version).table
    bury = first_legal(table)
    turn = table.act(bury, table.version)
    event = turn.events_json()[0]
    assert event["type"] == "bury"
    assert event["seat"] == HUMAN
    first, second = (Card.parse(text) for text in bury.split()[1:])
    assert event["text"] == f"You bury the {first.name} and {second.name}"
    assert event["cards"] == [first.text, second.text]
    assert event["count"] == 2


def test_restore_can_start_from_the_settled_match_of_finished_hands() -> None:
    table = start().table
    for hand in range(3):
        table, _ = play_hand(table, hand)
        table = table.next_hand(seed(50 + hand), table.version).table
    table = table.act(first_legal(table), table.version).table
    settled = table.settled()
    assert settled.current is None
    assert len(settled.hands) == 3
    args = (table.rules, table.level, table.bot_seed, table.match.first_dealer, table.hands())
    quick = Table.restore(*args, settled=settled)
    assert quick.state() == Table.restore(*args).state() == table.state()
    assert quick.version == table.version
    with pytest.raises(ValueError, match="settled"):
        Table.restore(*args, settled=table.match)  # a hand still in progress


def test_a_failing_or_cheating_bot_cannot_stall_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(level: str, view: SeatView, seed: int = 0) -> Action:
        if view.seat % 2:
            raise RuntimeError("a bot's bug")
        return Play(Card.parse("QC"))  # rarely legal, never when picking

    monkeypatch.setattr(bots, "decide", broken)
    turn = Table.start(Rules(), "standard", 1, seed(3), first_dealer=0)
    # Every bot fell back to its first legal action: pass, in picking.
    assert [e.type for e in turn.events] == ["pass"] * 4
    assert turn.table.game.turn == HUMAN
