"""The server's secret: it keys the daily game's seeds, and the hashes of addresses and
recovery codes. From ``SHEEPSHEAD_DAILY_SECRET``, or made once in the data directory."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from sheepshead.server.settings import Settings


def server_secret(settings: Settings) -> bytes:
    if settings.daily_secret:
        return settings.daily_secret.encode("utf-8")
    path = Path(settings.data_dir) / "daily-secret"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        # O_EXCL: of two workers starting at once, one writes and both read its secret.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32) + "\n")
    return path.read_text("utf-8").strip().encode("utf-8")
