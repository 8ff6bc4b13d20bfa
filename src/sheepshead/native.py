"""The search's hot modules compiled to C by mypyc, loaded only when built from these
very sources.

The expert searches by playing sampled worlds out to the end of the hand thousands of
times per decision; in pure Python that costs an expert table most of each action's
time. ``tools/build_native.py`` (run by ``make setup`` and ``make run``) compiles the
modules of ``MODULES`` with mypyc, unchanged: the same source, the same types, the
same integer arithmetic, so every decision is the same (``tests/bots/test_native.py``
holds the two to the same digest of every decision and playout). It writes them under
``_native/`` beside this file with a manifest of each source's SHA-256.

``install`` (called by the package's ``__init__``, before any of those modules can be
imported) puts a finder in front of Python's own that loads the compiled modules only
if every one of them was built from the source files as they are now, for this
interpreter: a source edited since the build, a build for another Python, a missing or
broken build, all fall back to the Python sources, whole (compiled modules call each
other directly, so a mixture could run a stale copy). ``SHEEPSHEAD_NATIVE=0`` turns it
off. ``STATUS`` says which, for the server's start-up line and the tests.

Only the files are read here, once per process, at import: nothing at play time.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

__all__ = [
    "MANIFEST",
    "MODULES",
    "NATIVE_DIR",
    "STATUS",
    "Build",
    "check",
    "install",
    "source_digests",
]

#: What is compiled, in dependency order: the rules over card masks, and the search's
#: simulator, playout policy, sampler and generator (issue 16's profile: over 90% of
#: an expert's decision). Each is plain typed Python that runs as it is without a build.
MODULES: tuple[str, ...] = (
    "sheepshead.kernel",
    "sheepshead.bots.cardkeys",
    "sheepshead.bots.rng",
    "sheepshead.bots.sim",
    "sheepshead.bots.playout",
    "sheepshead.bots.sampler",
)
PACKAGE_DIR = Path(__file__).resolve().parent
#: The build's home: ``manifest.json`` and one directory of compiled files per build.
NATIVE_DIR = PACKAGE_DIR / "_native"
MANIFEST = NATIVE_DIR / "manifest.json"
#: Bumped when the manifest's shape changes.
FORMAT = 1


@dataclass(frozen=True)
class Build:
    """What ``manifest.json`` says of a build."""

    #: The interpreter's extension suffix (``.cpython-311-x86_64-linux-gnu.so``).
    suffix: str
    #: Each compiled module's name and the SHA-256 of the source it was built from.
    sources: dict[str, str]
    #: The module (file name, relative to the manifest) of each compiled module, and of
    #: mypyc's shared library for the group.
    files: dict[str, str]

    def to_json(self) -> str:
        return json.dumps(
            {"format": FORMAT, "suffix": self.suffix, "sources": self.sources, "files": self.files},
            indent=2,
            sort_keys=True,
        )


def source_path(module: str, package_dir: Path = PACKAGE_DIR) -> Path:
    """The ``.py`` file of one of ``MODULES`` (``sheepshead.bots.sim``: ``bots/sim.py``)."""
    parts = module.split(".")
    if parts[0] != "sheepshead" or len(parts) < 2:
        raise ValueError(f"not a module of the sheepshead package: {module}")
    return package_dir.joinpath(*parts[1:]).with_suffix(".py")


def source_digests(
    modules: Sequence[str] = MODULES, package_dir: Path = PACKAGE_DIR
) -> dict[str, str]:
    """The SHA-256 of each module's source as it is now."""
    return {
        name: hashlib.sha256(source_path(name, package_dir).read_bytes()).hexdigest()
        for name in modules
    }


def check(
    manifest: Path = MANIFEST,
    modules: Sequence[str] = MODULES,
    package_dir: Path = PACKAGE_DIR,
) -> tuple[dict[str, Path] | None, str]:
    """The compiled files to load (module name: file), or None and why not."""
    if not manifest.is_file():
        return None, f"not built ({manifest.name} missing: run `make native`)"
    try:
        raw = json.loads(manifest.read_text())
        build = Build(raw["suffix"], dict(raw["sources"]), dict(raw["files"]))
        if raw["format"] != FORMAT:
            return None, f"built by another version of the build tool ({raw['format']})"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return None, f"unreadable manifest: {exc}"
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if build.suffix != suffix:
        return None, f"built for another Python ({build.suffix}, this one is {suffix})"
    if set(build.sources) != set(modules):
        return None, "built from another list of modules: run `make native`"
    now = source_digests(modules, package_dir)
    changed = sorted(name for name in modules if now[name] != build.sources[name])
    if changed:
        return None, f"stale: {', '.join(changed)} changed since the build (run `make native`)"
    files = {name: manifest.parent / rel for name, rel in build.files.items()}
    missing = sorted(name for name, path in files.items() if not path.is_file())
    if missing or not set(modules) <= set(files):
        return None, f"incomplete build (missing {', '.join(missing) or 'modules'})"
    return files, "native"


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and mypyc's group library) by name, nothing else."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


#: "native", or why the Python sources run instead ("off", "not built", "stale: ...").
STATUS = "not installed"


def install() -> str:
    """Put the compiled modules in front of the sources where they are fresh; the status."""
    global STATUS
    if any(isinstance(f, _Finder) for f in sys.meta_path):
        return STATUS
    if os.environ.get("SHEEPSHEAD_NATIVE", "1").strip().lower() in {"0", "off", "no", "false"}:
        STATUS = "off (SHEEPSHEAD_NATIVE=0)"
        return STATUS
    loaded = sorted(name for name in MODULES if name in sys.modules)
    if loaded:
        STATUS = f"too late: {', '.join(loaded)} already imported"
        return STATUS
    files, STATUS = check()
    if files is not None:
        sys.meta_path.insert(0, _Finder(files))
    return STATUS
