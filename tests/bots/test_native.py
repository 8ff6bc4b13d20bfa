"""The search's hot modules compiled by mypyc (``sheepshead.native``): the suite runs
them, they decide exactly as the Python sources do, and a build that no longer matches
its sources is never loaded."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import sysconfig
import zlib
from pathlib import Path

import pytest

from sheepshead import native

ROOT = Path(__file__).resolve().parents[2]
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")

#: Prints the loader's status, then ``bench/decision_digest.py``'s digest of every
#: decision and every playout's outcome, per level and preset (three hands each).
DIGESTS = f"""
import sys
sys.path.insert(0, {str(ROOT / "bench")!r})
from sheepshead import native
import decision_digest
print(native.STATUS)
for level in ("expert", "standard"):
    for name in decision_digest.RULES:
        print(level, name, decision_digest.digest_of(level, name, 3))
"""


def test_the_suite_runs_the_compiled_search() -> None:
    if native.STATUS.startswith("off"):
        pytest.skip("SHEEPSHEAD_NATIVE=0: this run tests the Python sources")
    # `make test` builds it first (`make setup`): a failed or stale build is a failure.
    assert native.STATUS == "native", f"the search runs as plain Python: {native.STATUS}"
    for name in native.MODULES:
        assert str(importlib.import_module(name).__file__).endswith(SUFFIX), name


def _digests(env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", DIGESTS],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout.splitlines()


def test_compiled_and_python_sources_decide_alike() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SHEEPSHEAD_NATIVE"}
    compiled = _digests(env)
    python = _digests({**env, "SHEEPSHEAD_NATIVE": "0"})
    assert compiled[0] == "native", compiled[0]
    assert python[0].startswith("off"), python[0]
    # 7 tables x 2 levels, each a digest of every action and every playout's scores,
    # card points and tricks: one card or one playout apart changes a line.
    assert len(compiled) == len(python) == 15
    assert compiled[1:] == python[1:]


def _fake_build(root: Path) -> Path:
    """A package directory with the sources of ``native.MODULES`` and a manifest that
    matches them (empty files standing for the compiled modules)."""
    package = root / "sheepshead"
    files: dict[str, str] = {}
    for name in native.MODULES:
        source = Path(native.source_path(name))
        target = Path(native.source_path(name, package))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(source.read_bytes())
        compiled = root / "_native" / "build-1" / (name + SUFFIX)
        compiled.parent.mkdir(parents=True, exist_ok=True)
        compiled.write_bytes(b"")
        files[name] = str(compiled.relative_to(root / "_native"))
    build = native.Build(SUFFIX, native.source_digests(native.MODULES, package), files)
    manifest = root / "_native" / "manifest.json"
    manifest.write_text(build.to_json())
    return manifest


def test_a_build_is_loaded_only_while_every_source_matches_it(tmp_path: Path) -> None:
    manifest = _fake_build(tmp_path)
    package = tmp_path / "sheepshead"
    files, status = native.check(manifest, native.MODULES, package)
    assert status == "native"
    assert files is not None
    assert set(files) == set(native.MODULES)

    # One line edited in one source since the build: none of the build is loaded.
    sim = Path(native.source_path("sheepshead.bots.sim", package))
    sim.write_text(sim.read_text() + "\n# edited\n")
    files, status = native.check(manifest, native.MODULES, package)
    assert files is None
    assert status.startswith("stale: sheepshead.bots.sim changed")


def test_a_build_for_another_python_or_a_broken_one_is_not_loaded(tmp_path: Path) -> None:
    manifest = _fake_build(tmp_path)
    package = tmp_path / "sheepshead"
    raw = json.loads(manifest.read_text())

    manifest.write_text(json.dumps({**raw, "suffix": ".cpython-312-x86_64-linux-gnu.so"}))
    files, status = native.check(manifest, native.MODULES, package)
    assert files is None
    assert "another Python" in status

    manifest.write_text(json.dumps(raw))
    (tmp_path / "_native" / raw["files"]["sheepshead.kernel"]).unlink()
    files, status = native.check(manifest, native.MODULES, package)
    assert files is None
    assert "incomplete" in status
    assert "sheepshead.kernel" in status

    manifest.write_text("{not json")
    files, status = native.check(manifest, native.MODULES, package)
    assert files is None
    assert "unreadable" in status

    manifest.unlink()
    files, status = native.check(manifest, native.MODULES, package)
    assert files is None
    assert status.startswith("not built")


def test_the_manifest_names_each_source_by_its_length_and_crc32(tmp_path: Path) -> None:
    manifest = _fake_build(tmp_path)
    raw = json.loads(manifest.read_text())
    data = Path(native.source_path("sheepshead.kernel", tmp_path / "sheepshead")).read_bytes()
    assert raw["sources"]["sheepshead.kernel"] == f"{len(data)}:{zlib.crc32(data):08x}"
