"""The table page and everything it loads stay small: at most 150 KB over the wire."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, Request

from browser.helpers import DESKTOP
from browser.table import deal_first

pytestmark = pytest.mark.browser

BUDGET = 150 * 1024


def test_the_table_page_weighs_at_most_150_kb_compressed(
    browser: Browser, server: str, artifacts: Path
) -> None:
    # A plain context (no test proxy in between), so bodies arrive as the server sent them.
    context = browser.new_context(viewport=DESKTOP, base_url=server, reduced_motion="reduce")
    page = context.new_page()
    sizes: dict[str, tuple[int, str]] = {}

    def finished(request: Request) -> None:
        response = request.response()
        encoding = response.header_value("content-encoding") if response else None
        body = request.sizes()["responseBodySize"]
        if body < 0 and response is not None:
            # Not reported (served from the memory cache): count its full length.
            body = int(response.header_value("content-length") or len(response.body()))
        sizes[urlparse(request.url).path] = (body, encoding or "identity")

    page.on("requestfinished", finished)
    page.goto("/play")
    deal_first(page)
    page.wait_for_load_state("networkidle")
    context.close()
    total = sum(size for size, _ in sizes.values())
    report = {"total_bytes": total, "budget_bytes": BUDGET, "files": sizes}
    (artifacts / "page-weight.json").write_text(json.dumps(report, indent=2))
    for path, (size, encoding) in sorted(sizes.items(), key=lambda item: -item[1][0]):
        print(f"{size:7d}  {encoding:8s}  {path}")
    print(f"{total:7d}  total ({total / 1024:.1f} KiB; budget {BUDGET // 1024} KiB)")
    assert any(path.endswith(".js") for path in sizes), sizes
    # What compresses well arrives compressed.
    large = [p for p, (size, enc) in sizes.items() if size > 2000 and enc == "identity"]
    assert large == [], f"sent uncompressed: {large}"
    assert total <= BUDGET
