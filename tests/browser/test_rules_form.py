"""The settings form is built from the rule sheet the server serves (``GET /api/v1/rules``):
every preset and every option of the catalog has its control, and choosing a preset sets
the controls to that preset's rules, all from the catalog (``state.js`` has no copy)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from browser.helpers import Visitor
from browser.table import deal_first


def test_the_settings_form_offers_every_preset_and_option_of_the_catalog(
    desktop: Visitor,
) -> None:
    page = desktop.new_page()
    page.goto("/play")
    deal_first(page)
    catalog: dict[str, Any] = page.evaluate("fetch('/api/v1/rules').then((r) => r.json())")
    page.get_by_role("button", name="Settings").click()
    dialog = page.locator("#dlg-settings")
    expect(dialog).to_be_visible()
    presets = dialog.locator('select[name="preset"] option:not([value=""])')
    assert presets.evaluate_all("(os) => os.map((o) => o.value)") == [
        p["name"] for p in catalog["presets"]
    ]
    for group in catalog["groups"]:
        for option in group["options"]:
            control = dialog.locator(f'[name="{option["name"]}"]')
            expect(control).to_have_count(1)
            if option["kind"] != "bool":
                values = control.locator("option").evaluate_all("(os) => os.map((o) => o.value)")
                assert values == [str(v) for v in option["choices"]]
    levels = dialog.locator('select[name="level"] option')
    assert levels.evaluate_all("(os) => os.map((o) => o.value)") == [
        level["name"] for level in catalog["levels"]
    ]
    # A preset chosen sets every control to its rules.
    for preset in catalog["presets"]:
        dialog.locator('select[name="preset"]').select_option(preset["name"])
        for name, value in preset["rules"].items():
            control = dialog.locator(f'[name="{name}"]')
            if isinstance(value, bool):
                assert control.is_checked() == value, (preset["name"], name)
            else:
                assert control.input_value() == str(value), (preset["name"], name)
        assert dialog.locator('select[name="preset"]').input_value() == preset["name"]
    page.keyboard.press("Escape")
    assert desktop.errors == []
