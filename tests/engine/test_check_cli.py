"""`sheepshead check [FILE]` as other programs use it: a process reading a file or
standard input, printing one JSON object, exiting 0 or 1; and importing no web or
database library, so that it starts fast."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SHEEPSHEAD = Path(sys.executable).parent / "sheepshead"
HEAVY = ("fastapi", "starlette", "pydantic", "sqlalchemy", "uvicorn", "jinja2", "alembic")


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [str(SHEEPSHEAD)] if SHEEPSHEAD.exists() else [sys.executable, "-m", "sheepshead.cli"]
    return subprocess.run(
        [*command, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )


def test_check_imports_no_web_or_database_library() -> None:
    record = str(GOLDEN / "called-ace.json")
    probe = (
        "import sys, io, contextlib\n"
        "import sheepshead.cli\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    code = sheepshead.cli.main(['check', {record!r}])\n"
        "assert code == 0 and '\"ok\": true' in out.getvalue(), out.getvalue()\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_check_reads_standard_input() -> None:
    text = (GOLDEN / "position-call.json").read_text()
    expected = json.loads((GOLDEN / "position-call.expected.json").read_text())
    for args in (["check"], ["check", "-"]):
        done = run(args, stdin=text)
        assert (done.returncode, done.stderr) == (0, "")
        assert json.loads(done.stdout) == expected


def test_check_a_missing_file() -> None:
    done = run(["check", str(GOLDEN / "no-such-record.json")])
    assert done.returncode == 1
    assert done.stderr == ""
    output = json.loads(done.stdout)
    assert output["ok"] is False
    assert output["action"] is None
    assert output["error"].startswith("cannot read the record")


@pytest.mark.parametrize(
    ("stdin", "code", "output"),
    [
        ("", 1, {"ok": False, "action": None}),
        ("[]", 1, {"ok": False, "action": None, "error": "a record is a JSON object"}),
        ('{"format": "sheepshead-hand/1"}', 1, {"ok": False, "action": None}),
    ],
)
def test_check_bad_input_prints_one_error_object(
    stdin: str, code: int, output: dict[str, object]
) -> None:
    done = run(["check"], stdin=stdin)
    assert done.returncode == code
    assert done.stderr == ""
    assert done.stdout.count("\n") == 1
    printed = json.loads(done.stdout)
    assert set(printed) == {"ok", "action", "error"}
    assert printed["error"]
    assert {k: printed[k] for k in output} == output
