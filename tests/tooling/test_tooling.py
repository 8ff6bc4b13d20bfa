"""The project's wiring: CI runs `make test`, and `make test` runs every check.

If any of this breaks, CI could go green while skipping lint, types, import contracts
or the tests themselves.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _make(*args: str, extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    # Drop what an outer `make test` exports (its command-line variables too, such as
    # `make test PYTEST_WORKERS=0`), so this make starts clean.
    outer = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "PYTEST_WORKERS", "PYTEST_ARGS"}
    env = {k: v for k, v in os.environ.items() if k not in outer}
    env.update(extra_env or {})
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_ci_run_is_an_executable_bash_script_that_runs_make_test() -> None:
    script = ROOT / ".ci" / "run"
    text = script.read_text()
    assert text.startswith("#!/usr/bin/env bash\n") or text.startswith("#!/bin/bash\n")
    assert "set -euo pipefail" in text
    commands = [
        line.strip()
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#") and not line.startswith("set ")
    ]
    assert commands[-1] in {"make test", "exec make test"}
    assert script.stat().st_mode & stat.S_IXUSR, ".ci/run must be executable"


@needs_make
def test_make_test_runs_lint_types_import_contracts_and_pytest() -> None:
    # A dry run lists every recipe `make test` would run, prerequisites included.
    dry = _make("-n", "test")
    assert dry.returncode == 0, dry.stderr
    for command in ("ruff check .", "ruff format --check .", "mypy", "lint-imports", "pytest"):
        assert command in dry.stdout, f"`make test` does not run {command}"
    # The lint checks come before pytest.
    assert dry.stdout.index("lint-imports") < dry.stdout.rindex("pytest")


@needs_make
def test_make_run_installs_only_what_serving_needs(tmp_path: Path) -> None:
    """On a fresh clone (no .venv), `make run` installs the `serve` extra and the
    `native` one (what compiles the search), with its own stamp; `make test` installs the
    `dev` extra with the development tools. Both build the compiled search before use."""
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)

    def dry(target: str) -> str:
        env = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MAKELEVEL"}}
        done = subprocess.run(
            ["make", "--no-print-directory", "-n", target],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    run = dry("run")
    assert "-e '.[serve,native]'" in run, run
    assert ".[dev]" not in run, run
    assert "touch .venv/.installed-serve" in run
    assert run.index("tools/build_native.py") < run.index("sheepshead serve"), run
    test = dry("test")
    assert "-e '.[dev]'" in test, test
    assert ".installed-serve" not in test, test
    assert test.index("tools/build_native.py") < test.index("pytest"), test
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert "serve" in extras
    # The build's tools are in what `make run` and `make test` install.
    for extra in ("native", "dev"):
        assert any(d.startswith("mypy==") for d in extras[extra]), extra
        assert any(d.startswith("setuptools==") for d in extras[extra]), extra


@needs_make
@pytest.mark.parametrize(
    ("pytest_exit", "make_fails"),
    [(0, False), (1, True), (2, True), (5, True)],  # 5: pytest collected no tests
)
def test_make_test_fails_exactly_when_pytest_fails_or_collects_nothing(
    tmp_path: Path, pytest_exit: int, make_fails: bool
) -> None:
    fake = tmp_path / "pytest"
    fake.write_text(f'#!/bin/sh\necho "fake pytest $*"\nexit {pytest_exit}\n')
    fake.chmod(0o755)
    # -o: treat setup, browser and lint as done; BIN: run the fake pytest.
    result = _make(
        "-o",
        "setup",
        "-o",
        "browser",
        "-o",
        "lint",
        "test",
        f"BIN={tmp_path}",
        "PYTEST_ARGS=-k wiring",
    )
    # On two workers, a test file to each (the CI machine's two cores).
    assert "fake pytest -n 2 --dist loadfile -k wiring" in result.stdout
    assert (result.returncode != 0) is make_fails, result.stdout + result.stderr
