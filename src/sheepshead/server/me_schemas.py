"""The shapes of ``GET /api/v1/me/stats`` and ``GET /api/v1/me/hands`` for the OpenAPI
document (``docs/api.md`` says what each field means). Other programs depend on them."""

from __future__ import annotations

from pydantic import BaseModel, Field


class RoleFigures(BaseModel):
    hands: int
    points: int = Field(description="game points in this role, summed")
    points_per_hand: float | None = Field(description="None before a hand in this role")
    won: int = Field(description="hands in this role that scored above zero")


class PositionFigures(RoleFigures):
    position: str = Field(description="1 (first to speak, the dealer's left) ... 5, or dealer")
    picks: int
    pick_rate: float | None = Field(description="picks / hands, 0 to 1")
    picker_wins: int
    picker_win_rate: float | None = Field(description="picker_wins / picks, 0 to 1")


class Made(BaseModel):
    won: int = Field(description="made by the player's side")
    lost: int = Field(description="made against the player's side")


class DayPercentile(BaseModel):
    date: str
    percentile: float


class DailyFigures(BaseModel):
    days_played: int = Field(description="days counted: a finished ranked attempt, not voided")
    streak: int
    best_streak: int
    played_today: bool
    average_percentile: float | None
    percentiles: list[DayPercentile] = Field(description="the last 365 days, oldest first")
    calendar: list[str] = Field(description="the days counted of the last 365, oldest first")
    voided: list[str] = Field(description="days whose result a moderator voided")
    today: str = Field(description="today's daily day (Chicago)")
    next_day_starts: str = Field(description="when the next daily day starts (UTC instant)")


class MyStats(BaseModel):
    hands_played: int
    game_points: int
    points_per_hand: float | None
    daily_streak: int = Field(description="days in a row up to today (if played) or yesterday")
    best_daily_streak: int
    roles: dict[str, RoleFigures] = Field(description="picker, partner, defender, alone, leaster")
    positions: list[PositionFigures]
    schneider: Made
    no_trick: Made
    daily: DailyFigures


class HandLinks(BaseModel):
    review: str | None = Field(description="None for a daily deal before its day is over")
    record: str | None = Field(description="the hand record's download; None as review")


class HistoryHand(BaseModel):
    kind: str = Field(description="free, daily, replay or friends")
    preset: str = Field(description="the rules preset, or custom")
    number: int = Field(
        description="the hand's number in its game or friends' table, or the deal's (1 to 5)"
    )
    date: str | None = Field(description="the daily day of a daily deal or replay")
    finished_at: str
    players: int
    position: str
    role: str = Field(description="picker, partner, defender, alone, leaster or thrown-in")
    result: str = Field(description="the hand's result from the picker's side")
    points: int = Field(description="the player's game points")
    multiplier: int
    counted: bool = Field(
        description="in the figures: not a replay, nor a friends' hand the computer "
        "played part of for you (or dealt before you sat down)"
    )
    links: HandLinks


class MyHands(BaseModel):
    page: int
    pages: int
    per_page: int
    total: int
    hands: list[HistoryHand]
