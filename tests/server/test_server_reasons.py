"""The server's reasons as the page says them, checked against the server's own current
refusals: every refusal with a code (a card the engine refuses, a rate limit, a stale
version, a display name, a recovery code, a day's computer players gone) is worded by
``words.js`` from its code and params, through the catalog of ``phrases.py`` that the
page carries in its language; the page reads no English."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient

from server.test_i18n import (
    CARD_CODES,
    LATIN_IN_BENGALI,
    SERVER,
    TRANSLATED,
    WORD,
    english_msgids,
    translated,
)
from sheepshead import names
from sheepshead.actions import Move, Play
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import PRESETS, Rules
from sheepshead.server import Settings, create_app, daily_service, i18n, refused
from sheepshead.server.refused import Refused
from sheepshead.server.security import RateLimited
from sheepshead.server.settings import Rate
from sheepshead.table import Table, TableConflict

WORDS_JS = SERVER / "static" / "js" / "words.js"
NODE = shutil.which("node")


def read_in_browser_words(
    lang: str, reasons: list[Any], refusals: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """words.js run by Node as the page runs it, with the page's catalog and phrases: what
    serverText says of each reason (an English string, or a body with its code and
    params), and what refusalText says of each of ``refusals``."""
    assert NODE, "node is needed to run the page scripts"
    page = {
        "documentElement": {"lang": lang},
        "catalog": json.dumps(i18n.script_messages(lang)),
        "phrases": json.dumps(i18n.phrases(lang)),
    }
    script = f"""
const page = {json.dumps(page)};
globalThis.document = {{
  documentElement: page.documentElement,
  getElementById: (id) => (id === "i18n-catalog" ? {{ textContent: page.catalog }}
    : id === "phrases" ? {{ textContent: page.phrases }} : null),
}};
const words = await import({json.dumps(WORDS_JS.as_uri())});
const reasons = {json.dumps(reasons)};
const read = reasons.map((r) => (typeof r === "string" ? {{ text: words.serverText(r) }}
  : {{ text: words.serverText(r.detail, r.code, r.params) }}));
const refusals = {json.dumps(refusals or [])}.map((r) => words.refusalText(r));
console.log(JSON.stringify({{ read, refusals }}));
"""
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def refused_name(raw: str) -> dict[str, Any]:
    with pytest.raises(names.NameRefused) as caught:
        names.check_name(raw)
    exc = caught.value
    return refused.body(exc.reason, exc.code, exc.params)


def refused_code(raw: str) -> dict[str, Any]:
    with pytest.raises(names.CodeRefused) as caught:
        names.parse_code(raw)
    exc = caught.value
    return refused.body(str(exc), exc.code, exc.params)


def rate_limited(tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The server's own 429 reasons: too many requests, too many new players."""
    settings = Settings(
        data_dir=tmp_path,
        rate_identities=Rate(1, 3600),
        rate_actions=None,
        rate_actions_per_address=Rate(2, 60),
    )
    app = create_app(settings)
    try:
        with TestClient(app) as first, TestClient(app) as second:
            assert first.put("/api/v1/daily/me/name", json={"name": "Badger"}).status_code == 200
            new_player = second.put("/api/v1/daily/me/name", json={"name": "Otter"})
            too_many = first.put("/api/v1/daily/me/name", json={"name": "Badger"})
    finally:
        app.state.engine.dispose()
    assert new_player.status_code == too_many.status_code == 429
    return dict(new_player.json()), dict(too_many.json())


def stale_version() -> dict[str, Any]:
    turn = Table.start(Rules(), "beginner", 1, bytes(32))
    with pytest.raises(TableConflict) as caught:
        turn.table.act("pass", turn.table.version + 1)
    return refused.body(caught.value.reason, caught.value.code, caught.value.params)


def limited(seconds: int) -> dict[str, Any]:
    exc = RateLimited(seconds, "requests")
    return refused.body(exc.detail, "too-many-requests", {"seconds": exc.retry_after})


def day_players_gone() -> dict[str, Any]:
    row = SimpleNamespace(bot_version="standard/0")
    with pytest.raises(Refused) as caught:
        daily_service.Daily.playable(cast(Any, None), cast(Any, row))
    exc = caught.value
    assert exc.status_code == 503
    return refused.body(str(exc.detail), exc.code, exc.params)


@pytest.fixture(scope="module")
def server_reasons() -> list[dict[str, Any]]:
    """The refusals of a name, a recovery code and a day's players that the page can
    meet, as the server answers them today (so that a change there fails here)."""
    return [
        refused_name("Bob☃"),
        refused_name('Bob"s'),
        refused_name("Bob\u200b"),
        refused_name("Bob\u1680Ann"),
        refused_name("Bo "),
        refused_name("ﷺﷺ"),
        refused_name("Bobо"),  # a Cyrillic "о"
        refused_name("Bobሀ"),  # Ethiopic: a script the page does not name
        refused_code("7KQ2-M9XD"),
        refused_code("7KQ2-M9XD-4TPU"),
        day_players_gone(),
        refused_name("Bobᚠ"),  # a letter outside the identifier profile
    ]


@pytest.fixture(scope="module")
def coded(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The server's refusals with a code and params, as it answers them today."""
    new_player, too_many = rate_limited(tmp_path_factory.mktemp("rates"))
    return [new_player, too_many, limited(1), limited(600), stale_version()]


def test_the_server_reasons_carry_their_parts_as_params(
    server_reasons: list[dict[str, Any]],
) -> None:
    details = [r["detail"] for r in server_reasons]
    assert 'not "☃" (snowman).' in details[0]
    assert "(U+200B zero width space)" in details[2]
    assert "at least 3 characters" in details[4]
    assert server_reasons[4]["params"]["n"] == 3
    assert "at most 24 characters" in details[5]
    assert "Cyrillic and Latin" in details[6]
    assert server_reasons[6]["params"]["scripts"] == ["Cyrillic", "Latin"]
    assert details[11].startswith("A name may use only letters in common use today")
    assert server_reasons[0]["params"]["shown"] == '"☃"'
    assert server_reasons[2]["params"]["shown"] == "U+200B"
    assert [r["code"] for r in server_reasons[8:11]] == [
        "recovery-code-length",
        "recovery-code-symbol",
        "day-players-gone",
    ]


def test_the_page_reads_no_english_with_patterns() -> None:
    source = WORDS_JS.read_text("utf-8")
    assert "RegExp" not in source
    assert ".exec(" not in source
    assert ".test(" not in source


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_every_server_reason_that_varies_is_worded_from_its_code(
    server_reasons: list[dict[str, Any]], lang: str
) -> None:
    texts = [got["text"] for got in read_in_browser_words(lang, server_reasons)["read"]]
    if lang == "en":
        # English says the server's words, less the English description of a character.
        assert texts[4] == server_reasons[4]["detail"]
        assert texts[0] == 'A name may use letters, digits, spaces and - _ . \' only, not "☃".'
        assert texts[2] == "A name cannot contain control or invisible characters (U+200B)."
        assert texts[10] == server_reasons[10]["detail"]
        return
    english = set(english_msgids())
    for reason, text in zip(server_reasons, texts, strict=True):
        assert text != reason["detail"], (reason, text)
        assert text not in english, (reason, text)
    # The varying parts are carried over, numbers in the language's digits.
    three, twenty_four = ("৩", "২৪") if lang == "bn" else ("3", "24")
    assert "☃" in texts[0]
    assert '"' in texts[1]
    assert "U+200B" in texts[2]
    assert "U+1680" in texts[3]
    assert three in texts[4]
    assert twenty_four in texts[5]
    assert "snowman" not in texts[0]
    cyrillic = {"bn": "সিরিলিক", "de": "Kyrillisch"}[lang]
    assert cyrillic in texts[6]
    assert cyrillic not in texts[7]
    assert "7KQ2-M9XD-4TPA" in texts[8]
    assert ("১২" if lang == "bn" else "12") in texts[8]
    assert "U" in texts[9]
    assert "ᚠ" in texts[11]
    assert "runic" not in texts[11]
    if lang == "bn":
        for text in texts[4:9]:
            latin = set(WORD.findall(CARD_CODES.sub(" ", text.replace("7KQ2-M9XD-4TPA", " "))))
            assert not latin - LATIN_IN_BENGALI, text
            assert not re.search(r"[0-9]", text.replace("7KQ2-M9XD-4TPA", "")), text


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_a_coded_refusal_is_worded_from_its_code_and_params(
    coded: list[dict[str, Any]], lang: str
) -> None:
    assert [body["code"] for body in coded] == [
        "too-many-new-players",
        "too-many-requests",
        "too-many-requests",
        "too-many-requests",
        "stale-version",
    ]
    texts = [got["text"] for got in read_in_browser_words(lang, coded)["read"]]
    if lang == "en":
        # From the params alone, the page says exactly what the server wrote.
        assert texts == [body["detail"] for body in coded]
        return
    english = set(english_msgids())
    for body, text in zip(coded, texts, strict=True):
        assert text != body["detail"], (body, text)
        assert text not in english, (body, text)
    minutes = re.search(r"\d+", coded[0]["detail"])
    assert minutes
    assert i18n.digits(minutes.group(), lang) in texts[0]
    assert i18n.digits("1", lang) in texts[2]
    assert i18n.digits("10", lang) in texts[3]
    assert i18n.digits(str(coded[4]["params"]["now"]), lang) in texts[4]


def engine_refusals() -> list[dict[str, Any]]:
    """One refusal of each code the engine gives a card, from random play."""
    rnd = random.Random("refusals")
    found: dict[str, dict[str, Any]] = {}
    for number in range(400):
        game = Game.deal(
            PRESETS["standard" if number % 2 else "four-handed-called-ace"], 0, b"r%d" % number
        )
        while not game.is_done and len(found) < 6:
            if game.phase is Phase.PLAYING and game.turn is not None:
                for card in game.hands[game.turn]:
                    refusal = game.refusal(Move(game.turn, Play(card)))
                    if refusal is not None:
                        found.setdefault(refusal.code, refusal.to_json())
            legal = game.legal_actions()
            game = game.apply(legal[rnd.randrange(len(legal))])
    return [found[code] for code in sorted(found)]


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_every_refusal_of_a_card_is_worded_from_its_code(lang: str) -> None:
    refusals = engine_refusals()
    assert {r["code"] for r in refusals} >= {
        "must-follow",
        "lead-only-with",
        "must-play-on-first-trick",
        "keep-card",
        "keep-suit",
        "keep-unknown",
    }
    texts = read_in_browser_words(lang, [], refusals)["refusals"]
    fallback = translated(lang).get(
        "You may not play that card now", "You may not play that card now"
    )
    english = set(english_msgids())
    for refusal, text in zip(refusals, texts, strict=True):
        assert text != fallback, refusal
        if lang == "en":
            # The engine's sentence, said to the one reading it.
            who = (
                "the picker" if refusal["params"]["picker"] else f"seat {refusal['params']['seat']}"
            )
            assert text.startswith("You ")
            assert refusal["text"].startswith(who + " ")
        else:
            assert text not in english, (refusal, text)


def test_a_reason_without_a_code_stays_as_the_server_wrote_it() -> None:
    malformed = "name: Field required"
    for lang in TRANSLATED:
        answer = refused.body("seat 0 must follow hearts", "must-follow", {"suit": "H"})
        found = read_in_browser_words(lang, [malformed, answer])
        assert found["read"][0] == {"text": malformed}
        # The engine's refusals, answered by the server, are worded as the table words them.
        assert found["read"][1]["text"] == translated(lang)["You must follow {suits}"].replace(
            "{suits}", translated(lang)["hearts"]
        )
