"""The rules object: every option of the rule sheet, its presets, and the scoring table.

Field names, values and defaults are those of the hand-record format
(``shared/hand-record.md``), so a record's ``rules`` object maps onto ``Rules``
one to one. ``Rules.from_record`` refuses unknown fields, bad values and
combinations outside the deal table with a message that says which.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from sheepshead.phrases import N_
from sheepshead.values import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any


class PartnerRule(StrEnum):
    CALLED_ACE = "called-ace"
    JACK_OF_DIAMONDS = "jack-of-diamonds"
    NONE = "none"


class JdPickerHolds(StrEnum):
    ALONE = "alone"
    CALL_JACK_OF_HEARTS = "call-jack-of-hearts"


class NobodyPicks(StrEnum):
    LEASTER = "leaster"
    DOUBLER = "doubler"
    FORCED_PICK = "forced-pick"


class LeasterBlind(StrEnum):
    LAST_TRICK = "last-trick"
    NAMED_TRICK = "named-trick"
    ASIDE = "aside"


class Result(StrEnum):
    WIN = "win"
    WIN_SCHNEIDER = "win-schneider"
    WIN_NO_TRICK = "win-no-trick"
    LOSS = "loss"
    LOSS_SCHNEIDER = "loss-schneider"
    LOSS_NO_TRICK = "loss-no-trick"
    LEASTER = "leaster"
    DOUBLER = "doubler"

    @property
    def is_win(self) -> bool:
        return self in _WINS

    @property
    def is_loss(self) -> bool:
        return self in _LOSSES


_WINS = frozenset((Result.WIN, Result.WIN_SCHNEIDER, Result.WIN_NO_TRICK))
_LOSSES = frozenset((Result.LOSS, Result.LOSS_SCHNEIDER, Result.LOSS_NO_TRICK))


class RulesError(ValueError):
    """A rules object that cannot be played: an unknown field, a bad value or combination."""


#: players -> (cards per seat, blind size), from the deal table.
DEAL_TABLE: dict[int, tuple[int, int]] = {3: (10, 2), 4: (7, 4), 5: (6, 2), 6: (5, 2)}

#: The partner rule each head count plays by default.
DEFAULT_PARTNER: dict[int, PartnerRule] = {
    3: PartnerRule.NONE,
    4: PartnerRule.NONE,
    5: PartnerRule.CALLED_ACE,
    6: PartnerRule.JACK_OF_DIAMONDS,
}

#: The head counts each partner rule may be played with.
PARTNER_PLAYERS: dict[PartnerRule, tuple[int, ...]] = {
    PartnerRule.NONE: (3, 4),
    PartnerRule.CALLED_ACE: (4, 5),
    PartnerRule.JACK_OF_DIAMONDS: (5, 6),
}

#: The only head count and partner rule a second partner is played with.
SECOND_PARTNER: tuple[int, PartnerRule] = (6, PartnerRule.JACK_OF_DIAMONDS)


class Rules(Value):
    """Every option of the rule sheet. ``Rules()`` is ``standard``.

    A frozen value (``values.Value``); ``RULE_FIELDS`` names its fields in order,
    and ``replace`` gives a copy with some changed."""

    __slots__ = __match_args__ = (
        "players",
        "partner",
        "call_unknown",
        "call_ten",
        "alone",
        "jd_picker_holds",
        "second_partner",
        "nobody_picks",
        "leaster_blind",
        "leaster_needs_trick",
        "double_on_the_bump",
        "forced_pick_bump",
        "cracking",
    )
    players: int
    #: None on construction means "the default for ``players``" (resolved there).
    partner: PartnerRule
    call_unknown: bool
    call_ten: bool
    alone: bool
    jd_picker_holds: JdPickerHolds
    second_partner: bool
    nobody_picks: NobodyPicks
    leaster_blind: LeasterBlind
    leaster_needs_trick: bool
    double_on_the_bump: bool
    forced_pick_bump: bool
    cracking: bool

    def __init__(
        self,
        players: int = 5,
        partner: PartnerRule | None = None,
        call_unknown: bool = True,
        call_ten: bool = True,
        alone: bool = True,
        jd_picker_holds: JdPickerHolds = JdPickerHolds.ALONE,
        second_partner: bool = False,
        nobody_picks: NobodyPicks = NobodyPicks.LEASTER,
        leaster_blind: LeasterBlind = LeasterBlind.LAST_TRICK,
        leaster_needs_trick: bool = True,
        double_on_the_bump: bool = True,
        forced_pick_bump: bool = True,
        cracking: bool = False,
    ) -> None:
        values = (
            players,
            partner,
            call_unknown,
            call_ten,
            alone,
            jd_picker_holds,
            second_partner,
            nobody_picks,
            leaster_blind,
            leaster_needs_trick,
            double_on_the_bump,
            forced_pick_bump,
            cracking,
        )
        for name, value in zip(self.__match_args__, values, strict=True):
            object.__setattr__(self, name, value)
        self._check()

    def replace(self, **changes: Any) -> Rules:
        """A copy with the named fields changed (checked as a new ``Rules`` is)."""
        return Rules(**{**{name: getattr(self, name) for name in self.__match_args__}, **changes})

    def _check(self) -> None:
        if type(self.players) is not int or self.players not in DEAL_TABLE:
            raise RulesError(f"players must be 3, 4, 5 or 6, not {self.players!r}")
        if self.partner is None:
            object.__setattr__(self, "partner", DEFAULT_PARTNER[self.players])
        for name, enum in _ENUM_FIELDS.items():
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, enum(value))
            except ValueError:
                allowed = ", ".join(f'"{v.value}"' for v in enum)
                raise RulesError(f"{name} must be one of {allowed}, not {value!r}") from None
        for name in _BOOL_FIELDS:
            if type(getattr(self, name)) is not bool:
                raise RulesError(f"{name} must be true or false, not {getattr(self, name)!r}")
        allowed_players = PARTNER_PLAYERS[self.partner]
        if self.players not in allowed_players:
            counts = " or ".join(str(p) for p in allowed_players)
            raise RulesError(
                f'partner "{self.partner.value}" is played with {counts} players, '
                f"not {self.players}"
            )
        if self.second_partner and (self.players, self.partner) != SECOND_PARTNER:
            raise RulesError(
                "second_partner is played only with 6 players and the jack of diamonds"
            )

    # Derived facts -------------------------------------------------------

    @property
    def cards_per_seat(self) -> int:
        return DEAL_TABLE[self.players][0]

    @property
    def blind_size(self) -> int:
        return DEAL_TABLE[self.players][1]

    @property
    def tricks(self) -> int:
        """Tricks in a hand: one per card in each seat's hand."""
        return DEAL_TABLE[self.players][0]

    # Records -------------------------------------------------------------

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Rules:
        """Read a record's ``rules`` object: only the fields that differ from the defaults."""
        if not isinstance(data, Mapping):
            raise RulesError("rules must be a JSON object")
        known = set(RULE_FIELDS)
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rules field: {unknown[0]}")
        return cls(**dict(data))

    def to_record(self) -> dict[str, Any]:
        """The fields that differ from the defaults (the partner default follows ``players``)."""
        out: dict[str, Any] = {}
        default = Rules(players=self.players)
        if self.players != 5:
            out["players"] = self.players
        for name in RULE_FIELDS:
            if name == "players":
                continue
            value = getattr(self, name)
            if value != getattr(default, name):
                out[name] = value.value if isinstance(value, StrEnum) else value
        return out


#: The fields of ``Rules``, in order (a record's ``rules`` object names these).
RULE_FIELDS: tuple[str, ...] = Rules.__match_args__

_ENUM_FIELDS: dict[str, type[StrEnum]] = {
    "partner": PartnerRule,
    "jd_picker_holds": JdPickerHolds,
    "nobody_picks": NobodyPicks,
    "leaster_blind": LeasterBlind,
}
_BOOL_FIELDS = (
    "call_unknown",
    "call_ten",
    "alone",
    "second_partner",
    "leaster_needs_trick",
    "double_on_the_bump",
    "forced_pick_bump",
    "cracking",
)

#: Named presets. ``standard`` is the default and the daily game's rule set.
PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "three-handed": Rules(players=3),
    "four-handed": Rules(players=4),
    "four-handed-called-ace": Rules(players=4, partner=PartnerRule.CALLED_ACE),
    "six-handed": Rules(players=6),
    "jack-of-diamonds": Rules(partner=PartnerRule.JACK_OF_DIAMONDS),
}


#: Each preset's title, as the settings form offers it (translated where shown).
PRESET_TITLES: dict[str, str] = {
    "standard": N_("Standard: five players, called ace"),
    "three-handed": N_("Three-handed"),
    "four-handed": N_("Four-handed"),
    "four-handed-called-ace": N_("Four-handed, called ace"),
    "six-handed": N_("Six-handed, jack of diamonds"),
    "jack-of-diamonds": N_("Five-handed, jack of diamonds"),
}

#: The options of the rule sheet as the settings form shows them: groups with a title,
#: each option's title, and each choice's title (``catalog``; the page builds its
#: controls from these, so that a new option or preset is a change here only).
FORM_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("The table"), ("players", "partner")),
    (
        N_("Calling a partner"),
        ("call_unknown", "call_ten", "alone", "jd_picker_holds", "second_partner"),
    ),
    (
        N_("When nobody picks"),
        ("nobody_picks", "leaster_blind", "leaster_needs_trick", "forced_pick_bump"),
    ),
    (N_("Scoring"), ("double_on_the_bump", "cracking")),
)
OPTION_TITLES: dict[str, str] = {
    "players": N_("Players"),
    "partner": N_("Partner"),
    "call_unknown": N_("The unknown-card call is allowed"),
    "call_ten": N_("The called ten is allowed"),
    "alone": N_("The picker may go alone at will"),
    "jd_picker_holds": N_("When the picker holds the jack of diamonds"),
    "second_partner": N_("Six-handed: the seat on the picker's right is a second partner"),
    "nobody_picks": N_("What is played"),
    "leaster_blind": N_("The leaster's blind goes to"),
    "leaster_needs_trick": N_("A leaster winner must have taken a trick"),
    "forced_pick_bump": N_("Double on the bump for a forced pick too"),
    "double_on_the_bump": N_("Double on the bump: the picker's side loses double"),
    "cracking": N_("Cracking: seats that had no chance to pick may double"),
}
CHOICE_TITLES: dict[str, dict[str, str]] = {
    "partner": {
        "called-ace": N_("Called ace"),
        "jack-of-diamonds": N_("Jack of diamonds"),
        "none": N_("None: the picker plays alone"),
    },
    "jd_picker_holds": {
        "alone": N_("The picker plays alone"),
        "call-jack-of-hearts": N_("The picker calls the jack of hearts"),
    },
    "nobody_picks": {
        "leaster": N_("A leaster: fewest points wins"),
        "doubler": N_("A doubler: deal again, the next hand counts double"),
        "forced-pick": N_("A forced pick: the dealer must pick"),
    },
    "leaster_blind": {
        "last-trick": N_("The winner of the last trick"),
        "named-trick": N_("The winner of a trick the dealer names"),
        "aside": N_("Nobody: it is set aside"),
    },
}


def full_record(rules: Rules) -> dict[str, Any]:
    """Every field of ``rules`` as JSON, defaults included (``to_record`` leaves them out)."""
    return {
        name: value.value if isinstance(value := getattr(rules, name), StrEnum) else value
        for name in RULE_FIELDS
    }


def _option(name: str) -> dict[str, Any]:
    default = getattr(Rules(), name)
    if name == "players":
        choices: list[Any] = sorted(DEAL_TABLE)
        kind = "count"
    elif name in _ENUM_FIELDS:
        choices = [v.value for v in _ENUM_FIELDS[name]]
        kind = "choice"
    else:
        choices, kind = [False, True], "bool"
    return {
        "name": name,
        "kind": kind,
        "default": default.value if isinstance(default, StrEnum) else default,
        "choices": choices,
        "title": OPTION_TITLES[name],
        "choice_titles": CHOICE_TITLES.get(name, {}),
    }


def catalog() -> dict[str, Any]:
    """The rule sheet as data, for the page (``docs/api.md``, ``GET /api/v1/rules``): the
    options with their defaults and choices, in the form's groups; the presets as full
    rules objects; the head counts and the deal table; which partner rule each head
    count defaults to and may be played with, and where a second partner is played."""
    return {
        "groups": [
            {"title": title, "options": [_option(name) for name in names]}
            for title, names in FORM_GROUPS
        ],
        "defaults": full_record(Rules()),
        "presets": [
            {"name": name, "title": PRESET_TITLES[name], "rules": full_record(rules)}
            for name, rules in PRESETS.items()
        ],
        "head_counts": sorted(DEAL_TABLE),
        "deal_table": {
            str(n): {"cards_per_seat": cards, "blind": blind, "tricks": cards}
            for n, (cards, blind) in sorted(DEAL_TABLE.items())
        },
        "default_partner": {str(n): rule.value for n, rule in sorted(DEFAULT_PARTNER.items())},
        "partner_players": {rule.value: list(n) for rule, n in PARTNER_PLAYERS.items()},
        "second_partner": {"players": SECOND_PARTNER[0], "partner": SECOND_PARTNER[1].value},
    }


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"no preset named {name!r}; presets: {', '.join(PRESETS)}") from None


# Scoring ----------------------------------------------------------------


def picker_result(points: int, tricks_won: int, tricks: int) -> Result:
    """The result from the picker's side's card points and tricks (tricks decide first)."""
    if tricks_won == tricks:
        return _WIN_NO_TRICK
    if tricks_won == 0:
        return _LOSS_NO_TRICK
    if points >= 91:
        return _WIN_SCHNEIDER
    if points >= 61:
        return _WIN
    if points >= 31:
        return _LOSS
    return _LOSS_SCHNEIDER


# The results as plain names: a member read from the class costs a class lookup.
_WIN, _WIN_SCHNEIDER, _WIN_NO_TRICK = Result.WIN, Result.WIN_SCHNEIDER, Result.WIN_NO_TRICK
_LOSS, _LOSS_SCHNEIDER, _LOSS_NO_TRICK = Result.LOSS, Result.LOSS_SCHNEIDER, Result.LOSS_NO_TRICK


#: The base multiplier m of each result.
RESULT_MULTIPLIER: dict[Result, int] = {
    Result.WIN: 1,
    Result.LOSS: 1,
    Result.WIN_SCHNEIDER: 2,
    Result.LOSS_SCHNEIDER: 2,
    Result.WIN_NO_TRICK: 3,
    Result.LOSS_NO_TRICK: 3,
}


def picker_scores(
    players: int, picker: int, partners: frozenset[int], result: Result, multiplier: int
) -> tuple[int, ...]:
    """Game points per seat: each defender -m on a win (+m on a loss), each partner
    the opposite, the picker the balance, so that the hand sums to zero."""
    m = RESULT_MULTIPLIER[result] * multiplier
    side = 1 if result.is_win else -1
    scores = [0] * players
    for seat in range(players):
        if seat == picker:
            continue
        scores[seat] = side * m if seat in partners else -side * m
    scores[picker] = -sum(scores)
    return tuple(scores)
