"""The rule sheet served to the page as data (``GET /api/v1/rules``, and ``#rules-catalog``
in the table's page): the options with their defaults and choices, the presets, the
head counts and deal table, and the computer players' levels. The page keeps no copy
of them (``static/js/state.js`` reads this), and the settings form is built from it
(``templates/table.html``), so a new option or preset is a change to ``rules.py`` only.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jinja2
from fastapi import APIRouter

from sheepshead import bots, rules
from sheepshead.server.i18n import N_

router = APIRouter(prefix="/api/v1", tags=["rules"])

#: Each level's title, as the settings form offers it.
LEVEL_TITLES: dict[str, str] = {
    "beginner": N_("Beginner"),
    "standard": N_("Standard"),
    "expert": N_("Expert"),
}


@cache
def rules_catalog() -> dict[str, Any]:
    """``rules.catalog()`` and the levels, titles in English (the page translates them)."""
    return {
        **rules.catalog(),
        "levels": [{"name": level, "title": LEVEL_TITLES[level]} for level in bots.LEVELS],
        "default_level": "standard",
    }


@router.get("/rules")
def get_rules() -> dict[str, Any]:
    """The rule sheet as data: options, defaults, presets, head counts, deal table, levels
    (``docs/api.md``, Rules)."""
    return rules_catalog()


def install(env: jinja2.Environment) -> None:
    """Give templates ``rules_catalog()``."""
    env.globals["rules_catalog"] = rules_catalog
