"""The search's hot modules compiled to C by mypyc, loaded only when built from these
very sources.

The expert searches by playing sampled worlds out to the end of the hand thousands of
times per decision; in pure Python that costs an expert table most of each action's
time. ``tools/build_native.py`` (run by ``make setup`` and ``make run``) compiles the
modules of ``MODULES`` with mypyc, unchanged: the same source, the same types, the
same integer arithmetic, so every decision is the same (``tests/bots/test_native.py``
holds the two to the same digest of every decision and playout). It writes them under
``_native/`` beside this file with a manifest of each source's length and CRC-32.

``install`` (called by the package's ``__init__``, before any of those modules can be
imported) puts a finder in front of Python's own that loads the compiled modules only
if every one of them was built from the source files as they are now, for this
interpreter: a source edited since the build, a build for another Python, a missing or
broken build, all fall back to the Python sources, whole (compiled modules call each
other directly, so a mixture could run a stale copy). ``SHEEPSHEAD_NATIVE=0`` turns it
off. ``STATUS`` says which, for the server's start-up line and the tests.

Only the files are read here, once per process, at import: nothing at play time. Every
``sheepshead`` process pays that import, ``sheepshead check`` included (issue 14's
start-up figure), so this module imports nothing a bare interpreter has not loaded but
``json`` (which hand records import anyway) and ``zlib``: no ``pathlib``,
``dataclasses``, ``importlib.abc``, ``sysconfig``, ``typing`` or ``hashlib`` (together
over 30 ms of a 33 ms ``sheepshead check``). A source is known by its length and CRC-32:
enough to tell an edit (nobody forges a source here to fool the loader).
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType

__all__ = [
    "MANIFEST",
    "MODULES",
    "NATIVE_DIR",
    "STATUS",
    "SUFFIX",
    "Build",
    "check",
    "install",
    "source_digests",
    "source_path",
]

#: What is compiled, in dependency order: the rules over card masks, and the search's
#: simulator, playout policy, generator, sampler (with the hand strength it weighs
#: worlds by, and the placement it draws them with), worlds made ``SimHand``s and the
#: card search's loop over them (issue 16's profile: over 90% of an expert's
#: decision). Each is plain typed Python that runs as it is without a build.
MODULES: tuple[str, ...] = (
    "sheepshead.kernel",
    "sheepshead.bots.cardkeys",
    "sheepshead.bots.rng",
    "sheepshead.bots.sim",
    "sheepshead.bots.playout",
    "sheepshead.bots.strength",
    "sheepshead.bots.placement",
    "sheepshead.bots.burial",
    "sheepshead.bots.sampler",
    "sheepshead.bots.simview",
    "sheepshead.bots.worlds",
)
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
#: The build's home: ``manifest.json`` and one directory of compiled files per build.
NATIVE_DIR = os.path.join(PACKAGE_DIR, "_native")
MANIFEST = os.path.join(NATIVE_DIR, "manifest.json")
#: This interpreter's file suffix of an extension module (``.cpython-311-...so``).
SUFFIX = EXTENSION_SUFFIXES[0]
#: Bumped when the manifest's shape changes (2: sources by length and CRC-32).
FORMAT = 2


class Build:
    """What ``manifest.json`` says of a build."""

    __slots__ = ("files", "sources", "suffix")

    def __init__(self, suffix: str, sources: dict[str, str], files: dict[str, str]) -> None:
        #: The extension suffix of the interpreter it was built for.
        self.suffix = suffix
        #: Each compiled module's name and the digest of the source it was built from.
        self.sources = sources
        #: The file (relative to the manifest) of each compiled module, and of mypyc's
        #: shared library for the group.
        self.files = files

    def to_json(self) -> str:
        return json.dumps(
            {"format": FORMAT, "suffix": self.suffix, "sources": self.sources, "files": self.files},
            indent=2,
            sort_keys=True,
        )


def source_path(module: str, package_dir: str | os.PathLike[str] = PACKAGE_DIR) -> str:
    """The ``.py`` file of one of ``MODULES`` (``sheepshead.bots.sim``: ``bots/sim.py``)."""
    parts = module.split(".")
    if parts[0] != "sheepshead" or len(parts) < 2:
        raise ValueError(f"not a module of the sheepshead package: {module}")
    return os.path.join(package_dir, *parts[1:-1], parts[-1] + ".py")


def source_digests(
    modules: Sequence[str] = MODULES, package_dir: str | os.PathLike[str] = PACKAGE_DIR
) -> dict[str, str]:
    """Each module's source as it is now, by its length and CRC-32 (``"1234:89abcdef"``)."""
    digests = {}
    for name in modules:
        with open(source_path(name, package_dir), "rb") as source:
            data = source.read()
        digests[name] = f"{len(data)}:{zlib.crc32(data):08x}"
    return digests


def check(
    manifest: str | os.PathLike[str] = MANIFEST,
    modules: Sequence[str] = MODULES,
    package_dir: str | os.PathLike[str] = PACKAGE_DIR,
) -> tuple[dict[str, str] | None, str]:
    """The compiled files to load (module name: file), or None and why not."""
    if not os.path.isfile(manifest):
        return None, "not built (manifest.json missing: run `make native`)"
    try:
        with open(manifest, encoding="utf-8") as text:
            raw = json.load(text)
        build = Build(raw["suffix"], dict(raw["sources"]), dict(raw["files"]))
        if raw["format"] != FORMAT:
            return None, f"built by another version of the build tool ({raw['format']})"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return None, f"unreadable manifest: {exc}"
    if build.suffix != SUFFIX:
        return None, f"built for another Python ({build.suffix}, this one is {SUFFIX})"
    if set(build.sources) != set(modules):
        return None, "built from another list of modules: run `make native`"
    now = source_digests(modules, package_dir)
    changed = sorted(name for name in modules if now[name] != build.sources[name])
    if changed:
        return None, f"stale: {', '.join(changed)} changed since the build (run `make native`)"
    home = os.path.dirname(manifest)
    files = {name: os.path.join(home, rel) for name, rel in build.files.items()}
    missing = sorted(name for name, path in files.items() if not os.path.isfile(path))
    if missing or not set(modules) <= set(files):
        return None, f"incomplete build (missing {', '.join(missing) or 'modules'})"
    return files, "native"


class _Finder:
    """Finds the compiled modules (and mypyc's group library) by name, nothing else: a
    meta path finder is any object with ``find_spec``."""

    def __init__(self, files: dict[str, str]) -> None:
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
        spec = ModuleSpec(fullname, ExtensionFileLoader(fullname, file), origin=file)
        spec.has_location = True  # sets the module's __file__
        return spec


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
