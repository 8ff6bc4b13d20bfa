"""One test (or table row) per rule of rules.md, before play: seats, picking, deal table,
bury, each kind of call, the jack-of-diamonds partner, cracking, and nobody picking.

Deals are written in card text (see hands.py). Refusals are checked with the exact
reason a person is shown.
"""

from __future__ import annotations

import pytest

from engine.hands import game_of, legal, reason, run
from sheepshead.cards import card_points
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.rules import PRESETS, PartnerRule, Rules, RulesError

# Seat 3 picks here; the dealt hands leave it one club (9C) and two hearts (7H 8H).
ACE_DEAL = (
    "QC JD AC 7C KS 9H / QS TH 8S 9S AH 7D / JC KC TC 8C QH KH / "
    "AS TS 9C 7H 8H QD / JS JH AD TD KD 9D | 7S 8D"
)
# Seat 3 picks here and holds spades and trump only: no ace can be called.
UNKNOWN_DEAL = (
    "AH QC 7C 8C TS 8D / QS JS TH KH 9C AC / QH JH 7H 9H TC KC / "
    "AS 9S 8S QD JC 7D / JD AD TD KD 9D 8H | KS 7S"
)
# Seat 3 picks here and holds all three fail aces.
TEN_DEAL = (
    "8S QC 7D 8C TS 8H / QS JS TH KH 9C 9S / QH JH 7H 9H TC KC / "
    "AS AH AC QD JC 7C / JD AD TD KD KS 7S | 9D 8D"
)

JD_RULES = Rules(partner=PartnerRule.JACK_OF_DIAMONDS)


def picked(deal: str, rules: Rules | None = None, *moves: str) -> Game:
    """Seats 1 and 2 pass, seat 3 picks (dealer 0), then ``moves``."""
    return run(game_of(deal, rules), "1 pass, 2 pass, 3 pick", *moves)


# Seats and picking -----------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 3, 4])
def test_picking_goes_left_from_the_dealers_left_and_the_dealer_speaks_last(dealer: int) -> None:
    game = game_of("* / * / * / * / * | *", dealer=dealer)
    order = []
    while game.phase is Phase.PICKING:
        assert game.turn is not None
        order.append(game.turn)
        assert legal(game) == ["pass", "pick"]
        game = run(game, f"{game.turn} pass")
    assert order == [(dealer + k) % 5 for k in range(1, 6)]
    assert order[-1] == dealer


def test_the_first_pick_ends_picking_and_the_picker_takes_the_blind() -> None:
    game = run(game_of(ACE_DEAL), "1 pass, 2 pick")
    assert game.picker == 2
    assert game.phase is Phase.BURYING
    assert game.turn == 2
    cards = sorted(c.text for c in game.hands[2])
    assert cards == sorted(["JC", "KC", "TC", "8C", "QH", "KH", "7S", "8D"])
    assert reason(game, "3 pass") == "it is seat 2's turn, not seat 3's"
    assert reason(game, "2 pass") == "seat 2 must bury now, not pass"


def test_the_seat_on_the_dealers_left_leads_the_first_trick() -> None:
    game = picked(ACE_DEAL, None, "3 bury 7S 8D", "3 call AC")
    assert game.phase is Phase.PLAYING
    assert game.turn == 1
    assert reason(game, "3 play AS") == "it is seat 1's turn, not seat 3's"


def test_out_of_turn_and_wrong_phase_reasons() -> None:
    game = game_of(ACE_DEAL)
    assert reason(game, "0 pick") == "it is seat 1's turn, not seat 0's"
    assert reason(game, "7 pick") == "there is no seat 7 at a table of 5"
    assert reason(game, "1 bury 7C 9H") == "seat 1 must pick or pass now, not bury"
    assert reason(game, "1 play QS") == "seat 1 must pick or pass now, not play"


# Deal table -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "each", "blind", "partner"),
    [
        ("three-handed", 3, 10, 2, "none"),
        ("four-handed", 4, 7, 4, "none"),
        ("four-handed-called-ace", 4, 7, 4, "called-ace"),
        ("standard", 5, 6, 2, "called-ace"),
        ("jack-of-diamonds", 5, 6, 2, "jack-of-diamonds"),
        ("six-handed", 6, 5, 2, "jack-of-diamonds"),
    ],
)
def test_deal_table(name: str, players: int, each: int, blind: int, partner: str) -> None:
    rules = PRESETS[name]
    assert (rules.players, rules.cards_per_seat, rules.blind_size) == (players, each, blind)
    assert rules.partner.value == partner
    assert rules.tricks == each
    game = Game.deal(rules, 0, b"deal-table")
    assert [len(h) for h in game.hands] == [each] * players
    assert len(game.blind) == blind
    assert card_points(c for h in game.hands for c in h) + card_points(game.blind) == 120
    picker = run(game, "1 pick")
    assert len(picker.legal_actions()[0].cards) == blind  # type: ignore[union-attr]


def test_standard_is_the_default_rules_object() -> None:
    rules = PRESETS["standard"]
    assert rules == Rules()
    assert rules.to_record() == {}
    assert (rules.call_unknown, rules.call_ten, rules.alone, rules.cracking) == (
        True,
        True,
        True,
        False,
    )
    assert rules.nobody_picks.value == "leaster"
    assert rules.double_on_the_bump


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": 3, "partner": "called-ace"}, 'partner "called-ace" is played with 4 or 5 players, not 3'),  # noqa: E501
        ({"partner": "none"}, 'partner "none" is played with 3 or 4 players, not 5'),
        ({"players": 6, "partner": "called-ace"}, 'partner "called-ace" is played with 4 or 5 players, not 6'),  # noqa: E501
        ({"players": 4, "partner": "jack-of-diamonds"}, 'partner "jack-of-diamonds" is played with 5 or 6 players, not 4'),  # noqa: E501
        ({"second_partner": True}, "second_partner is played only with 6 players and the jack of diamonds"),  # noqa: E501
        ({"players": 7}, "players must be 3, 4, 5 or 6, not 7"),
        ({"cracking": "yes"}, "cracking must be true or false, not 'yes'"),
        ({"blitz": True}, "unknown rules field: blitz"),
    ],
)  # fmt: skip
def test_invalid_rules_are_refused_with_a_clear_message(
    fields: dict[str, object], message: str
) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_record(fields)
    assert str(caught.value) == message


# Bury -------------------------------------------------------------------------


def test_the_picker_may_bury_any_two_of_eight_cards() -> None:
    game = picked(ACE_DEAL)
    buries = legal(game)
    assert len(buries) == 28
    assert buries == sorted(buries)
    assert buries[0] == "bury 7H 7S"
    assert "bury 9C QD" in buries
    assert reason(game, "3 bury 7S") == "the picker buries 2 cards, not 1"
    assert reason(game, "3 bury AC 7S") == "the picker does not hold AC"
    assert reason(game, "3 call AC") == "seat 3 must bury now, not call"


def test_four_handed_called_ace_buries_four() -> None:
    game = run(Game.deal(PRESETS["four-handed-called-ace"], 0, b"four"), "1 pick")
    assert len(legal(game)) == 330  # 11 cards choose 4
    assert reason(game, "1 bury " + " ".join(c.text for c in game.hands[1][:2])) == (
        "the picker buries 4 cards, not 2"
    )


# The ace call and the hold card ------------------------------------------------


def test_ace_call_needs_a_card_of_the_suit_in_hand_and_not_its_ace() -> None:
    game = picked(ACE_DEAL, None, "3 bury 7S 8D")
    assert legal(game) == ["alone", "call AC", "call AH"]
    assert reason(game, "3 call AS") == "the picker holds AS and cannot call it"
    assert reason(game, "3 call AD") == "AD cannot be called: call a fail ace, or a ten"
    assert reason(game, "3 call TC") == (
        "a ten may be called only by a picker who holds all three fail aces"
    )
    assert reason(game, "3 call AC unknown 7H") == (
        "the picker holds a club: call AC without an unknown card"
    )


def test_burying_the_only_card_of_a_suit_makes_its_ace_uncallable() -> None:
    game = picked(ACE_DEAL, None, "3 bury 9C 7S")
    assert legal(game) == ["alone", "call AH"]
    assert reason(game, "3 call AC") == "the picker must hold a club to call AC"


def test_a_buried_ace_is_held() -> None:
    game = picked(ACE_DEAL, None, "3 bury AS 7S")
    assert legal(game) == ["alone", "call AC", "call AH"]
    assert reason(game, "3 call AS") == "the picker holds AS and cannot call it"


def test_the_called_aces_holder_is_the_partner() -> None:
    game = picked(ACE_DEAL, None, "3 bury 7S 8D", "3 call AH")
    assert game.partners == frozenset({1})
    assert not game.alone
    assert game.called is not None
    assert game.view(1).partner
    assert not game.view(0).partner


# The unknown card ------------------------------------------------------------------


def test_unknown_call_when_no_ace_is_callable() -> None:
    game = picked(UNKNOWN_DEAL, None, "3 bury 7S KS")
    hand = ["7D", "8S", "9S", "AS", "JC", "QD"]
    assert legal(game) == ["alone"] + [
        f"call {ace} unknown {c}" for ace in ("AC", "AH") for c in sorted(hand)
    ]
    assert reason(game, "3 call AC") == (
        "the picker must hold a club to call AC (or call it with an unknown card)"
    )
    assert reason(game, "3 call AC unknown KS") == (
        "the unknown card must be in the picker's hand, and KS is not"
    )
    assert reason(game, "3 call AS unknown 7D") == "the picker holds AS and cannot call it"


def test_no_unknown_call_while_an_ace_is_callable() -> None:
    game = picked(ACE_DEAL, None, "3 bury 7S 8D")
    assert not [a for a in legal(game) if "unknown" in a]


def test_no_unknown_call_when_the_option_is_off() -> None:
    game = picked(UNKNOWN_DEAL, Rules(call_unknown=False), "3 bury 7S KS")
    assert legal(game) == ["alone"]
    assert reason(game, "3 call AC unknown 7D") == (
        "the unknown-card call is not played under these rules"
    )


def test_no_unknown_call_when_the_picker_holds_all_three_aces() -> None:
    game = picked(TEN_DEAL, Rules(call_ten=False), "3 bury 9D 8D")
    assert legal(game) == ["alone"]
    assert reason(game, "3 call AC unknown 7C") == "the picker holds AC and cannot call it"


def test_the_unknown_card_is_known_to_the_picker_only() -> None:
    game = picked(UNKNOWN_DEAL, None, "3 bury 7S KS", "3 call AH unknown 7D")
    assert game.partners == frozenset({0})
    assert game.view(3).unknown is not None
    unknown = game.view(3).unknown
    assert unknown is not None
    assert unknown.text == "7D"
    for seat in (0, 1, 2, 4):
        view = game.view(seat)
        assert view.unknown is None
        assert view.unknown_call
        assert "3 call AH unknown" in view.moves
        assert "3 call AH unknown 7D" not in view.moves


# The called ten ------------------------------------------------------------------


def test_ten_call_when_the_picker_holds_all_three_aces() -> None:
    game = picked(TEN_DEAL, None, "3 bury 9D 8D")
    assert legal(game) == ["alone", "call TC", "call TH", "call TS"]
    assert reason(game, "3 call AC") == "the picker holds AC and cannot call it"


def test_a_buried_ace_counts_as_held_but_its_ten_cannot_be_called() -> None:
    game = picked(TEN_DEAL, None, "3 bury AS 9D")
    assert legal(game) == ["alone", "call TC", "call TH"]
    assert reason(game, "3 call TS") == (
        "TS cannot be called: the picker must hold that suit's ace in hand"
    )


def test_a_ten_the_picker_holds_cannot_be_called() -> None:
    deal = TEN_DEAL.replace("JC 7C", "JC TC").replace("9H TC KC", "9H 7C KC")
    game = picked(deal, None, "3 bury 9D 8D")
    assert legal(game) == ["alone", "call TH", "call TS"]
    assert reason(game, "3 call TC") == "the picker holds TC and cannot call it"


def test_no_ten_call_when_the_option_is_off() -> None:
    game = picked(TEN_DEAL, Rules(call_ten=False), "3 bury 9D 8D")
    assert legal(game) == ["alone"]
    assert reason(game, "3 call TC") == "the called ten is not played under these rules"


def test_a_trump_ten_is_never_called() -> None:
    game = picked(TEN_DEAL, None, "3 bury 9D 8D")
    assert reason(game, "3 call TD") == "TD cannot be called: call a fail ace, or a ten"


# Alone ---------------------------------------------------------------------------


def test_alone_is_allowed_by_default() -> None:
    game = picked(ACE_DEAL, None, "3 bury 7S 8D", "3 alone")
    assert game.alone
    assert game.partners == frozenset()
    assert game.phase is Phase.PLAYING


def test_alone_refused_when_the_option_is_off_and_a_call_exists() -> None:
    game = picked(ACE_DEAL, Rules(alone=False), "3 bury 7S 8D")
    assert legal(game) == ["call AC", "call AH"]
    assert reason(game, "3 alone") == "going alone is not allowed while a partner can be called"


def test_alone_forced_when_nothing_can_be_called() -> None:
    game = picked(UNKNOWN_DEAL, Rules(alone=False, call_unknown=False), "3 bury 7S KS")
    assert legal(game) == ["alone"]
    game = picked(TEN_DEAL, Rules(alone=False, call_ten=False), "3 bury 9D 8D")
    assert legal(game) == ["alone"]


def test_alone_off_still_offers_unknown_and_ten_calls() -> None:
    assert "alone" not in legal(picked(UNKNOWN_DEAL, Rules(alone=False), "3 bury 7S KS"))
    assert legal(picked(TEN_DEAL, Rules(alone=False), "3 bury 9D 8D")) == [
        "call TC",
        "call TH",
        "call TS",
    ]


# Jack of diamonds partner -----------------------------------------------------------


def test_jack_of_diamonds_call_takes_its_holder_as_partner() -> None:
    game = picked(ACE_DEAL, JD_RULES, "3 bury 7S 8D")
    assert legal(game) == ["alone", "call JD"]
    assert reason(game, "3 call AC") == (
        "under the jack-of-diamonds rule the picker may alone or call JD"
    )
    game = run(game, "3 call JD")
    assert game.partners == frozenset({0})
    assert game.called_suit is None


def test_jack_of_diamonds_picker_holding_it_plays_alone() -> None:
    deal = ACE_DEAL.replace("QC JD", "QC 8D").replace("| 7S 8D", "| 7S JD")
    game = picked(deal, JD_RULES, "3 bury 7S AS")  # JD stays in hand
    assert legal(game) == ["alone"]
    assert reason(game, "3 call JD") == "the picker holds the jack of diamonds and cannot call it"
    game = picked(deal, JD_RULES, "3 bury 7S JD")  # JD in the bury is held too
    assert legal(game) == ["alone"]


def test_jack_of_diamonds_picker_holding_it_may_call_the_jack_of_hearts() -> None:
    deal = ACE_DEAL.replace("QC JD", "QC 8D").replace("| 7S 8D", "| 7S JD")
    rules = Rules(partner=PartnerRule.JACK_OF_DIAMONDS, jd_picker_holds="call-jack-of-hearts")  # type: ignore[arg-type]
    game = picked(deal, rules, "3 bury 7S AS")
    assert legal(game) == ["alone", "call JH"]
    assert run(game, "3 call JH").partners == frozenset({4})


def test_jack_of_hearts_option_when_the_picker_holds_both_jacks() -> None:
    deal = (
        ACE_DEAL.replace("QC JD", "QC 8D").replace("JS JH", "JS 7S").replace("| 7S 8D", "| JH JD")
    )
    rules = Rules(partner=PartnerRule.JACK_OF_DIAMONDS, jd_picker_holds="call-jack-of-hearts")  # type: ignore[arg-type]
    assert legal(picked(deal, rules, "3 bury 9C AS")) == ["alone"]


SIX_DEAL = (
    "QC JD AC 7C KS / QS TH 8S 9S AH / JC KC TC 8C QH / "
    "AS TS 9C 7H 8H / JS JH AD TD KD / 9D 7D KH 9H QD | 7S 8D"
)
SIX_SECOND = Rules(players=6, second_partner=True)


def test_six_handed_second_partner_is_the_seat_on_the_pickers_right() -> None:
    game = run(game_of(SIX_DEAL, SIX_SECOND), "1 pass, 2 pass, 3 pick, 3 bury 7S 8D, 3 call JD")
    assert game.partners == frozenset({0, 2})
    # Everyone knows the second partner; the jack's holder is secret until it is played.
    assert game.view(4).known_partners == frozenset({2})


def test_six_handed_no_second_partner_when_alone() -> None:
    game = run(game_of(SIX_DEAL, SIX_SECOND), "1 pass, 2 pass, 3 pick, 3 bury 7S 8D, 3 alone")
    assert game.partners == frozenset()
    assert game.alone


def test_six_handed_without_the_option_has_one_partner() -> None:
    game = run(
        game_of(SIX_DEAL, Rules(players=6)), "1 pass, 2 pass, 3 pick, 3 bury 7S 8D, 3 call JD"
    )
    assert game.partners == frozenset({0})


@pytest.mark.parametrize("name", ["three-handed", "four-handed"])
def test_no_partner_no_call_step(name: str) -> None:
    game = run(Game.deal(PRESETS[name], 0, b"no-call"), "1 pick")
    game = game.apply(game.legal_actions()[0])  # the bury
    assert game.phase is Phase.PLAYING
    assert game.alone
    assert game.turn == 1


# Cracking ---------------------------------------------------------------------------

CRACKING = Rules(cracking=True)


def test_cracking_seats_after_the_picker_up_to_the_dealer_in_order() -> None:
    game = run(game_of(ACE_DEAL, CRACKING), "1 pass, 2 pick, 2 bury 7S 8D, 2 call AH")
    order = []
    while game.phase is Phase.CRACKING:
        order.append(game.turn)
        game = run(game, f"{game.turn} nocrack")
    assert order == [3, 4, 0]
    assert game.turn == 1


def test_each_crack_doubles_and_the_partner_may_only_say_no_crack() -> None:
    game = run(game_of(ACE_DEAL, CRACKING), "1 pass, 2 pick, 2 bury 7S 8D, 2 call AC")
    assert legal(game) == ["crack", "nocrack"]
    game = run(game, "3 crack, 4 crack")
    assert game.turn == 0
    assert legal(game) == ["nocrack"]
    assert reason(game, "0 crack") == "the picker's partner may not crack"
    game = run(game, "0 nocrack")
    assert game.cracks == (3, 4)
    assert game.phase is Phase.PLAYING


def test_no_cracking_when_the_dealer_picks() -> None:
    game = run(game_of(ACE_DEAL, CRACKING, dealer=3), "4 pass, 0 pass, 1 pass, 2 pass, 3 pick")
    game = run(game, "3 bury 7S 8D, 3 call AC")
    assert game.phase is Phase.PLAYING
    assert game.turn == 4


def test_no_cracking_unless_the_option_is_on() -> None:
    game = run(game_of(ACE_DEAL), "1 pass, 2 pick, 2 bury 7S 8D, 2 call AC")
    assert game.phase is Phase.PLAYING
    assert reason(game, "1 crack") == "seat 1 must play a card now, not crack"


# Nobody picks --------------------------------------------------------------------------

ALL_PASS = "1 pass, 2 pass, 3 pass, 4 pass, 0 pass"


def test_leaster_when_everyone_passes() -> None:
    game = run(game_of(ACE_DEAL), ALL_PASS)
    assert game.phase is Phase.PLAYING
    assert game.picker is None
    assert game.is_leaster
    assert game.turn == 1


def test_leaster_named_trick_the_dealer_names_before_play() -> None:
    game = run(game_of(ACE_DEAL, Rules(leaster_blind="named-trick")), ALL_PASS)  # type: ignore[arg-type]
    assert game.phase is Phase.NAMING
    assert game.turn == 0
    assert legal(game) == [f"name {t}" for t in range(1, 7)]
    assert reason(game, "0 name 7") == "name a trick from 1 to 6, not 7"
    assert reason(game, "0 name 0") == "name a trick from 1 to 6, not 0"
    game = run(game, "0 name 4")
    assert game.named_trick == 4
    assert game.turn == 1
    assert game.phase is Phase.PLAYING


def test_named_trick_numbers_sort_as_text() -> None:
    rules = Rules(players=3, leaster_blind="named-trick")  # type: ignore[arg-type]
    game = run(Game.deal(rules, 0, b"x"), "1 pass, 2 pass, 0 pass")
    assert legal(game) == ["name 1", "name 10"] + [f"name {t}" for t in range(2, 10)]


def test_doubler_throws_the_hand_in() -> None:
    game = run(game_of(ACE_DEAL, Rules(nobody_picks="doubler")), ALL_PASS)  # type: ignore[arg-type]
    assert game.phase is Phase.DONE
    assert game.turn is None
    assert legal(game) == []
    result = game.result()
    assert result is not None
    assert result.result.value == "doubler"
    assert result.scores == (0, 0, 0, 0, 0)
    assert result.tricks == ()
    assert result.points is None
    assert result.picker is None
    assert result.partners == ()
    assert not result.alone


def test_forced_pick_the_dealer_must_pick() -> None:
    rules = Rules(nobody_picks="forced-pick")  # type: ignore[arg-type]
    game = run(game_of(ACE_DEAL, rules), "1 pass, 2 pass, 3 pass, 4 pass")
    assert game.turn == 0
    assert legal(game) == ["pick"]
    assert reason(game, "0 pass") == "everyone else passed: the dealer must pick"
    assert run(game, "0 pick").picker == 0
