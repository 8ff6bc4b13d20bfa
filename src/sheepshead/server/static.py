"""Static files with long-lived caching, safe across deployments.

Pages link assets under a build segment, ``/static/v-<hash>/app.js``, where the hash
covers every static file: a changed file means a new URL, so those responses may
be cached for a year. Relative links inside the assets (ES module imports, CSS
``url()``) stay under the same segment. A path without the current segment is still
served, but must be revalidated on every use (``no-cache`` with an ETag).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
_BUILD = re.compile(r"v-[0-9a-f]{12}")
_SCOPE_KEY = "sheepshead.static_build"


def build_id(directory: Path) -> str:
    """``v-`` and 12 hex digits of a hash over every file's path and bytes."""
    digest = hashlib.sha256()
    if directory.is_dir():
        for path in sorted(p for p in directory.rglob("*") if p.is_file()):
            digest.update(path.relative_to(directory).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return "v-" + digest.hexdigest()[:12]


class VersionedStatic(StaticFiles):
    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory, check_dir=False)
        self.build = build_id(directory)

    def get_path(self, scope: Scope) -> str:
        path = super().get_path(scope)
        head, sep, rest = path.partition(os.sep)
        if sep and _BUILD.fullmatch(head):
            scope[_SCOPE_KEY] = head
            return rest
        return path

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        current = scope.get(_SCOPE_KEY) == self.build
        response.headers["cache-control"] = IMMUTABLE if current else REVALIDATE
        return response

    def url_path(self, path: str) -> str:
        return f"{self.build}/{path.lstrip('/')}"
