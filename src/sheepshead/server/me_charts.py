"""The geometry of the ``/me`` page's charts, worked out here so that the template only
writes SVG elements: bars of game points per hand by role, bars of the pick rate and
the picker's win rate by position, the daily percentile over time, and the calendar of
the days played. Each chart has a table beside it on the page (for screen readers and
for anyone who wants the numbers)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

#: The charts' drawing box (SVG user units; the page scales it to its width).
WIDTH = 320
HEIGHT = 160
PAD = 24
#: Weeks shown in the calendar, the current one last.
WEEKS = 53
CELL = 6


def _role_bars(roles: dict[str, Any]) -> dict[str, Any]:
    values = [(role, fig["points_per_hand"] or 0.0) for role, fig in roles.items()]
    top = max([abs(v) for _, v in values] + [1.0])
    zero = HEIGHT / 2
    scale = (HEIGHT / 2 - PAD) / top
    step = (WIDTH - 2 * PAD) / max(len(values), 1)
    bars = []
    for i, (role, value) in enumerate(values):
        height = abs(value) * scale
        bars.append(
            {
                "role": role,
                "x": round(PAD + i * step + step * 0.15, 1),
                "y": round(zero - height if value > 0 else zero, 1),
                "w": round(step * 0.7, 1),
                "h": round(max(height, 0.5), 1),
                "label_x": round(PAD + i * step + step / 2, 1),
                "negative": value < 0,
            }
        )
    return {"bars": bars, "zero": zero, "top": round(top, 2)}


def _position_bars(positions: list[dict[str, Any]]) -> dict[str, Any]:
    shown = [p for p in positions if p["hands"]]
    step = (WIDTH - 2 * PAD) / max(len(shown), 1)
    floor = HEIGHT - PAD
    span = HEIGHT - 2 * PAD
    groups = []
    for i, p in enumerate(shown):
        left = PAD + i * step
        pick = (p["pick_rate"] or 0.0) * span
        win = (p["picker_win_rate"] or 0.0) * span
        groups.append(
            {
                "position": p["position"],
                "pick": {
                    "x": round(left + step * 0.1, 1),
                    "y": round(floor - pick, 1),
                    "h": round(max(pick, 0.5), 1),
                },
                "win": {
                    "x": round(left + step * 0.5, 1),
                    "y": round(floor - win, 1),
                    "h": round(max(win, 0.5), 1),
                },
                "w": round(step * 0.4, 1),
                "label_x": round(left + step / 2, 1),
            }
        )
    return {"groups": groups, "floor": floor, "top": PAD}


def _percentile_line(percentiles: list[dict[str, Any]], today: date) -> dict[str, Any]:
    first = today - timedelta(days=364)
    span = HEIGHT - 2 * PAD
    points = []
    for item in percentiles:
        day = date.fromisoformat(item["date"])
        x = PAD + (day - first).days / 364 * (WIDTH - 2 * PAD)
        y = HEIGHT - PAD - item["percentile"] / 100 * span
        points.append((round(x, 1), round(y, 1)))
    return {
        "points": " ".join(f"{x},{y}" for x, y in points),
        "dots": points,
        "first": first.isoformat(),
        "mid": HEIGHT / 2,
        "floor": HEIGHT - PAD,
        "top": PAD,
    }


def _calendar(days: list[str], today: date) -> dict[str, Any]:
    played = set(days)
    # Weeks run Monday to Sunday, as the weekly board's do; the last column is this week.
    monday = today - timedelta(days=today.weekday())
    start = monday - timedelta(weeks=WEEKS - 1)
    cells = []
    for offset in range((today - start).days + 1):
        day = start + timedelta(days=offset)
        cells.append(
            {
                "x": (offset // 7) * (CELL + 1),
                "y": (offset % 7) * (CELL + 1),
                "played": day.isoformat() in played,
            }
        )
    return {"cells": cells, "width": WEEKS * (CELL + 1), "height": 7 * (CELL + 1), "size": CELL}


def charts(stats: dict[str, Any], today: date) -> dict[str, Any]:
    day = stats["daily"]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "roles": _role_bars(stats["roles"]),
        "positions": _position_bars(stats["positions"]),
        "percentile": _percentile_line(day["percentiles"], today),
        "calendar": _calendar(day["calendar"], today),
    }
