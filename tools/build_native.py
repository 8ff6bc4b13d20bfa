"""Compile the search's hot modules with mypyc (``sheepshead.native``), if their sources
changed since the last build.

    .venv/bin/python tools/build_native.py           # build where stale, else nothing
    .venv/bin/python tools/build_native.py --force   # build again
    .venv/bin/python tools/build_native.py --check   # exit 1 unless the build is fresh

``make setup`` and ``make run`` run it. It needs mypy (mypyc is part of it), setuptools
and a C compiler: the ``native`` extra and the machine's gcc. Each build goes into a
directory of its own under ``src/sheepshead/_native/`` and the manifest is replaced
last, in one rename, so a server that is running keeps the files it loaded and a new
one loads a whole build. Older builds are removed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from sheepshead import native  # noqa: E402  (after the path: a fresh checkout's source)

#: The name mypyc gives the group's shared library (``<GROUP>__mypyc``).
GROUP = "sheepshead_native"


def build(out: Path) -> dict[str, str]:
    """Compile ``native.MODULES`` into ``out``; each module's file, relative to ``out``."""
    from mypyc.build import mypycify  # the native extra: only the build needs it
    from setuptools import Distribution  # type: ignore[import-untyped]

    sources = [
        str(Path(native.source_path(name)).relative_to(ROOT / "src")) for name in native.MODULES
    ]
    with tempfile.TemporaryDirectory(prefix="sheepshead-native-") as temp:
        cwd = os.getcwd()
        # mypyc writes its C into ./build, and resolves the modules from the paths given.
        os.chdir(ROOT / "src")
        try:
            extensions = mypycify(
                sources, opt_level="3", group_name=GROUP, target_dir=str(Path(temp) / "c")
            )
            dist = Distribution({"name": "sheepshead-native", "ext_modules": extensions})
            command = dist.get_command_obj("build_ext")
            command.build_lib = str(out)
            command.build_temp = str(Path(temp) / "o")
            command.inplace = False
            dist.run_command("build_ext")
        finally:
            os.chdir(cwd)
    files: dict[str, str] = {}
    for name in (*native.MODULES, f"{GROUP}__mypyc"):
        path = out.joinpath(*name.split(".")).with_name(name.split(".")[-1] + native.SUFFIX)
        if not path.is_file():
            raise SystemExit(f"build_native: mypyc did not make {path}")
        files[name] = str(path.relative_to(out.parent))
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="build even if fresh")
    parser.add_argument("--check", action="store_true", help="only say whether it is fresh")
    args = parser.parse_args()
    files, status = native.check()
    if args.check:
        print(f"native: {status}")
        return 0 if files is not None else 1
    if files is not None and not args.force:
        print("native: up to date")
        return 0
    print(f"native: {status}; compiling {len(native.MODULES)} modules with mypyc")
    started = time.monotonic()
    home = Path(native.NATIVE_DIR)
    home.mkdir(exist_ok=True)
    digests = native.source_digests()
    out = Path(tempfile.mkdtemp(prefix="build-", dir=home))
    try:
        built = build(out)
    except BaseException:
        shutil.rmtree(out, ignore_errors=True)
        raise
    manifest = native.Build(native.SUFFIX, digests, built)
    if native.source_digests() != digests:
        shutil.rmtree(out, ignore_errors=True)
        raise SystemExit("build_native: a source changed during the build; run it again")
    staged = home / f".manifest-{os.getpid()}.json"
    staged.write_text(manifest.to_json() + "\n")
    os.replace(staged, native.MANIFEST)
    for old in home.glob("build-*"):
        if old != out:
            shutil.rmtree(old, ignore_errors=True)
    files, status = native.check()
    if files is None:
        raise SystemExit(f"build_native: the new build does not load: {status}")
    print(f"native: built in {time.monotonic() - started:.0f} s ({out.name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
