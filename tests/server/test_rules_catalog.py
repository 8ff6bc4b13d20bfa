"""The rule sheet served as data (``GET /api/v1/rules``, ``#rules-catalog`` in the table's
page): it is what ``rules.py`` defines, so that a new option or preset is one Python
change, and the page (``state.js``, the settings form) builds on it alone."""

from __future__ import annotations

import json
import re

from server.helpers import TestClient
from sheepshead import bots
from sheepshead.rules import DEAL_TABLE, PRESETS, RULE_FIELDS, Rules, full_record
from sheepshead.server import i18n

STATE_JS = i18n.LOCALE_DIR.parent / "server" / "static" / "js" / "state.js"


def test_the_served_catalog_is_what_rules_py_defines(client: TestClient) -> None:
    reply = client.get("/api/v1/rules")
    assert reply.status_code == 200
    served = reply.json()
    # Every option of Rules, once, with its default and, for a choice, every value.
    options = [o for group in served["groups"] for o in group["options"]]
    assert {o["name"] for o in options} == set(RULE_FIELDS)
    assert len(options) == len(RULE_FIELDS)
    assert {o["name"]: o["default"] for o in options} == full_record(Rules())
    assert served["defaults"] == full_record(Rules())
    for option in options:
        assert option["title"]
        if option["kind"] == "choice":
            assert set(option["choice_titles"]) == set(option["choices"])
            for value in option["choices"]:
                Rules.from_record({option["name"]: value, "players": _fitting(value)})
    # Every preset, in order, as a full rules object that plays as the preset.
    assert [p["name"] for p in served["presets"]] == list(PRESETS)
    for preset in served["presets"]:
        assert Rules.from_record(preset["rules"]) == PRESETS[preset["name"]]
        assert preset["title"]
    assert served["head_counts"] == sorted(DEAL_TABLE)
    for players, deal in served["deal_table"].items():
        rules = Rules(players=int(players))
        assert (deal["cards_per_seat"], deal["blind"]) == (rules.cards_per_seat, rules.blind_size)
        assert served["default_partner"][players] == rules.partner.value
    assert [level["name"] for level in served["levels"]] == list(bots.LEVELS)
    # The table's page carries the same catalog for its scripts.
    page = client.get("/play").text
    embedded = re.search(r'<script type="application/json" id="rules-catalog">(.*?)</script>', page)
    assert embedded
    assert json.loads(embedded.group(1)) == served


def _fitting(value: str) -> int:
    """A head count the partner rule ``value`` is played with (others: the default)."""
    return {"jack-of-diamonds": 6, "none": 3}.get(value, 5)


def test_the_page_keeps_no_copy_of_the_rules() -> None:
    source = STATE_JS.read_text("utf-8")
    for copy in ('"called-ace"', '"jack-of-diamonds"', "players: 5", "[3, 4, 5, 6]", '"expert"'):
        assert copy not in source, copy
