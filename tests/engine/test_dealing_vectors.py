"""The dealing test vectors of docs/dealing.md, checked against sheepshead.deal.

The vectors are read from the page itself, so the documentation and the code cannot
drift apart; the page's JavaScript reference implementation is run too, when node is
installed.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from sheepshead.cards import Card
from sheepshead.deal import deal_cards, seed_commitment, shuffle

DOC = Path(__file__).resolve().parents[2] / "docs" / "dealing.md"

#: players -> cards a seat, from the deal table.
CARDS_PER_SEAT = {3: 10, 4: 7, 5: 6, 6: 5}

#: The canonical deck, written out independently of sheepshead.cards.DECK.
CANONICAL = [rank + suit for suit in "CSHD" for rank in "789TJQKA"]


@dataclass
class Vector:
    seed: bytes
    sha256: str = ""
    draws: list[int] = field(default_factory=list)
    shuffle: list[str] = field(default_factory=list)
    #: players -> seat -> cards
    hands: dict[int, dict[int, list[str]]] = field(default_factory=dict)
    #: players -> blind
    blind: dict[int, list[str]] = field(default_factory=dict)


_LINE = re.compile(r"^(?P<key>\S+(?: seat \d+| blind)?)\s{2,}(?P<value>.*)$")
_DEAL_KEY = re.compile(r"^(?P<players>\d)-handed (?:seat (?P<seat>\d+)|blind)$")


def parse_vectors(text: str) -> list[Vector]:
    """Every ```text block of the page that starts with a ``seed`` line."""
    vectors = []
    for block in re.findall(r"```text\n(.*?)```", text, flags=re.S):
        lines = block.strip("\n").split("\n")
        if not lines[0].startswith("seed "):
            continue
        vector: Vector | None = None
        for line in lines:
            match = _LINE.match(line.strip())
            assert match, f"unreadable vector line: {line!r}"
            key, value = match["key"], match["value"].strip()
            if key == "seed":
                vector = Vector(b"" if value == "(empty)" else bytes.fromhex(value))
                continue
            assert vector is not None
            if key == "sha256":
                vector.sha256 = value
            elif key == "draws":
                vector.draws = [int(v) for v in value.split()]
            elif key == "shuffle":
                vector.shuffle = value.split()
            else:
                deal = _DEAL_KEY.match(key)
                assert deal, f"unknown vector key: {key!r}"
                players = int(deal["players"])
                if deal["seat"] is None:
                    vector.blind[players] = value.split()
                else:
                    vector.hands.setdefault(players, {})[int(deal["seat"])] = value.split()
        assert vector is not None
        vectors.append(vector)
    return vectors


VECTORS = parse_vectors(DOC.read_text(encoding="utf-8"))
IDS = [v.seed.hex() or "empty" for v in VECTORS]


def texts(cards: tuple[Card, ...]) -> list[str]:
    return [card.text for card in cards]


def test_the_page_has_the_vectors_we_promise() -> None:
    seeds = [v.seed for v in VECTORS]
    assert seeds == [
        b"",
        b"sheepshead",
        bytes.fromhex("00" * 32),
        bytes(range(32)),
        b"reject-58532730",
    ]
    sheepshead = VECTORS[1]
    assert sorted(sheepshead.hands) == [3, 4, 5, 6]
    for vector in VECTORS:
        assert 5 in vector.hands
        assert len(vector.draws) == 31
        assert len(vector.shuffle) == 32


def test_one_vector_pinned_in_this_file() -> None:
    """Guards against a page edited to match a changed algorithm."""
    assert " ".join(texts(shuffle(b""))) == (
        "JH 8C TH AD AH QS KS 7S 9C JD TC AC JC 9S AS QD "
        "8H 9D KC 8D 8S 9H 7H 7C QH KH TD JS KD TS QC 7D"
    )
    assert texts(shuffle(b"reject-58532730"))[:6] == ["TS", "AS", "8H", "QD", "KD", "9C"]


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_commitment(vector: Vector) -> None:
    assert seed_commitment(vector.seed) == vector.sha256
    assert vector.sha256 == hashlib.sha256(vector.seed).hexdigest()


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_shuffle(vector: Vector) -> None:
    assert texts(shuffle(vector.seed)) == vector.shuffle


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_draws_give_the_shuffle(vector: Vector) -> None:
    """The page's draws, applied Fisher-Yates style to the canonical deck, give its shuffle."""
    deck = list(CANONICAL)
    for i, j in zip(range(31, 0, -1), vector.draws, strict=True):
        assert 0 <= j <= i
        deck[i], deck[j] = deck[j], deck[i]
    assert deck == vector.shuffle


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_deal(vector: Vector) -> None:
    for players, seats in vector.hands.items():
        hands, blind = deal_cards(vector.seed, players, CARDS_PER_SEAT[players])
        assert len(hands) == players == len(seats)
        for seat, cards in seats.items():
            assert texts(hands[seat]) == cards
        assert texts(blind) == vector.blind[players]
        # The deal is the shuffle cut in order: seats first, the blind last.
        flat = [c for seat in range(players) for c in seats[seat]] + vector.blind[players]
        assert flat == vector.shuffle


def test_rejected_word_is_really_reached() -> None:
    """Vector 5's seed meets a word at or above the bound on its 13th draw (below 20)."""
    block = hashlib.sha256(b"reject-58532730" + (1).to_bytes(4, "big")).digest()
    word = int.from_bytes(block[16:20], "big")
    assert word == 0xFFFFFFFD
    assert word >= 2**32 - (2**32 % 20)


SEEDS = [b"", b"sheepshead", bytes(32), bytes(range(32)), b"reject-58532730"] + [
    hashlib.sha256(b"extra seed %d" % n).digest() for n in range(200)
]


@pytest.mark.parametrize("players", sorted(CARDS_PER_SEAT))
def test_every_card_exactly_once(players: int) -> None:
    every_card = {Card.parse(text) for text in CANONICAL}
    assert len(every_card) == 32
    k = CARDS_PER_SEAT[players]
    for seed in SEEDS:
        hands, blind = deal_cards(seed, players, k)
        assert all(len(hand) == k for hand in hands)
        assert len(blind) == 32 - players * k
        dealt = [card for hand in hands for card in hand] + list(blind)
        assert len(dealt) == 32
        assert set(dealt) == every_card


def test_different_seeds_give_different_deals() -> None:
    deals = {tuple(texts(shuffle(seed))) for seed in SEEDS}
    assert len(deals) == len(SEEDS)
    hands = {deal_cards(seed, 5, 6)[0][0] for seed in SEEDS}
    assert len(hands) > len(SEEDS) * 0.99  # seat 0's six cards, nearly always distinct


def test_same_seed_same_deal() -> None:
    for seed in SEEDS[:50]:
        first = deal_cards(seed, 5, 6)
        again = deal_cards(bytes(bytearray(seed)), 5, 6)
        assert first == again
        assert shuffle(seed) == shuffle(seed)
        assert seed_commitment(seed) == seed_commitment(bytes(bytearray(seed)))


def test_seed_must_be_bytes() -> None:
    with pytest.raises(TypeError):
        shuffle("sheepshead")  # type: ignore[arg-type]


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_javascript_reference_implementation(tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```js\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 1, "the page has one JavaScript block"
    (tmp_path / "deal.js").write_text(blocks[0], encoding="utf-8")
    cases = [(v, p) for v in VECTORS for p in sorted(v.hands)]
    payload = [{"seed": v.seed.hex(), "players": p, "k": CARDS_PER_SEAT[p]} for v, p in cases]
    (tmp_path / "cases.json").write_text(json.dumps(payload), encoding="utf-8")
    (tmp_path / "run.js").write_text(
        'const { shuffle, deal } = require("./deal.js");\n'
        'const cases = require("./cases.json");\n'
        "console.log(JSON.stringify(cases.map((c) => {\n"
        '  const seed = Buffer.from(c.seed, "hex");\n'
        "  return { shuffle: shuffle(seed), ...deal(seed, c.players, c.k) };\n"
        "})));\n",
        encoding="utf-8",
    )
    assert NODE is not None
    out = subprocess.run(
        [NODE, "run.js"], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True
    )
    results = json.loads(out.stdout)
    assert len(results) == len(cases)
    for (vector, players), result in zip(cases, results, strict=True):
        assert result["shuffle"] == vector.shuffle
        assert result["hands"] == [vector.hands[players][s] for s in range(players)]
        assert result["blind"] == vector.blind[players]
