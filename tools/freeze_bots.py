"""Freeze the bots' play at its current version, before changing it.

    .venv/bin/python tools/freeze_bots.py

copies ``src/sheepshead/bots`` (its play: every module but the arena and the frozen
versions) to ``src/sheepshead/bots/frozen/v<VERSION>``, its imports pointed at the
copy, so that a server still plays that version for a daily game begun with it.
Then: add the copy to ``FROZEN`` in ``sheepshead/bots/__init__.py``, bump ``VERSION``,
change the play, and pin the new decisions in ``tests/bots/test_bot_version.py``.
``docs/bots.md`` has the whole procedure.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "src" / "sheepshead" / "bots"
LIVE = "sheepshead.bots"
#: Not play: the arena matches bots against each other, and frozen holds the copies.
LEFT_OUT = {"arena.py"}
_FROZEN = re.compile(
    r"^FROZEN: dict\[str, str\] = \{.*?^\}$|^FROZEN: dict\[str, str\] = \{\}$", re.M | re.S
)
_VERSION = re.compile(r'^VERSION = "([^"]+)"$', re.M)


def live_version(source: Path = BOTS) -> str:
    found = _VERSION.findall((source / "__init__.py").read_text("utf-8"))
    if len(found) != 1:
        raise SystemExit(f'{source / "__init__.py"}: expected one VERSION = "..." line')
    return str(found[0])


def freeze(target: Path, package: str, source: Path = BOTS) -> list[Path]:
    """Write the copy of ``source``'s play into ``target``, importable as ``package``.

    Refuses to overwrite: a frozen version is never edited."""
    if target.exists():
        raise SystemExit(f"{target} exists already: a frozen version is never rewritten")
    version = live_version(source)
    modules = sorted(p for p in source.glob("*.py") if p.name not in LEFT_OUT)
    target.mkdir(parents=True)
    written = []
    # Imports and import_module("...") only: the prose keeps naming the live package.
    live = re.compile(
        r"(^\s*(?:from|import)\s+|import_module\(\")" + re.escape(LIVE) + r"(?![\w])", re.M
    )
    for module in modules:
        text = module.read_text("utf-8")
        if module.name == "__init__.py":
            text, count = _FROZEN.subn("FROZEN: dict[str, str] = {}", text)
            if count != 1:
                raise SystemExit(f"{module}: expected one FROZEN assignment to empty")
        text = live.sub(lambda m: m.group(1) + package, text)
        header = f"# Frozen copy of {LIVE}/{module.name} at version {version}: never edit.\n"
        path = target / module.name
        path.write_text(header + text, "utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    version = live_version()
    if not re.fullmatch(r"[0-9]+", version):
        raise SystemExit(f"VERSION {version!r}: the frozen package name needs digits")
    package = f"{LIVE}.frozen.v{version}"
    written = freeze(BOTS / "frozen" / f"v{version}", package)
    print(f"froze version {version} as {package} ({len(written)} modules). Next:")
    print(f'  1. add "{version}": "{package}" to FROZEN in src/sheepshead/bots/__init__.py')
    print("  2. bump VERSION there, then change the play")
    print("  3. pin the new decisions in tests/bots/test_bot_version.py (PINNED)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
