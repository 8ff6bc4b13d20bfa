"""The API's bodies, in and out. Inputs refuse unknown fields; outputs document the
contract of ``docs/api.md`` (the view itself is ``SeatView.to_json()``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

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


class _Event(BaseModel):
    """An event as one seat may see it (``events.events_for_seat``; docs/api.md, Events):
    its type, who acted, its facts, and ``text``: the English sentence said to that seat."""

    seat: int | None = Field(description="Who acted; null for a trick taken or the hand's score")
    text: str = Field(description="The event in English, said to the seat that reads it")


class PassEvent(_Event):
    type: Literal["pass"]
    nobody_picked: Literal["leaster", "thrown-in"] | None = Field(
        description="On the last pass when nobody picked: what the hand becomes"
    )


class PickEvent(_Event):
    type: Literal["pick"]


class BuryEvent(_Event):
    type: Literal["bury"]
    count: int
    cards: list[str] | None = Field(description="The buried cards: to the picker only")


class CallEvent(_Event):
    type: Literal["call"]
    card: str
    unknown: str | None = Field(
        description="The picker's unknown card: its text to the picker, ?? to the others; "
        "null when there is none"
    )


class AloneEvent(_Event):
    type: Literal["alone"]


class CrackEvent(_Event):
    type: Literal["crack"]


class NoCrackEvent(_Event):
    type: Literal["nocrack"]


class NameEvent(_Event):
    type: Literal["name"]
    trick: int


class PlayEvent(_Event):
    type: Literal["play"]
    card: str = Field(description="The card, or ?? face down (the picker's unknown card)")


class TrickEvent(_Event):
    type: Literal["trick"]
    winner: int
    points: int | None = Field(
        description="Card points; null to a seat that may not know them (a face-down card)"
    )


class HandEvent(_Event):
    type: Literal["hand"]
    result: str
    picker: int | None
    partners: list[int]
    alone: bool
    leaster: bool
    points: list[int] | None = Field(
        description="Card points: [picker's side, defenders], one per seat in a leaster"
    )
    scores: list[int]


Event = Annotated[
    PassEvent
    | PickEvent
    | BuryEvent
    | CallEvent
    | AloneEvent
    | CrackEvent
    | NoCrackEvent
    | NameEvent
    | PlayEvent
    | TrickEvent
    | HandEvent,
    Field(discriminator="type"),
]


class ScoreLine(BaseModel):
    hand: int
    dealer: int
    picker: int | None
    partners: list[int]
    result: str
    multiplier: int
    scores: list[int]
    seed_sha256: str = Field(description="The SHA-256 of the hand's seed, shown at its deal")
    seed: str | None = Field(
        description="The hand's seed in hex (a daily deal's: once the day is over)"
    )


class Summary(BaseModel):
    #: As ``sheepshead check`` reports a complete hand (without ok/complete).
    result: dict[str, Any]
    hands: list[list[str]]
    blind: list[str]
    bury: list[str]


class Doubling(BaseModel):
    reason: str = Field(description="doubler | crack | bump")
    times: int
    seat: int | None = Field(description="The seat that cracked; null otherwise")


class Worth(BaseModel):
    """What the hand is worth as seat 0 knows it (``view.hand_worth``)."""

    kind: str = Field(description="picking | picker | alone | leaster | thrown-in")
    side_points: int | None = Field(
        description="Card points of the tricks won by the seats seat 0 knows to be on the "
        "picker's side, with the bury for the picker only; the scored total once the hand "
        "is over; null with no picker"
    )
    face_down: bool = Field(description="A counted trick holds the face-down unknown card")
    bury_points: int | None = Field(description="The bury's card points: to the picker only")
    multiplier: int
    doublings: list[Doubling]
    bump_if_lost: bool = Field(description="A loss of the picker's side would double")


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
    worth: Worth
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
