"""The guided first game (``sheepshead/lesson.py``): its deals still play as written
(the computer players are frozen), every step teaches what its words say, and every
step has its words and its refusal in the catalog."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from server.helpers import make_client
from sheepshead import lesson, phrases
from sheepshead.actions import parse_action
from sheepshead.cards import Card
from sheepshead.game import Game
from sheepshead.refusals import IllegalAction
from sheepshead.server import Settings, create_app

STEPS = lesson.walk()


def test_the_lesson_plays_to_its_end_and_covers_each_lesson() -> None:
    kinds = [step.kind for step, _ in STEPS]
    assert len(STEPS) == sum(len(moves) for _, moves in lesson.LESSON_HANDS)
    # Picking, the bury, calling, following suit, trumps (led, followed, trumping in)
    # and schmearing, in the order a hand meets them.
    assert kinds[:3] == ["pick", "bury", "call"]
    for kind in ("follow", "lead-trump", "follow-trump", "trump-in", "schmear"):
        assert kind in kinds, kind
    assert set(kinds) <= set(lesson.KINDS)


def test_every_kind_has_its_words_and_its_refusal() -> None:
    for kind in lesson.KINDS:
        assert set(phrases.LESSON[kind]) == {"do", "rule"}
        assert "you" in phrases.REFUSALS[f"lesson-{kind}"]


@pytest.mark.parametrize(("step", "game"), STEPS, ids=[s.action for s, _ in STEPS])
def test_each_step_is_what_its_words_say(step: lesson.Step, game: Game) -> None:
    view = game.view(0)
    action = parse_action(step.action)
    assert action in view.legal
    if "card" in step.params and step.kind != "call":
        card = Card.parse(step.params["card"])
        led = view.trick.cards[0] if view.trick.cards else None
        if step.kind == "follow":
            assert led is not None
            assert not led.is_trump
            assert card.fail_suit == led.fail_suit
        elif step.kind == "trump-in":
            assert led is not None
            assert card.is_trump
            assert all(c.fail_suit != led.fail_suit for c in view.cards)
        elif step.kind == "follow-trump":
            assert led is not None
            assert led.is_trump
            assert card.is_trump
        elif step.kind == "lead-trump":
            assert led is None
            assert card.is_trump
        elif step.kind == "schmear":
            assert card.points >= 10
            assert len(view.trick.cards) >= 3


def test_a_card_the_rules_refuse_and_a_choice_the_lesson_does_not_take() -> None:
    at = lesson.start()
    with pytest.raises(lesson.OffLesson) as off:
        at.act("pass", at.table.version)
    assert off.value.code == "lesson-pick"
    at = lesson.at_version(_version_of(5))
    assert at.step is not None
    assert at.step.kind == "follow"
    with pytest.raises(IllegalAction) as illegal:
        at.act("play JC", at.table.version)
    assert illegal.value.refusal.code == "must-follow"


def _version_of(number: int) -> int:
    at = lesson.start()
    while at.step is None or at.step.number < number:
        at, _ = (
            at.next_hand(at.table.version)
            if at.step is None
            else at.act(at.step.action, at.table.version)
        )
    return at.table.version


def test_the_api_refuses_with_codes_and_rebuilds_from_the_version() -> None:
    app = create_app(Settings(data_dir=Path(tempfile.mkdtemp()), dev=True))
    client = make_client(app)
    state = client.get("/api/v1/lesson").json()
    assert state["lesson"]["step"]["kind"] == "pick"
    refused = client.post("/api/v1/lesson/actions", json={"action": "pass", "version": 1})
    assert refused.status_code == 422
    assert refused.json()["code"] == "lesson-pick"
    step = client.post("/api/v1/lesson/actions", json={"action": "pick", "version": 1}).json()
    assert step["state"]["lesson"]["step"]["kind"] == "bury"
    assert step["state"]["view"]["blind"] is not None
    stale = client.post("/api/v1/lesson/actions", json={"action": "pick", "version": 999})
    assert stale.status_code == 409
    assert stale.json()["code"] == "stale-version"
    again = client.get(f"/api/v1/lesson?version={step['state']['version']}").json()
    assert again["view"] == step["state"]["view"]
    app.state.engine.dispose()
