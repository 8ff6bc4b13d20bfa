"""The command's output: one line to standard output, flushed at once (a program
reading ``sheepshead bot`` line by line waits for each)."""

from __future__ import annotations

import sys


def write_line(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
