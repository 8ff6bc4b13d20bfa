"""The installed app's files: the manifest opens the table, and the service worker's
cache is named after the static files' build (a new build replaces it) and lists the
static files, the guide and the offline pages, never the API or a player's page."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

from fastapi import FastAPI

from server.helpers import make_client
from sheepshead.server import Settings, create_app


def worker(app: FastAPI) -> tuple[str, list[str]]:
    script = make_client(app).get("/sw.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.headers["cache-control"] == "no-cache"
    cache = re.search(r'const CACHE = "([^"]+)";', script.text)
    lists = re.findall(r"const (?:FILES|GUIDE) = (\[[^\]]*\]);", script.text)
    assert cache is not None
    assert len(lists) == 2
    return cache.group(1), [url for found in lists for url in json.loads(found)]


def test_the_manifest_opens_the_table(app: FastAPI) -> None:
    reply = make_client(app).get("/manifest.webmanifest")
    assert reply.headers["content-type"].startswith("application/manifest+json")
    manifest = reply.json()
    assert (manifest["start_url"], manifest["display"]) == ("/play", "standalone")
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert make_client(app).get(icon["src"]).status_code == 200, icon


def test_a_new_build_names_a_new_cache(app: FastAPI, settings: Settings, tmp_path: Path) -> None:
    cache, urls = worker(app)
    build = cache.removeprefix("sheepshead-")
    assert re.fullmatch(r"v-[0-9a-f]{12}", build)
    assert f"/static/{build}/css/site.css" in urls
    assert "/guide" in urls
    assert not [u for u in urls if not u.startswith(("/static/", "/guide"))], urls
    for lang in ("en", "de", "bn"):
        page = make_client(app).get(f"/offline/{lang}")
        assert page.status_code == 200
        assert f'lang="{lang}"' in page.text
    # One changed static file: a new build, so a new cache (the old one is deleted).
    static = tmp_path / "static"
    shutil.copytree(settings.static_dir, static)
    (static / "css" / "site.css").write_text((static / "css" / "site.css").read_text() + "\n")
    other = create_app(replace(settings, static_dir=static))
    try:
        assert worker(other)[0] not in (cache, "")
    finally:
        other.state.engine.dispose()
