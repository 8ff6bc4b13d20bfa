"""Draw the web app's PNG icons from their SVGs (``server/static/img/``), with the
Chromium the browser tests use: ``.venv/bin/python tools/make_icons.py``.

The PNGs are committed; run this again after changing ``icon.svg`` or
``icon-maskable.svg``. The manifest (``server/webapp.py``) lists them.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

IMG = Path(__file__).resolve().parents[1] / "src" / "sheepshead" / "server" / "static" / "img"
#: (source, size in pixels, output)
ICONS = (
    ("icon.svg", 192, "icon-192.png"),
    ("icon.svg", 512, "icon-512.png"),
    ("icon-maskable.svg", 512, "icon-maskable-512.png"),
    ("icon.svg", 180, "apple-touch-icon.png"),
)


def main() -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for source, size, output in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (IMG / source).read_text()
            page.set_content(
                "<style>html,body{margin:0;background:transparent}svg{display:block;"
                f"width:{size}px;height:{size}px}}</style>{svg}"
            )
            page.screenshot(path=str(IMG / output), omit_background=True)
            page.close()
            print(f"{output}: {size}x{size}")
        browser.close()


if __name__ == "__main__":
    main()
