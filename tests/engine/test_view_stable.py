"""The bots' decisions are seeded from ``SeatView.canonical_text()``: a seat's view must
read exactly as it did at commit 5b08ee7 (before the rules kernel), or every bot would
play differently from the same position.

``tests/engine/view_digests.json`` holds, per preset, digests of 1,000 random positions' views
(every field's repr, ``to_json()`` and ``canonical_text()``) recorded from 5b08ee7's code:

    git archive 5b08ee7 src | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src python tests/engine/test_view_stable.py > tests/engine/view_digests.json
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import fields
from pathlib import Path

import pytest

from sheepshead.game import Game
from sheepshead.rules import PRESETS

POSITIONS = 1000
#: Positions per digest, so a failure says roughly where.
CHUNK = 100
DIGESTS = Path(__file__).with_name("view_digests.json")


def view_texts(preset: str) -> list[str]:
    """Every seat's view at random points of randomly played hands: one text each."""
    rules = PRESETS[preset]
    rnd = random.Random(f"views {preset}")
    texts: list[str] = []
    hand = 0
    while len(texts) < POSITIONS:
        game = Game.deal(rules, hand % rules.players, b"view %d" % hand)
        hand += 1
        while len(texts) < POSITIONS:
            if rnd.random() < 0.3 or game.is_done:
                view = game.view(rnd.randrange(rules.players))
                shown = [f"{f.name}={getattr(view, f.name)!r}" for f in fields(view)]
                texts.append(
                    "\n".join(
                        [*shown, json.dumps(view.to_json(), sort_keys=True), view.canonical_text()]
                    )
                )
            if game.is_done:
                break
            legal = game.legal_actions()
            game = game.apply(legal[rnd.randrange(len(legal))])
    return texts


def digests(preset: str) -> list[str]:
    texts = view_texts(preset)
    return [
        hashlib.sha256("\n\n".join(texts[i : i + CHUNK]).encode()).hexdigest()[:32]
        for i in range(0, POSITIONS, CHUNK)
    ]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_views_read_as_at_5b08ee7(preset: str) -> None:
    expected = json.loads(DIGESTS.read_text())[preset]
    assert digests(preset) == expected


if __name__ == "__main__":
    print(json.dumps({name: digests(name) for name in sorted(PRESETS)}, indent=1))
