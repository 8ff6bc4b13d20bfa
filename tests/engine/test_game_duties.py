"""Play duties, as rules.md "Play" and the call duties pin them: following suit, the
picker's hold card, the partner's called card, the unknown card and the called ten.

Each test plays a hand written in card text and checks what the engine allows and the
exact reason it gives for what it refuses.
"""

from __future__ import annotations

from engine.hands import game_of, plays, reason, run
from sheepshead.game import Game

# Dealer 1: seat 2 speaks first and leads the first trick. Seat 3 picks and buries its
# two trumps, so it holds AS TS 9C 7H 8H 7S: one club, two hearts, no trump. Seat 0 holds
# AC and no heart; seat 1 holds AH.
DUTY_DEAL = (
    "QC JD AC 7C KS 7D / QS TH 8S 9S AH 9H / JC KC TC 8C QH KH / "
    "AS TS 9C 7H 8H QD / JS JH AD TD KD 9D | 7S 8D"
)
# Dealer 0. Seat 3 picks and holds spades and trump only: it calls AH with 7D unknown.
UNKNOWN_DEAL = (
    "AH QC 7C 8C TS 8D / QS JS TH KH 9C AC / QH JH 7H 9H TC KC / "
    "AS 9S 8S QD JC 7D / JD AD TD KD 9D 8H | KS 7S"
)
# Dealer 0. Seat 3 picks with all three fail aces and 7C.
TEN_DEAL = (
    "8S QC 7D 8C TS 8H / QS JS TH KH 9C 9S / QH JH 7H 9H TC KC / "
    "AS AH AC QD JC 7C / JD AD TD KD KS 7S | 9D 8D"
)


def duty_game(call: str) -> Game:
    return run(game_of(DUTY_DEAL, dealer=1), "2 pass, 3 pick, 3 bury 8D QD", f"3 {call}")


def unknown_game() -> Game:
    game = game_of(UNKNOWN_DEAL)
    return run(game, "1 pass, 2 pass, 3 pick, 3 bury 7S KS, 3 call AH unknown 7D")


def ten_game(bury: str = "9D 8D") -> Game:
    return run(game_of(TEN_DEAL), f"1 pass, 2 pass, 3 pick, 3 bury {bury}, 3 call TC")


# Following ---------------------------------------------------------------------------


def test_follow_the_suit_led() -> None:
    game = run(duty_game("call AH"), "2 play TC")
    assert plays(game) == ["9C"]
    assert reason(game, "3 play AS") == "the picker must follow clubs"
    game = run(game, "3 play 9C")
    assert len(plays(game)) == 6  # seat 4 has no club: anything goes
    game = run(game, "4 play 9D")
    assert plays(game) == ["7C", "AC"]
    assert reason(game, "0 play QC") == "seat 0 must follow clubs"  # QC is a trump
    assert reason(game, "0 play 8C") == "seat 0 does not hold 8C"


def test_trump_is_one_suit_for_following() -> None:
    game = run(duty_game("call AH"), "2 play QH, 3 play 7S, 4 play AD")
    assert plays(game) == ["7D", "JD", "QC"]
    assert reason(game, "0 play AC") == "seat 0 must follow trump"


def test_highest_trump_wins() -> None:
    game = run(duty_game("call AH"), "2 play TC, 3 play 9C, 4 play 9D, 0 play AC, 1 play 9S")
    assert game.tricks[0].winner == 4
    assert game.turn == 4
    game = run(duty_game("call AH"), "2 play KH, 3 play 7H, 4 play JS, 0 play QC, 1 play AH")
    assert game.tricks[0].winner == 0
    assert game.turn == 0


def test_with_no_trump_the_highest_card_of_the_suit_led_wins() -> None:
    game = run(game_of(UNKNOWN_DEAL), "1 pass, 2 pass, 3 pass, 4 pass, 0 pass")
    game = run(game, "1 play 9C, 2 play KC, 3 play AS, 4 play 8H, 0 play 8C")
    assert game.tricks[0].winner == 2  # the off-suit AS wins nothing


# The picker's hold card ---------------------------------------------------------------


def test_the_picker_may_not_throw_the_hold_card_on_another_trick() -> None:
    game = run(duty_game("call AC"), "2 play QH")
    assert plays(game) == ["7H", "7S", "8H", "AS", "TS"]
    assert reason(game, "3 play 9C") == "the picker must keep a club until clubs are led"


def test_the_picker_may_throw_a_second_card_of_the_called_suit_but_not_the_last() -> None:
    game = run(duty_game("call AH"), "2 play QH")
    assert plays(game) == ["7H", "7S", "8H", "9C", "AS", "TS"]
    # 7H thrown on a trump lead does not lead hearts ("first led" means led).
    game = run(game, "3 play 7H, 4 play JS, 0 play QC, 1 play QS")
    assert game.turn == 0
    assert game.called_led_at is None
    game = run(game, "0 play JD, 1 play 8S, 2 play JC")
    assert "8H" not in plays(game)
    assert reason(game, "3 play 8H") == "the picker must keep a heart until hearts are led"


# The partner's called card -------------------------------------------------------------


def test_the_partner_must_play_the_called_ace_on_the_first_trick_of_its_suit() -> None:
    game = run(duty_game("call AC"), "2 play TC, 3 play 9C, 4 play 9D")
    assert plays(game) == ["AC"]
    assert reason(game, "0 play 7C") == "seat 0 must play AC on the first club trick"


def test_the_partner_may_not_throw_the_called_ace_on_another_trick() -> None:
    game = run(duty_game("call AC"), "2 play KH, 3 play 7H, 4 play 9D")
    assert plays(game) == ["7C", "7D", "JD", "KS", "QC"]  # no heart: anything but AC
    assert reason(game, "0 play AC") == "seat 0 must keep AC until clubs are led"


def test_the_partner_may_lead_the_called_suit_only_with_the_called_ace() -> None:
    game = run(duty_game("call AC"), "2 play KH, 3 play 8H, 4 play JH, 0 play QC, 1 play 9H")
    assert game.turn == 0
    assert plays(game) == ["7D", "AC", "JD", "KS"]
    assert reason(game, "0 play 7C") == "seat 0 may lead clubs only with AC until clubs are led"
    game = run(game, "0 play AC")
    assert game.called_led_at == 1
    assert plays(run(game, "1 play 8S")) == ["8C", "KC", "TC"]


def test_a_called_suit_card_thrown_on_another_lead_does_not_lead_the_suit() -> None:
    game = run(duty_game("call AC"), "2 play KH, 3 play 8H, 4 play JH, 0 play 7C, 1 play 9H")
    assert game.called_led_at is None
    assert game.turn == 4
    game = run(game, "4 play 9D, 0 play QC, 1 play QS, 2 play JC, 3 play 7H")
    assert game.turn == 0
    assert reason(game, "0 play AC") is None  # the ace may lead its own suit
    assert plays(game) == ["7D", "AC", "JD", "KS"]


def test_after_the_called_suit_is_led_the_duties_end() -> None:
    game = run(duty_game("call AC"), "2 play TC, 3 play 9C, 4 play 9D, 0 play AC, 1 play 9S")
    assert game.called_led_at == 0
    game = run(game, "4 play JS, 0 play QC, 1 play QS, 2 play JC, 3 play 7S")
    assert game.turn == 0
    assert plays(game) == ["7C", "7D", "JD", "KS"]


# The unknown card -------------------------------------------------------------------


def test_the_unknown_follows_as_the_called_suit_and_never_wins() -> None:
    game = run(unknown_game(), "1 play TH")
    assert plays(game) == ["7H", "9H"]
    assert reason(game, "2 play TC") == "seat 2 must follow hearts"
    game = run(game, "2 play 7H")
    assert plays(game) == ["7D"]  # 7D is the picker's only "heart"
    assert reason(game, "3 play 9S") == "the picker must follow hearts"
    game = run(game, "3 play 7D, 4 play 8H")
    assert plays(game) == ["AH"]
    game = run(game, "0 play AH")
    trick = game.tricks[0]
    # 7D is a trump, but as the unknown it never wins; its points go to the winner.
    assert trick.winner == 0
    assert trick.points == 21


def test_the_unknown_does_not_follow_trump() -> None:
    game = run(unknown_game(), "1 play QS, 2 play QH")
    assert plays(game) == ["JC", "QD"]
    assert reason(game, "3 play 7D") == "the picker must follow trump"


def test_the_unknown_may_not_be_thrown_on_another_trick() -> None:
    game = run(unknown_game(), "1 play AC, 2 play TC")
    assert plays(game) == ["8S", "9S", "AS", "JC", "QD"]
    assert reason(game, "3 play 7D") == "the picker must keep the unknown card until hearts are led"


def test_leading_the_unknown_leads_the_called_suit() -> None:
    game = run(unknown_game(), "1 play 9C, 2 play TC, 3 play QD, 4 play 8H, 0 play 7C")
    assert game.turn == 3
    game = run(game, "3 play 7D")
    assert game.called_led_at == 1
    assert plays(game) == ["9D", "AD", "JD", "KD", "TD"]  # seat 4 has no heart left
    game = run(game, "4 play 9D")
    assert plays(game) == ["AH"]
    game = run(game, "0 play AH, 1 play KH, 2 play 9H")
    assert game.tricks[1].winner == 4  # 9D trumps the heart lead; the unknown never wins


def test_the_unknown_is_face_down_to_the_others_until_the_hand_is_scored() -> None:
    game = run(unknown_game(), "1 play TH, 2 play 7H, 3 play 7D")
    for seat in (0, 1, 2, 4):
        view = game.view(seat)
        assert view.trick.cards[2] is None
        assert "3 play ??" in view.moves
        assert all(c is None or c.text != "7D" for c in view.trick.cards)
    assert game.view(3).trick.cards[2] is not None


# Both found by random legal play from this deal: hearts are never led, so the picker's
# unknown and the partner's AH are each thrown as the seat's last card.
LAST_CARD_PLAY = (
    "1 play QS, 2 play JH, 3 play QD, 4 play 9D, 0 play 8D, "
    "1 play 9C, 2 play KC, 3 play JC, 4 play 8H, 0 play 8C, "
    "3 play AS, 4 play JD, 0 play TS, 1 play KH, 2 play 9H, "
    "4 play AD, 0 play QC, 1 play JS, 2 play QH, 3 play 9S, "
    "0 play 7C, 1 play AC, 2 play TC, 3 play 8S, 4 play TD, "
    "4 play KD, 0 play AH, 1 play TH, 2 play 7H, 3 play 7D"
)


def test_a_duty_card_may_be_thrown_when_it_is_the_seats_last_card() -> None:
    game = run(unknown_game(), LAST_CARD_PLAY)
    last = game.tricks[-1]
    assert [c.text for c in last.cards] == ["KD", "AH", "TH", "7H", "7D"]
    assert last.winner == 4
    assert game.called_led_at is None


# The called ten ----------------------------------------------------------------------


def test_ten_call_the_picker_leads_the_suit_only_with_the_ace() -> None:
    game = run(ten_game(), "1 play 9S, 2 play 7H, 3 play AS, 4 play 7S, 0 play 8S")
    assert game.turn == 3
    assert plays(game) == ["AC", "AH", "JC", "QD"]
    assert reason(game, "3 play 7C") == "the picker may lead clubs only with AC until clubs are led"


def test_ten_call_both_must_play_on_the_first_club_trick_and_the_ace_beats_the_ten() -> None:
    game = run(ten_game(), "1 play 9C")
    assert plays(game) == ["TC"]
    assert reason(game, "2 play KC") == "seat 2 must play TC on the first club trick"
    game = run(game, "2 play TC")
    assert plays(game) == ["AC"]
    assert reason(game, "3 play 7C") == "the picker must play AC on the first club trick"
    game = run(game, "3 play AC, 4 play KS, 0 play 8C")
    assert game.tricks[0].winner == 3
    assert game.tricks[0].points == 25
    assert game.partners == frozenset({2})


def test_ten_call_the_picker_may_not_throw_the_ace_on_another_trick() -> None:
    game = run(ten_game("AS 9D"), "1 play 9S, 2 play 7H")
    assert "AC" not in plays(game)
    assert reason(game, "3 play AC") == "the picker must keep AC until clubs are led"


# The jack of diamonds has no duties ---------------------------------------------------


def test_jack_of_diamonds_partner_plays_jd_like_any_trump() -> None:
    from sheepshead.rules import PartnerRule, Rules

    rules = Rules(partner=PartnerRule.JACK_OF_DIAMONDS)
    game = run(game_of(DUTY_DEAL, rules, dealer=1), "2 pass, 3 pick, 3 bury 8D QD, 3 call JD")
    game = run(game, "2 play QH, 3 play 7S, 4 play 9D")
    assert plays(game) == ["7D", "JD", "QC"]
    game = run(game, "0 play JD, 1 play QS")
    assert game.tricks[0].winner == 1
