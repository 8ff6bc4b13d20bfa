"""The expert level: legal, deterministic, blind to what its seat cannot see, and
playing the plays any good player agrees on."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bots.random_hands import deal, per_preset, random_position, random_rules
from sheepshead import record
from sheepshead.actions import CRACK, NOCRACK, Action, Play
from sheepshead.bots import decide, expert, make_bot
from sheepshead.bots.expert import (
    BANK_MARGIN,
    BANK_MARGINS,
    ExpertBot,
    Filters,
    bank_handicap,
    candidates,
    partners_of,
    sim_of,
)
from sheepshead.bots.knowledge import read_view
from sheepshead.bots.rng import Rng
from sheepshead.bots.rulebot import RuleBot
from sheepshead.bots.sampler import Sampler
from sheepshead.bots.sim import FIELDS
from sheepshead.bots.worlds import world_values
from sheepshead.game import Game
from sheepshead.hand import Phase
from sheepshead.kernel import bit, mask_of
from sheepshead.rules import PRESETS, Rules
from sheepshead.view import SeatView

# Dealer 4, so seat 0 leads and seat 4 plays last. Seat 2 will pick, bury 9D KC and
# call the ace of hearts (keeping 9H); seat 4 holds that ace: the partner.
DEAL = [
    "QC QS JD 7C 8S KS",
    "7H AC TC 9C 8C 9S",
    "QH JC AD 9H TD 8D",
    "QD JS JH KD 7D AS",
    "AH TH KH 8H 7S TS",
]
CALL = ["0 pass", "1 pass", "2 pick", "2 bury 9D KC", "2 call AH"]


def hand(moves: list[str], dealt: list[str] = DEAL, rules: Rules = PRESETS["standard"]) -> Game:
    return record.replay(
        {
            "format": "sheepshead-hand/1",
            "rules": rules.to_record(),
            "dealer": 4,
            "hands": [h.split() for h in dealt],
            "blind": ["KC", "9D"],
            "actions": moves,
        }
    )


def expert_play(game: Game) -> str:
    assert game.turn is not None
    action = decide("expert", game.view(game.turn))
    assert isinstance(action, Play)
    return action.card.text


def test_the_expert_is_a_level() -> None:
    bot = make_bot("expert")
    assert isinstance(bot, ExpertBot)
    assert bot.level == "expert"


# Positions where any good player agrees ------------------------------------------


def test_a_defender_leads_the_called_suit() -> None:
    # Seat 0, a defender on lead, holds a low heart, the called suit, a trump and no
    # long side suit: leading the heart makes the partner play the ace under the
    # picker, and the picker its hold card.
    dealt = list(DEAL)
    dealt[0], dealt[1] = "7H QS AC TC 9S 8S", "QC JD 7C KS 9C 8C"
    game = hand(CALL, dealt)
    assert game.turn == 0
    assert game.picker == 2
    assert expert_play(game) == "7H"


def test_the_partner_schmears_the_pickers_sure_trick() -> None:
    # The picker trumps the club lead with QH; seat 4, the partner, plays last with
    # no club and no trump: the trick is the picker's whatever it plays, so it
    # gives a ten (it must keep the ace of hearts, the called card).
    game = hand([*CALL, "0 play 7C", "1 play 8C", "2 play QH", "3 play 7D"])
    assert game.turn == 4
    assert expert_play(game) in ("TS", "TH")


def test_no_free_points_to_the_picker() -> None:
    # The picker is winning with QH and seat 3, a defender with no club and no
    # trump above it, cannot take the trick: it keeps its ace of spades.
    game = hand([*CALL, "0 play 7C", "1 play 8C", "2 play QH"])
    assert game.turn == 3
    assert expert_play(game) != "AS"


def test_a_sure_queen_is_kept_beside_a_sure_ten_of_diamonds() -> None:
    # Seat 4 plays last to a club trick worth 21, void in clubs, with QD and TD: both
    # take it surely. The ten is the lower in power, but the queen the cheaper: the
    # search chooses between them (until version 6 the filter kept only the ten, a
    # wasted point card forced on the search).
    dealt = [
        "QC QS QH JC 7C 8H",
        "AC 9C KC JS JH JD",
        "AH 7H TC 8S 9S KS",
        "8C AD KD 7D TH KH",
        "QD TD TS AS 7S 9H",
    ]
    moves = ["0 pick", "0 bury 8D 9D", "0 call AH", "0 play 7C", "1 play AC", "2 play TC"]
    game = record.replay(
        {
            "format": "sheepshead-hand/1",
            "rules": {},
            "dealer": 4,
            "hands": [h.split() for h in dealt],
            "blind": ["9D", "8D"],
            "actions": [*moves, "3 play 8C"],
        }
    )
    assert game.turn == 4
    view = game.view(4)
    kept = {c.text for c in candidates(view, read_view(view))}
    assert {"QD", "TD"} <= kept
    assert kept <= {"QD", "TD"}  # a trick of 21 points taken surely, not thrown away


def three_handed(dealt: list[str], blind: list[str], moves: list[str]) -> Game:
    """A three-handed hand dealt by seat 2 (seat 0 bids and leads first)."""
    return record.replay(
        {
            "format": "sheepshead-hand/1",
            "rules": PRESETS["three-handed"].to_record(),
            "dealer": 2,
            "hands": [h.split() for h in dealt],
            "blind": blind,
            "actions": moves,
        }
    )


THREE_HANDED_DEAL = [
    "8S 7S JS KC AC JC 8D TC 9D 7H",
    "KS TD AH AD 9H JD TS 8C 7C 7D",
    "KD TH JH AS QH 8H QD QS 9S KH",
]


def test_a_three_handed_defender_may_cash_its_ace_on_the_first_round() -> None:
    # Three-handed, seat 2 picked; seat 0 leads the 7H, and seat 1, a defender with
    # AH 9H, plays before the picker. The 9H takes the trick for now, the ace might be
    # trumped; but this first round of hearts is the ace's best chance to take 11
    # points, and the search is left to weigh it: the rule that keeps a poor trick
    # from an ace or ten that may be overtaken cost the expert 0.046 game points a
    # hand at three-handed tables (docs/bots.md).
    moves = ["0 pass", "1 pass", "2 pick", "2 bury AS TH", "0 play 7H"]
    game = three_handed(THREE_HANDED_DEAL, ["9C", "QC"], moves)
    assert game.turn == 1
    view = game.view(1)
    k = read_view(view)
    assert "AH" in {c.text for c in candidates(view, k)}
    # With the rule on at this table, the ace would be kept from the search.
    ruled = Filters(risky_tables=frozenset({3}), risky_defence_tables=frozenset({3}))
    assert "AH" not in {c.text for c in candidates(view, k, ruled)}


def test_a_five_handed_defender_may_cash_its_ace_on_the_first_round() -> None:
    # Seat 0 leads the 8S, the first round of spades; seat 1, a defender with AS 9S,
    # plays second. The 9S takes the trick for now, the ace might be trumped by a
    # seat still to play; but the search is left to weigh the ace's 11 points: the
    # rule that keeps a poor trick from an ace or ten that may be overtaken binds
    # only the picker's side at five-handed tables since version 8 (docs/bots.md).
    dealt = list(DEAL)
    dealt[1], dealt[3] = "7H AC TC 9C AS 9S", "QD JS JH KD 7D 8C"
    game = hand([*CALL, "0 play 8S"], dealt)
    assert game.turn == 1
    view = game.view(1)
    k = read_view(view)
    assert not k.on_picker_side
    assert "AS" in {c.text for c in candidates(view, k)}
    # With the rule binding the defenders too (version 7), the ace was kept from the search.
    ruled = Filters(risky_defence_tables=frozenset({5}))
    assert "AS" not in {c.text for c in candidates(view, k, ruled)}


def test_a_five_handed_defender_may_schmear_a_seat_it_cannot_place_yet() -> None:
    # Seat 0 leads the queen of clubs; seat 1, a defender with no trump, cannot tell
    # yet whether seat 0 is a fellow defender or the picker's partner. The convention
    # filter kept its ace and ten from any seat not known to be an ally; at five-handed
    # tables since version 9 the search weighs the schmear over its worlds.
    game = hand([*CALL, "0 play QC"])
    view = game.view(1)
    k = read_view(view)
    assert k.winner == 0
    assert k.side_of(0) == 0
    assert {"AC", "TC"} <= {c.text for c in candidates(view, k)}
    # Version 8 kept them from the search; a known opponent's trick still does.
    ruled = Filters(unknown_points_tables=frozenset())
    assert {c.text for c in candidates(view, k, ruled)}.isdisjoint({"AC", "TC"})
    opponent = hand([*CALL, "0 play 7C", "1 play 8C", "2 play QH"]).view(3)
    k = read_view(opponent)
    assert k.winner == 2
    assert k.side_of(2) == -1
    assert "AS" not in {c.text for c in candidates(opponent, k)}


def test_a_five_handed_defender_weighs_what_to_throw_to_the_pickers_sure_trick() -> None:
    # Seat 0 leads the 7C and the picker (seat 2) trumps with the queen of clubs,
    # surely taking the trick. Seat 3, a defender void in clubs, throws something to
    # it: since version 10 the search weighs every card it may lose, not only the one
    # with the fewest points (the 7D); the ace of spades stays out of it, 11 free
    # points to a known opponent.
    dealt = list(DEAL)
    dealt[0], dealt[2] = "QH QS JD 7C 8S KS", "QC JC AD 9H TD 8D"
    game = hand([*CALL, "0 play 7C", "1 play 8C", "2 play QC"], dealt)
    view = game.view(3)
    k = read_view(view)
    assert (k.side_of(2), k.winner_is_sure()) == (-1, True)
    kept = {c.text for c in candidates(view, k)}
    assert kept == {"7D", "KD", "QD", "JS", "JH"}
    # Version 9 (and the other tables) search only the losers with the fewest points.
    ruled = Filters(fewest_loser_tables=frozenset({5}))
    assert {c.text for c in candidates(view, k, ruled)} == {"7D"}


def test_a_six_handed_defender_weighs_what_to_throw_to_the_partners_sure_trick() -> None:
    # Six-handed, seat 3 picked and called the jack of diamonds; seat 1 has played it
    # on seat 0's ace of spades and surely takes the trick. Seat 5, a defender with the
    # king and seven of spades, must follow: since version 11 the search weighs both
    # losers at four- and six-handed tables too, as at five-handed since version 10.
    dealt = [
        "QC AD 8D 7D AS",
        "JD 9D AC 7C KH",
        "JH KC 9C AH 8H",
        "QS JC TD 9S 8S",
        "QH QD 8C TS 7H",
        "KD KS 7S TH 9H",
    ]
    moves = [
        *("1 pass", "2 pass", "3 pick", "3 bury 9S TC", "3 call JD"),
        *("1 play 9D", "2 play JH", "3 play JS", "4 play QD", "5 play KD", "0 play QC"),
        *("0 play AS", "1 play JD", "2 play 8H", "3 play 8S", "4 play TS"),
    ]
    record_ = {
        "format": "sheepshead-hand/1",
        "rules": PRESETS["six-handed"].to_record(),
        "dealer": 0,
        "hands": [h.split() for h in dealt],
        "blind": ["TC", "JS"],
        "actions": moves,
    }
    view = record.replay(record_).view(5)
    k = read_view(view)
    assert (k.winner, k.side_of(1), k.winner_is_sure()) == (1, -1, True)
    assert {c.text for c in candidates(view, k)} == {"7S", "KS"}
    # Version 10 searched only the loser with the fewest points there.
    ruled = Filters(fewest_loser_tables=frozenset({3, 4, 6}))
    assert {c.text for c in candidates(view, k, ruled)} == {"7S"}


TEN_TRUMPS_DEAL = [
    "AC KC 9C 8C 7C AS KS 9S 8S 7S",
    "TC KD 9D 8D 7D TS AH TH KH 9H",
    "QC QS QH QD JC JS JH JD AD TD",
]


def test_a_three_handed_bank_must_be_clearly_better() -> None:
    # Three-handed, seat 2 picked with ten trumps; last to play to a club trick worth
    # 10, it takes it with any trump. A jack takes it as surely as the ace or ten of
    # diamonds: banking one of those counts as a wasted point card, so the search plays
    # it only when it finds it 0.8 game points better (docs/bots.md, 2026-12-06).
    moves = ["0 pass", "1 pass", "2 pick", "2 bury 7H 8H", "0 play 7C", "1 play TC"]
    game = three_handed(TEN_TRUMPS_DEAL, ["7H", "8H"], moves)
    assert game.turn == 2
    assert bank_margins(game.view(2)) == {"AD": 0.8, "TD": 0.8}
    assert BANK_MARGINS["3/none"] == 0.8


def bank_margins(view: SeatView) -> dict[str, float]:
    """The margin each bank among the view's candidates must beat (``bank_handicap``),
    the ace and ten of diamonds being among the candidates."""
    k = read_view(view)
    options = candidates(view, k)
    assert {"AD", "TD"} <= {c.text for c in options}
    return {c.text: margin for c, margin in bank_handicap(view, k, options, Filters()).items()}


def test_a_four_handed_bank_has_its_own_margin() -> None:
    # Four-handed, seat 3 picked and buries four trumps; last to play to a club trick
    # worth 21 that seat 2 trumped with the 7D, any trump it holds takes it. Banking
    # the ace or ten of diamonds over the jack of clubs must be 0.5 game points better
    # in the search at this table, which keeps its wasted point cards off the 1% bar
    # for nothing measurable (docs/bots.md, "A bank margin at four-handed tables"); at
    # four-handed called ace, where 0.5 cost 0.021 a hand, the default 0.3.
    hands = [
        "AC 7C 8C 9C AS 7S 8S",
        "TC KC 9S KS AH 7H 8H",
        "TS 9H KH TH 8D 7D 9D",
        "QC QS QH QD JC JS AD",
    ]
    auction = ["0 pass", "1 pass", "2 pass", "3 pick", "3 bury KD JH JD JS"]
    trick = ["0 play AC", "1 play TC", "2 play 7D"]
    for preset, margin in (("four-handed", 0.5), ("four-handed-called-ace", BANK_MARGIN)):
        # At called ace the picker, with no fail left to call, goes alone.
        call = ["3 alone"] if preset == "four-handed-called-ace" else []
        game = record.replay(
            {
                "format": "sheepshead-hand/1",
                "rules": PRESETS[preset].to_record(),
                "dealer": 3,
                "hands": [h.split() for h in hands],
                "blind": ["JH", "JD", "TD", "KD"],
                "actions": [*auction, *call, *trick],
            }
        )
        assert game.turn == 3
        assert bank_margins(game.view(3)) == {"AD": margin, "TD": margin}, preset


# Legality, determinism, blindness --------------------------------------------------


@per_preset(6)
def test_the_expert_only_takes_legal_actions(preset: str, rnd: random.Random) -> None:
    game = random_position(preset, rnd)
    if game is None:
        return
    assert game.turn is not None
    view = game.view(game.turn)
    bot = ExpertBot(worlds=8, budget=1500)
    action = bot.choose(view, Rng.from_int(rnd.randrange(1 << 30)))
    assert action in view.legal
    assert action in [Play(c) for c in candidates(view, read_view(view))]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_each_card_decision_keeps_to_its_budget_and_its_tables_worlds(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The search's size is a count of simulated card plays, never a clock: at most
    # the table's budget a decision (worlds x candidates x cards left), never under
    # MIN_WORLDS worlds, never over the table's own number, which the end of the hand
    # reaches.
    sampled: list[int] = []
    values = world_values

    def counting(
        view: SeatView, sampler: Sampler, rng: Rng, worlds: int, *rest: Any
    ) -> tuple[list[float], float]:
        sampled.append(worlds)
        return values(view, sampler, rng, worlds, *rest)

    monkeypatch.setattr(expert, "world_values", counting)
    rules = PRESETS[preset]
    bot = ExpertBot()
    most = bot.worlds_at(rules.players)
    budget = bot.budget_at(rules.players)
    reached = False
    used = 0
    for number in range(2):
        game = Game.deal(rules, number % rules.players, f"budget {preset} {number}".encode())
        while not game.is_done:
            assert game.turn is not None
            view = game.view(game.turn)
            before = len(sampled)
            action = bot.choose(view, Rng.from_int(number))
            if len(sampled) > before:
                options = len(candidates(view, read_view(view)))
                played = sum(len(t.cards) for t in view.tricks) + len(view.trick.cards)
                left = rules.players * rules.tricks - played
                worlds = sampled[-1]
                assert worlds <= most
                assert worlds * options * left <= budget or worlds == expert.MIN_WORLDS
                reached = reached or worlds == most
                used = max(used, worlds * options * left)
            game = game.apply(action)
    assert reached
    # Four- and six-handed tables search four times as much (BUDGET_BY_PLAYERS), and
    # use it.
    if rules.players in (4, 6):
        assert budget == 4 * expert.BUDGET
        assert used > expert.BUDGET
    else:
        assert budget == expert.BUDGET
        assert used <= expert.BUDGET


def test_same_view_and_seed_same_card() -> None:
    game = hand([*CALL, "0 play 7C", "1 play 8C"])
    view = game.view(2)
    bot = ExpertBot()
    first: Action = bot.choose(view, Rng.from_int(11))
    assert all(bot.choose(view, Rng.from_int(11)) == first for _ in range(3))


def test_the_expert_cannot_see_other_hands() -> None:
    # Seats 3 and 4 swap a spade: seat 1's view is the same, and so is its card.
    swapped = list(DEAL)
    swapped[3], swapped[4] = "QD JS JH KD 7D TS", "AH TH KH 8H 7S AS"
    moves = [*CALL, "0 play 7C"]
    a, b = hand(moves), hand(moves, swapped)
    assert a.view(1).canonical_text() == b.view(1).canonical_text()
    assert a.hands[3] != b.hands[3]
    assert expert_play(a) == expert_play(b)


def test_forced_moves_and_other_phases_answer_at_once() -> None:
    bot = ExpertBot()
    game = hand(["0 pass", "1 pass"])
    view = game.view(2)
    assert view.phase is Phase.PICKING
    assert bot.choose(view, Rng.from_int(1)) in view.legal


@per_preset(10)
def test_rewiring_a_world_equals_replaying_it(preset: str, rnd: random.Random) -> None:
    # Search builds the first world by replaying the public play, and the others by
    # swapping the hidden cards into it: both must give the same state.
    game = random_position(preset, rnd)
    if game is None:
        return
    view = game.view(rnd.randrange(game.rules.players))
    sampler = Sampler(view)
    if sampler.facedown:
        return
    rng = Rng.from_int(rnd.randrange(1 << 30))
    template = sim_of(view, sampler.sample(rng))
    for _ in range(3):
        world = sampler.sample(rng)
        rewired = template.rewire(
            [mask_of(h) for h in world.hands],
            partners_of(view, world),
            0 if world.unknown is None else bit(world.unknown),
            mask_of(world.bury),
            sum(c.points for c in world.blind or ()),
        )
        replayed = sim_of(view, world)
        for name in FIELDS:
            assert getattr(rewired, name) == getattr(replayed, name), name


@per_preset(8, ["standard", "four-handed-called-ace", "jack-of-diamonds"])
def test_searched_bury_and_call_are_legal(preset: str, rnd: random.Random) -> None:
    game = deal(random_rules(preset, rnd), rnd)
    bot = ExpertBot(search_bury=True, search_call=True)
    while game.phase in (Phase.PICKING, Phase.BURYING, Phase.CALLING):
        assert game.turn is not None
        view = game.view(game.turn)
        seed = rnd.randrange(1 << 30)
        action = bot.choose(view, Rng.from_int(seed))
        assert action in view.legal
        assert bot.choose(view, Rng.from_int(seed)) == action
        game = game.apply(action if view.phase is not Phase.PICKING else rnd.choice(view.legal))


def test_the_crack_threshold_can_be_moved_for_tuning() -> None:
    """``ExpertBot(crack=X)``: the standard bot's crack threshold moved (the arena's
    knob, docs/bots.md); by default the expert cracks as the standard bot."""
    rules = PRESETS["standard"].replace(cracking=True)
    standard = RuleBot("standard")
    chances = 0
    for seed in range(40):
        game = deal(rules, random.Random(seed))
        while game.phase is not Phase.PLAYING and not game.is_done:
            assert game.turn is not None
            view = game.view(game.turn)
            if game.phase is Phase.CRACKING and CRACK in view.legal:
                chances += 1
                rng = Rng.from_int(seed)
                assert ExpertBot(crack=-100.0).choose(view, rng) == CRACK
                assert ExpertBot(crack=100.0).choose(view, rng) == NOCRACK
                assert ExpertBot().choose(view, rng) == standard.choose(view, rng)
            game = game.apply(standard.choose(view, Rng.from_int(seed)))
    assert chances >= 10
