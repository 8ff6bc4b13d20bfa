"""``sheepshead serve`` and ``sheepshead verify``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from sheepshead.cli import main
from sheepshead.deal import deal_cards, seed_commitment

READY = re.compile(r"Sheepshead is ready: open (http://127\.0\.0\.1:\d+/)")


def test_verify_re_derives_a_deal_and_checks_its_hash(capsys: pytest.CaptureFixture[str]) -> None:
    seed = bytes(range(32))
    hands, blind = deal_cards(seed, 5, 6)
    digest = seed_commitment(seed)

    assert main(["verify", seed.hex(), "--sha256", digest]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [f"seed sha256 {digest}", "matches the SHA-256 shown before the hand"]
    assert out[2] == "seat 0: " + " ".join(c.text for c in hands[0])
    assert out[-1] == "blind:  " + " ".join(c.text for c in blind)

    assert main(["verify", seed.hex(), "--players", "3", "--json"]) == 0
    three = json.loads(capsys.readouterr().out)
    assert three["players"] == 3
    assert len(three["hands"]) == 3
    assert len(three["blind"]) == 2

    assert main(["verify", seed.hex(), "--sha256", "0" * 64]) == 1
    assert "DOES NOT MATCH" in capsys.readouterr().out
    assert main(["verify", "not-hex"]) == 2


def test_serve_migrates_then_says_where_to_open_the_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    process = subprocess.Popen(
        [sys.executable, "-m", "sheepshead.cli", "serve", "--port", "0", "--data-dir", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if READY.search(line):
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        reader.join(60)
        found = [m for m in map(READY.search, lines) if m]
        assert found, f"no ready line in {lines!r}"
        url = found[0].group(1)
        # A visit leaves nothing; the first game makes an identity, not Secure on local http.
        visit = httpx.get(url + "api/v1/games/current")
        assert visit.status_code == 404
        assert "set-cookie" not in visit.headers
        response = httpx.post(url + "api/v1/games", json={})
        assert response.status_code == 201
        assert "HttpOnly" in response.headers["set-cookie"]
        assert "Secure" not in response.headers["set-cookie"]
        assert (data / "sheepshead.db").is_file()
    finally:
        process.terminate()
        process.wait(30)
