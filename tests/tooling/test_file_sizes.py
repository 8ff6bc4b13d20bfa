"""No Python file of the project is over 600 lines (``bots/frozen/`` aside: earlier
bots, kept byte for byte): a longer one holds more than one room."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 600
FROZEN = ROOT / "src" / "sheepshead" / "bots" / "frozen"


def python_files() -> list[Path]:
    found = []
    for top in ("src", "tests", "bench", "tools"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if FROZEN not in path.parents and "node_modules" not in path.parts:
                found.append(path)
    return found


def test_the_project_has_python_files_to_measure() -> None:
    files = python_files()
    assert ROOT / "src" / "sheepshead" / "game.py" in files
    assert ROOT / "tests" / "tooling" / "test_file_sizes.py" in files


def test_no_python_file_is_over_600_lines() -> None:
    over = {}
    for path in python_files():
        with path.open("rb") as file:
            lines = sum(1 for _ in file)
        if lines > LIMIT:
            over[str(path.relative_to(ROOT))] = lines
    assert over == {}
