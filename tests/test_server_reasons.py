"""The server's reasons as the page says them: every English reason with a part that
varies (a refused character, a length, a wait) is read by a pattern of ``words.js`` and
said in the page's language, checked against the server's own current messages."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from fastapi import HTTPException
from fastapi.testclient import TestClient

from sheepshead import names
from sheepshead.rules import Rules
from sheepshead.server import Settings, create_app, daily_play, i18n
from sheepshead.server.security import RateLimited
from sheepshead.server.settings import Rate
from sheepshead.table import Table, TableConflict
from test_i18n import (
    CARD_CODES,
    LATIN_IN_BENGALI,
    SERVER,
    TRANSLATED,
    WORD,
    english_msgids,
    translated,
)

WORDS_JS = SERVER / "static" / "js" / "words.js"
NODE = shutil.which("node")


def read_in_browser_words(lang: str, reasons: list[str]) -> dict[str, Any]:
    """words.js run by Node as the page runs it, with the page's catalog: for each
    reason the index of the SERVER_PATTERNS entry that reads it (-1: none) and what
    serverText says; and how many patterns there are."""
    assert NODE, "node is needed to run the page scripts' patterns"
    page = {
        "documentElement": {"lang": lang},
        "catalog": json.dumps(i18n.script_messages(lang)),
    }
    script = f"""
const page = {json.dumps(page)};
globalThis.document = {{
  documentElement: page.documentElement,
  getElementById: (id) => (id === "i18n-catalog" ? {{ textContent: page.catalog }} : null),
}};
const words = await import({json.dumps(WORDS_JS.as_uri())});
const reasons = {json.dumps(reasons)};
const read = reasons.map((r) => ({{
  pattern: words.SERVER_PATTERNS.findIndex(([p]) => p.test(r)),
  text: words.serverText(r),
}}));
console.log(JSON.stringify({{ patterns: words.SERVER_PATTERNS.length, read }}));
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


def refused_name(raw: str) -> str:
    with pytest.raises(names.NameRefused) as caught:
        names.check_name(raw)
    return caught.value.reason


def refused_code(raw: str) -> str:
    with pytest.raises(names.CodeRefused) as caught:
        names.parse_code(raw)
    return str(caught.value)


def rate_limited(tmp_path: Path) -> tuple[str, str]:
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
    return str(new_player.json()["detail"]), str(too_many.json()["detail"])


def stale_version() -> str:
    turn = Table.start(Rules(), "beginner", 1, bytes(32))
    with pytest.raises(TableConflict) as caught:
        turn.table.act("pass", turn.table.version + 1)
    return caught.value.reason


def day_players_gone() -> str:
    row = SimpleNamespace(bot_version="standard/0")
    with pytest.raises(HTTPException) as caught:
        daily_play.Daily.playable(cast(Any, None), cast(Any, row))
    assert caught.value.status_code == 503
    return str(caught.value.detail)


@pytest.fixture(scope="module")
def server_reasons(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Every reason with a part that varies that the page can meet, as the server
    words it today (so that a change of wording there fails here)."""
    new_player, too_many = rate_limited(tmp_path_factory.mktemp("rates"))
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
        new_player,
        too_many,
        RateLimited(1, "requests").detail,
        RateLimited(600, "requests").detail,
        stale_version(),
        day_players_gone(),
        refused_name("Bobᚠ"),  # a letter outside the identifier profile
    ]


def test_the_server_reasons_are_the_ones_the_patterns_read(server_reasons: list[str]) -> None:
    assert 'not "☃" (snowman).' in server_reasons[0]
    assert "(U+200B zero width space)" in server_reasons[2]
    assert "at least 3 characters" in server_reasons[4]
    assert "at most 24 characters" in server_reasons[5]
    assert "Cyrillic and Latin" in server_reasons[6]
    assert "minutes" in server_reasons[10] and "network address" in server_reasons[10]
    assert re.search(r"^Too many requests: please wait \d+ seconds", server_reasons[11])
    assert server_reasons[16].startswith("A name may use only letters in common use today")


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_every_server_reason_that_varies_is_read_in_the_pages_language(
    server_reasons: list[str], lang: str
) -> None:
    found = read_in_browser_words(lang, server_reasons)
    unread = [r for r, got in zip(server_reasons, found["read"], strict=True) if got["pattern"] < 0]
    assert not unread, f"no pattern in words.js reads {unread}"
    used = {got["pattern"] for got in found["read"]}
    assert used == set(range(found["patterns"])), "a pattern of words.js reads no server reason"
    texts = [got["text"] for got in found["read"]]
    if lang == "en":
        # English says the server's words, less the English description of a character.
        assert texts[4] == server_reasons[4] and texts[11] == server_reasons[11]
        assert texts[0] == 'A name may use letters, digits, spaces and - _ . \' only, not "☃".'
        return
    english = set(english_msgids())
    for reason, text in zip(server_reasons, texts, strict=True):
        assert text != reason and text not in english, (reason, text)
    # The varying parts are carried over, numbers in the language's digits.
    three, twenty_four = ("৩", "২৪") if lang == "bn" else ("3", "24")
    assert "☃" in texts[0] and '"' in texts[1] and "U+200B" in texts[2]
    assert "U+1680" in texts[3]
    assert three in texts[4] and twenty_four in texts[5]
    assert "snowman" not in texts[0]
    cyrillic = {"bn": "সিরিলিক", "de": "Kyrillisch"}[lang]
    assert cyrillic in texts[6] and cyrillic not in texts[7]
    assert "7KQ2-M9XD-4TPA" in texts[8] and ("১২" if lang == "bn" else "12") in texts[8]
    assert "U" in texts[9]
    assert "ᚠ" in texts[16] and "runic" not in texts[16]
    minutes = re.search(r"\d+", server_reasons[10])
    assert minutes and i18n.digits(minutes.group(), lang) in texts[10]
    assert ("১" if lang == "bn" else "1") in texts[12]
    if lang == "bn":
        for text in texts[4:9] + texts[10:]:
            latin = set(WORD.findall(CARD_CODES.sub(" ", text.replace("7KQ2-M9XD-4TPA", " "))))
            assert not latin - LATIN_IN_BENGALI, text
            assert not re.search(r"[0-9]", text.replace("7KQ2-M9XD-4TPA", "")), text


def test_a_reason_no_pattern_reads_stays_as_the_server_wrote_it() -> None:
    malformed = "name: Field required"
    for lang in TRANSLATED:
        found = read_in_browser_words(lang, [malformed, "seat 0 must follow hearts"])
        assert found["read"][0] == {"pattern": -1, "text": malformed}
        # The engine's reasons, answered by the server, are read as the table reads them.
        assert found["read"][1]["pattern"] == -1
        assert found["read"][1]["text"] == translated(lang)["You must follow {suits}"].replace(
            "{suits}", translated(lang)["hearts"]
        )
