"""The API's bodies, in and out. Inputs refuse unknown fields; outputs document the
contract of ``docs/api.md`` (the view itself is ``SeatView.to_json()``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(_In):
    #: A hand record's rules object: only the fields that differ from standard.
    rules: dict[str, Any] = Field(
        default_factory=dict,
        description="Rules fields as in hand-record.md; {} is standard.",
        json_schema_extra={"maxProperties": 20},
    )
    level: str = Field(
        default="standard", max_length=16, description="beginner | standard | expert"
    )


class TableAction(_In):
    action: str = Field(
        min_length=1,
        max_length=64,
        description="Record action text without the seat: 'pick', 'bury 8S TH', 'play QC'.",
    )
    version: int = Field(ge=0, le=2**31 - 1, description="The version the action was chosen at.")


class NextHandIn(_In):
    version: int = Field(ge=0, le=2**31 - 1)


class Event(BaseModel):
    type: str
    seat: int | None
    text: str
    card: str | None
    winner: int | None
    points: int | None
    scores: list[int] | None


class ScoreLine(BaseModel):
    hand: int
    dealer: int
    picker: int | None
    partners: list[int]
    result: str
    multiplier: int
    scores: list[int]


class Summary(BaseModel):
    #: As ``sheepshead check`` reports a complete hand (without ok/complete).
    result: dict[str, Any]
    hands: list[list[str]]
    blind: list[str]
    bury: list[str]


class TableState(BaseModel):
    id: str
    version: int
    seat: int
    players: int
    rules: dict[str, Any]
    level: str
    names: list[str]
    hand_number: int
    view: dict[str, Any] = Field(
        description="SeatView.to_json() of seat 0, except that its refusals map each card "
        "to {code, params, text} (the refusal's code, its parameters and the engine's "
        "sentence) rather than to the sentence alone"
    )
    scores: list[int]
    score_sheet: list[ScoreLine]
    seed_sha256: str
    seed: str | None = Field(description="The hand's seed in hex, once the hand is over")
    summary: Summary | None
    hand_over: bool


class Step(BaseModel):
    state: TableState
    events: list[Event]


class Error(BaseModel):
    detail: str = Field(description="Why, in an English sentence")
    code: str | None = Field(
        default=None,
        description="Why, as a code (docs/api.md lists them); absent for a malformed request",
    )
    params: dict[str, Any] | None = Field(
        default=None, description="The code's parameters: seats, cards, suits, counts"
    )


class Conflict(BaseModel):
    detail: str
    code: str = Field(description="Why, as a code (docs/api.md lists them)")
    params: dict[str, Any]
    state: TableState


class Deal(BaseModel):
    seed_sha256: str
    players: int
    hands: list[list[str]]
    blind: list[str]
