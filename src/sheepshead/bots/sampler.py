"""Sampled worlds: deals of the cards a seat cannot see, consistent with its view.

A *world* gives every unseen card a place: another seat's hand, the bury (for all
but the picker), the blind (before anyone picks, or in a leaster), the picker's
unknown card. Every world respects everything public in the ``SeatView``:

- how many cards each seat holds;
- the voids shown: a seat that did not follow a suit holds none of it (the unknown
  card counts as the called suit, so it is exempt);
- the call: an ace call means the picker holds no card of the called ace (hand or
  bury) but keeps a card of its suit in hand until the suit is first led; a ten
  call, that the picker holds all three fail aces, the called suit's in hand; an
  unknown call, that the picker has no card of the called suit in hand, and for
  every other fail suit either holds its ace or has none of it in hand; a call of
  the jack of hearts, that the picker holds the jack of diamonds;
- the called card: with a seat other than the picker, not yet played, not with a
  seat that cracked (a partner may not), and, on the first trick of its suit, with
  a seat still to play to it;
- the bury: as many unseen cards as the blind, for everyone but the picker.

The sampler reads the ``SeatView`` and nothing else, so it cannot leak.

**Method.** Sequential constrained assignment (``placement.py``), with bounded work
per world (no rejection): each card may go to a set of *holders*; cards with a
restricted set are placed one by one (in random order, each to a holder drawn in
proportion to its free room) among the holders that keep the rest placeable, which
Hall's condition checks over the unions of the cards' sets of holders; the
unrestricted cards then fill the free room at random. An ace call's "keeps a card of
the suit" is met by first giving the picker one such card; as that favours worlds
where the picker has many of the suit, such a world carries the weight 1 / (cards of
the suit the picker holds). An unknown call's either-or per suit is settled by drawing
one of the cases that remain possible, each as likely.

**Reading the table** (version 2). A world's weight is then multiplied by how likely
the auction and the play were in it: for each seat that passed, the chance that a
seat dealt its cards in that world (its cards now and those it played) passes at its
position (``pass_likelihood``: a soft step at the expert's pick threshold,
``PASS_SCALE`` wide, never below ``PASS_FLOOR``); for the picker, the chance that its
cards now and played would have picked; for each seat that cracked or did not, the
chance it would by the standard level's rule (``strength.crack_likelihood``: a soft
step at ``CRACK_THRESHOLD``; the partner's forced "no crack" is not read); and
``SHOWN_DEFENDER`` when the world gives the called card to a seat the play showed on
the defence. ``bench/sampler_quality.py`` measures the gain (``docs/bots.md``).
``Sampler(view, read=False)`` leaves it out.

**Reading the bury** (``Sampler(view, bury=True)``; by default at ``BURY_TABLES``,
the three-handed and four-handed called-ace tables). Each world's picker cards (its
hand and bury) are split again as the standard level buries (``burial.rule_split``),
where the view allows that split; a world whose cards the rule would have split
otherwise, or whose rule would have buried a card the picker has since played, weighs
less.
"""

from __future__ import annotations

import math
from typing import Final

from sheepshead import kernel
from sheepshead.bots.burial import BURY_FLOOR, rule_split
from sheepshead.bots.knowledge import shown_defenders
from sheepshead.bots.placement import Problem, place
from sheepshead.bots.rng import Rng
from sheepshead.bots.strength import (
    CRACK_THRESHOLD,
    PICK_THRESHOLDS,
    crack_likelihood,
    hand_strength,
    per_six_cards,
    table_key,
)
from sheepshead.cards import DECK, FAIL_SUITS, Card, Rank, Suit, ace_of
from sheepshead.hand import Phase
from sheepshead.view import SeatView

__all__ = ["PASS_SCALE", "Sampler", "World", "pass_likelihood", "plays_of"]

_JD = Card.parse("JD")


class World:
    """One guess at the hidden cards, whole: every seat's cards now (this seat's own
    included), the picker's bury, the blind, the picker's unknown card. Never changed
    once made (its fields are ``Final``). A plain class, not a dataclass: compiled, a
    dataclass's generated ``__init__`` runs as Python, once for every world drawn."""

    __slots__ = ("blind", "bury", "hands", "unknown", "weight")

    def __init__(
        self,
        hands: tuple[tuple[Card, ...], ...],
        bury: tuple[Card, ...],
        blind: tuple[Card, ...] | None,
        unknown: Card | None,
        weight: float,
    ) -> None:
        #: Every seat's cards now.
        self.hands: Final = hands
        #: The picker's bury; () when nobody has buried.
        self.bury: Final = bury
        #: The blind when nobody has taken it (before the pick, or in a leaster), or the
        #: picker's own blind; None when another seat picked (its blind is in its cards).
        self.blind: Final = blind
        #: The picker's unknown card, in hand or played face down; None without one.
        self.unknown: Final = unknown
        #: The weight of this world in an average (it corrects the sampler's bias).
        self.weight: Final = weight

    def _fields(self) -> tuple[object, ...]:
        return (self.hands, self.bury, self.blind, self.unknown, self.weight)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, World) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"World(hands={self.hands!r}, bury={self.bury!r}, blind={self.blind!r},"
            f" unknown={self.unknown!r}, weight={self.weight!r})"
        )


def plays_of(view: SeatView) -> list[tuple[int, Card | None, int]]:
    """Every card played so far as (seat, card, trick number); None is the face-down unknown."""
    n = view.players
    out: list[tuple[int, Card | None, int]] = []
    for number, trick in enumerate((*view.tricks, view.trick)):
        for i, card in enumerate(trick.cards):
            out.append(((trick.leader + i) % n, card, number))
    return out


#: Reading the auction: how sharply a seat's chance to pass falls as its hand's
#: strength (``hand_strength``) passes the expert's pick threshold for its seat. A
#: table of people (or beginners, who pick loosely) is far less sharp than the
#: standard level, so the model is soft; PASS_FLOOR keeps every world possible.
PASS_SCALE = 2.5
PASS_FLOOR = 0.03
#: The weight of a world that gives the called card to a seat the play shows on the
#: defence (``knowledge.shown_defenders``): possible (its card was forced), unlikely.
SHOWN_DEFENDER = 0.05
#: The tables (``table_key``) where the picker's cards in a world are split as the
#: standard level buries (``burial.py``). Three-handed: +0.025 [+0.004, +0.045] game
#: points a hand for the expert among turn 1's experts (2,000 deals; +0.034 on the
#: tuning deals, +0.016 on the evaluation deals). Four-handed called ace (a four-card
#: bury): +0.022 [+0.006, +0.039] (2,000 deals; +0.013 tuning, +0.031 evaluation). Not
#: five-handed, where it gained nothing measurable (-0.005 [-0.021, +0.011], 2,000
#: deals), nor four- or six-handed (-0.013 and +0.002 on the tuning deals):
#: docs/bots.md, "Reading the bury".
BURY_TABLES: frozenset[str] = frozenset({"3/none", "4/called-ace"})
#: The pick thresholds the auction is read against: the expert's, which are the standard
#: level's but at six-handed tables (``strength.STANDARD_PICK_THRESHOLDS``).
_THRESHOLDS = dict(PICK_THRESHOLDS)


def pass_likelihood(
    dealt: tuple[Card, ...] | list[Card], threshold: float, scale: float = PASS_SCALE
) -> float:
    """How likely a seat dealt ``dealt`` is to pass where picking takes ``threshold``."""
    x = (hand_strength(dealt) - threshold) / scale
    p = 1.0 / (1.0 + math.exp(min(60.0, x)))
    return max(PASS_FLOOR, p)


def _suit_key(card: Card) -> Suit | None:
    return card.fail_suit


class Sampler:
    """Worlds for one view: ``Sampler(view).sample(rng)``. The constraints are read
    once; each world then costs a bounded, small amount of work."""

    def __init__(
        self, view: SeatView, read: bool = True, cracks: bool = True, bury: bool | None = None
    ) -> None:
        """``read``: weight each world by how likely the auction and the play made it
        (``_likelihood``); off, every consistent world weighs alike (version 1).
        ``cracks``: the cracks read too (off: as before they were read). ``bury``: the
        picker's cards split as the standard level buries (``burial.py``); None, at
        the tables of ``BURY_TABLES``."""
        self.view = view
        self.read = read
        self.read_cracks = cracks
        n = view.players
        me = view.seat
        rules = view.rules
        picker = view.picker
        self.me = me
        #: The head count (``view.players`` is a property: Python, every world).
        self.players = n
        plays = plays_of(view)
        played = [0] * n
        seen: set[Card] = set(view.cards)
        for seat, card, _ in plays:
            played[seat] += 1
            if card is not None:
                seen.add(card)
        me_picker = picker == me
        if me_picker:
            seen.update(view.bury or ())
            seen.update(view.blind or ())
        self.unseen = [c for c in DECK if c not in seen]
        facedown = any(card is None for _, card, _ in plays)

        # Holders: the other seats, then the unknown card (in the picker's hand, or
        # played face down), the bury, the blind.
        holders: list[str] = []
        cap: list[int] = []
        self.seat_holder: dict[int, int] = {}
        for seat in range(n):
            if seat == me:
                continue
            count = rules.cards_per_seat - played[seat]
            if seat == picker and view.phase is Phase.BURYING:
                count += rules.blind_size
            self.seat_holder[seat] = len(holders)
            holders.append(f"seat {seat}")
            cap.append(count)
        self.unknown_holder = -1
        unknown_call = view.unknown_call and picker is not None and not me_picker
        if unknown_call:
            self.unknown_holder = len(holders)
            holders.append("unknown")
            cap.append(1)
            if not facedown:
                cap[self.seat_holder[picker]] -= 1  # type: ignore[index]
        self.bury_holder = -1
        if picker is not None and not me_picker and view.phase is not Phase.BURYING:
            self.bury_holder = len(holders)
            holders.append("bury")
            cap.append(rules.blind_size)
        self.blind_holder = -1
        if picker is None:
            self.blind_holder = len(holders)
            holders.append("blind")
            cap.append(rules.blind_size)
        self.holders = holders
        self.cap = cap
        if bury is None:
            bury = table_key(view) in BURY_TABLES
        #: Whether each world's picker cards are split by the bury rule (``_split``),
        #: and what the picker kept that the split cannot move: the cards it played.
        self.split = bury and self.bury_holder >= 0 and picker is not None
        self.picker_played = (
            [c for seat, c, _ in plays if seat == picker and c is not None] if self.split else []
        )
        self.split_masks: list[dict[Card, int]] = []
        self._read_auction(plays)
        self.facedown = facedown
        all_holders = (1 << len(holders)) - 1
        allowed = dict.fromkeys(self.unseen, all_holders)
        self._voids(allowed, plays)
        self._called_card(allowed, plays)
        cases: list[dict[Card, int]] = []
        hold: Suit | None = None
        if picker is not None and not me_picker:
            cases, hold = self._picker_facts(allowed, plays)
        #: The suit the picker must still hold a card of (an ace call before the suit
        #: is led), whose hold card ``sample`` places first; None without one.
        self.hold_suit: Suit | None = hold
        if not cases:
            cases = [allowed]
        keep = frozenset(c for c in self.unseen if hold is not None and c.fail_suit is hold)
        problems = [Problem(cap, case, keep) for case in cases]
        self.problems = [p for p in problems if p.feasible]
        if not self.problems:
            # The view says more than these rules can express (it should not happen):
            # keep the counts and the called card's seat, drop the inferences.
            self.hold_suit = None
            loose = dict.fromkeys(self.unseen, all_holders)
            self._called_card(loose, plays)
            self.problems = [p for p in [Problem(cap, loose, frozenset())] if p.feasible] or [
                Problem(cap, dict.fromkeys(self.unseen, all_holders), frozenset())
            ]

    def _read_auction(self, plays: list[tuple[int, Card | None, int]]) -> None:
        """The passes (each seat's cards dealt = its cards now and those it played)
        and the seats the play shows on the defence, for ``_likelihood``."""
        view = self.view
        n = view.players
        table = _THRESHOLDS.get(table_key(view))
        if table is not None and len(table) != n:
            table = None
        self.passers: list[tuple[int, float, tuple[Card, ...]]] = []
        self.picker_read: tuple[int, float, tuple[Card, ...]] | None = None
        #: Each other seat's crack or not (by the standard level's rule, on its cards
        #: dealt): a partner may not crack, so its "no crack" says nothing (the holder
        #: of the called card is not read; a second partner, on the picker's right, not
        #: at all).
        self.crackers: list[tuple[int, bool, tuple[Card, ...]]] = []
        self.crack_at = per_six_cards(CRACK_THRESHOLD, view.rules.cards_per_seat)
        picker = view.picker
        second = -1
        if picker is not None and view.rules.second_partner:
            second = (picker - 1) % n
        played: dict[int, tuple[Card, ...]] = {}
        for seat, card, _ in plays:
            if card is not None:
                played[seat] = (*played.get(seat, ()), card)
        for move in view.moves:
            seat_text, _, verb = move.partition(" ")
            if verb == "pass" and table is not None and int(seat_text) != self.me:
                seat = int(seat_text)
                threshold = table[(seat - view.dealer - 1) % n]
                self.passers.append((seat, threshold, played.get(seat, ())))
            elif verb in ("crack", "nocrack") and self.read_cracks:
                seat = int(seat_text)
                if seat not in (self.me, second):
                    self.crackers.append((seat, verb == "crack", played.get(seat, ())))
        if (
            table is not None
            and picker is not None
            and picker != self.me
            and view.phase is not Phase.BURYING
        ):
            # The picker kept its best cards of the blind: what it holds now and what
            # it played should score at least its seat's threshold.
            threshold = table[(picker - view.dealer - 1) % n]
            self.picker_read = (picker, threshold, played.get(picker, ()))
        called = view.called
        self.suspect: frozenset[int] = frozenset()
        if called is not None and called in self.unseen:
            self.suspect = shown_defenders(view)

    def _likelihood(self, hands: list[tuple[Card, ...]]) -> float:
        weight = 1.0
        for seat, threshold, played in self.passers:
            weight *= pass_likelihood((*hands[seat], *played), threshold)
        if self.picker_read is not None:
            seat, threshold, played = self.picker_read
            weight *= 1.0 - pass_likelihood((*hands[seat], *played), threshold) + PASS_FLOOR
        called = self.view.called
        for seat, cracked, played in self.crackers:
            dealt = (*hands[seat], *played)
            if cracked:
                weight *= crack_likelihood(dealt, self.crack_at)
            elif called not in dealt:
                weight *= 1.0 - crack_likelihood(dealt, self.crack_at)
        for seat in self.suspect:
            if called in hands[seat]:
                weight *= SHOWN_DEFENDER
        return weight

    # Constraints -------------------------------------------------------------

    def _seat_bit(self, seat: int) -> int:
        h = self.seat_holder.get(seat)
        return 0 if h is None else 1 << h

    def _voids(self, allowed: dict[Card, int], plays: list[tuple[int, Card | None, int]]) -> None:
        view = self.view
        called = view.called
        called_suit = None if called is None or called.is_trump else called.suit
        picker = view.picker
        led: Suit | None = None
        voids: dict[int, set[Suit | None]] = {}
        trick_no = -1
        for seat, card, number in plays:
            follows = kernel.counts_as(card, view.unknown, called)
            if number != trick_no:
                trick_no, led = number, follows
                continue
            if follows is not led:
                voids.setdefault(seat, set()).add(led)
        if view.unknown_call and picker is not None and called_suit is not None:
            voids.setdefault(picker, set()).add(called_suit)
        for seat, suits in voids.items():
            bit = self._seat_bit(seat)
            for card in allowed:
                if _suit_key(card) in suits:
                    allowed[card] &= ~bit

    def _called_card(
        self, allowed: dict[Card, int], plays: list[tuple[int, Card | None, int]]
    ) -> None:
        view = self.view
        called = view.called
        if called is None or called not in allowed or view.picker is None:
            return
        seats = {s for s in range(view.players) if s != view.picker and s not in view.cracks}
        suit = None if called.is_trump else called.suit
        if suit is not None:
            current = len(view.tricks)
            led_at = self._called_led_at(plays)
            if led_at is not None and led_at == current:
                # The first trick of the called suit: its holder has yet to play to it.
                seats -= {seat for seat, _, number in plays if number == current}
        mask = 0
        for seat in seats:
            mask |= self._seat_bit(seat)
        allowed[called] &= mask

    def _called_led_at(self, plays: list[tuple[int, Card | None, int]]) -> int | None:
        """The trick in which the called suit was first led, None before."""
        view = self.view
        called = view.called
        if called is None or called.is_trump:
            return None
        trick_no = -1
        for _seat, card, number in plays:
            if number == trick_no:
                continue
            trick_no = number
            if kernel.counts_as(card, view.unknown, called) is called.suit:
                return number
        return None

    def _picker_facts(
        self, allowed: dict[Card, int], plays: list[tuple[int, Card | None, int]]
    ) -> tuple[list[dict[Card, int]], Suit | None]:
        """What the call says of the picker's cards; an unknown call can leave several
        cases, one dict of allowed holders each; and the suit the picker must still
        hold a card of (an ace call before its suit is led), or None."""
        view = self.view
        called = view.called
        picker = view.picker
        assert picker is not None
        pick = self._seat_bit(picker)
        bury = 0 if self.bury_holder < 0 else 1 << self.bury_holder
        if called is None:
            return [], None
        if called.is_trump:
            if called.text == "JH" and _JD in allowed:
                allowed[_JD] &= pick | bury  # the picker calls JH only holding JD
            return [], None
        suit = called.suit
        led_at = self._called_led_at(plays)
        if called.rank is Rank.TEN:
            for s in FAIL_SUITS:
                ace = ace_of(s)
                if ace in allowed:
                    allowed[ace] &= pick if s is suit else pick | bury
            return [], None
        if not view.unknown_call:
            current = len(view.tricks)
            picker_played_now = any(
                seat == picker and number == current for seat, _, number in plays
            )
            if led_at is None or (led_at == current and not picker_played_now):
                return [], suit
            return [], None
        return self._unknown_call_cases(allowed, plays, suit, pick, bury), None

    def _unknown_call_cases(
        self,
        allowed: dict[Card, int],
        plays: list[tuple[int, Card | None, int]],
        suit: Suit,
        pick: int,
        bury: int,
    ) -> list[dict[Card, int]]:
        """The cases an unknown call leaves, one dict of allowed holders each."""
        picker = self.view.picker
        # An unknown call: no card of the called suit in the picker's hand (the voids
        # did that), nor as the unknown; for each other suit, the ace, or none of it.
        unknown = 1 << self.unknown_holder
        own = pick | unknown
        for card in allowed:
            if card.fail_suit is suit:
                allowed[card] &= ~own
        picker_played = {c for seat, c, _ in plays if seat == picker and c is not None}
        options = _ace_cases(allowed, picker_played, suit)
        result = []
        for combo in options:
            case = dict(allowed)
            for s, holds_ace in combo:
                ace = ace_of(s)
                if holds_ace:
                    if ace in case:
                        case[ace] &= own | bury
                    continue
                for card in case:
                    if card.fail_suit is s:
                        case[card] &= ~own
                if ace in case:
                    case[ace] &= ~bury
            result.append(case)
        return result

    # Sampling ----------------------------------------------------------------

    def sample(self, rng: Rng) -> World:
        """One world. Deterministic for a given generator state."""
        problems = self.problems
        index = rng.below(len(problems)) if len(problems) > 1 else 0
        problem = problems[index]
        picker = self.view.picker
        first: tuple[Card, int] | None = None
        if self.hold_suit is not None and picker is not None:
            # The picker's hold card: one of the suit, drawn among those that fit.
            h = self.seat_holder[picker]
            options = problem.hold_options.get((self.hold_suit, h))
            if options is None:
                options = problem.hold_options[self.hold_suit, h] = [
                    c
                    for c, m in problem.tight_cards
                    if c.fail_suit is self.hold_suit and m >> h & 1 and problem.fits(m, h)
                ]
            if options:
                first = (options[rng.below(len(options))], h)
        placed = place(problem, rng, first)
        prior = 1.0
        if self.hold_suit is not None and picker is not None:
            # The hold card was placed first, which favours worlds with many of its suit.
            held = placed[self.seat_holder[picker]]
            prior = 1.0 / max(1, sum(1 for c in held if c.fail_suit is self.hold_suit))
        if self.split:
            prior *= self._split(index, placed)
        return self._world(placed, prior)

    def _split(self, index: int, placed: list[list[Card]]) -> float:
        """The picker's hand and bury in ``placed`` split as the standard level buries,
        where that split keeps to the view (the problem's holders, the hold card); the
        world's weight factor (``burial.rule_split``)."""
        picker = self.view.picker
        assert picker is not None
        h_hand, h_bury = self.seat_holder[picker], self.bury_holder
        hand, bury = placed[h_hand], placed[h_bury]
        kept = list(self.picker_played)
        if self.unknown_holder >= 0:
            kept += placed[self.unknown_holder]
        pool = [*bury, *hand]
        split = rule_split(pool, kept, len(bury), bury)
        if split is None:
            return BURY_FLOOR
        new_bury, factor = split
        if all(c in bury for c in new_bury):
            return factor
        new_hand = [c for c in pool if c not in new_bury]
        # A split the view rules out (a void shown, the called suit to hold, an unknown
        # call's facts) says these cards are not a standard picker's: the world stays
        # as drawn, unlikely.
        masks = self._masks(index)
        if any(not masks.get(c, -1) >> h_hand & 1 for c in new_hand):
            return BURY_FLOOR
        if any(not masks.get(c, -1) >> h_bury & 1 for c in new_bury):
            return BURY_FLOOR
        hold = self.hold_suit
        if hold is not None and not any(c.fail_suit is hold for c in new_hand):
            return BURY_FLOOR
        placed[h_hand], placed[h_bury] = new_hand, new_bury
        return factor

    def _masks(self, index: int) -> dict[Card, int]:
        """The holders each restricted card of problem ``index`` may go to."""
        while len(self.split_masks) <= index:
            self.split_masks.append(dict(self.problems[len(self.split_masks)].tight_cards))
        return self.split_masks[index]

    def _world(self, placed: list[list[Card]], prior: float = 1.0) -> World:
        view = self.view
        n = self.players
        hands: list[tuple[Card, ...]] = []
        unknown: Card | None = view.unknown
        if self.unknown_holder >= 0:
            unknown = placed[self.unknown_holder][0]
        for seat in range(n):
            if seat == self.me:
                hands.append(view.cards)
                continue
            cards = placed[self.seat_holder[seat]]
            if seat == view.picker and self.unknown_holder >= 0 and not self.facedown:
                cards = [*cards, placed[self.unknown_holder][0]]
            hands.append(tuple(cards))
        bury = tuple(placed[self.bury_holder]) if self.bury_holder >= 0 else view.bury or ()
        if self.blind_holder >= 0:
            blind: tuple[Card, ...] | None = tuple(placed[self.blind_holder])
        else:
            blind = view.blind
        weight = prior
        if self.read:
            weight *= self._likelihood(hands)
        return World(tuple(hands), bury, blind, unknown, weight)


def _ace_cases(
    allowed: dict[Card, int], picker_played: set[Card], suit: Suit
) -> list[list[tuple[Suit, bool]]]:
    """For each fail suit but the called one: the picker holds its ace, or none of the
    suit, as far as the cards seen allow; every combination of these."""
    options: list[list[tuple[Suit, bool]]] = [[]]
    for s in FAIL_SUITS:
        if s is suit:
            continue
        ace = ace_of(s)
        ace_elsewhere = ace not in allowed and ace not in picker_played
        has_ace = ace in picker_played
        shown_suit = any(c.fail_suit is s for c in picker_played)
        cases = []
        if not ace_elsewhere:
            cases.append((s, True))
        if not has_ace and not shown_suit:
            cases.append((s, False))
        options = [[*o, c] for o in options for c in cases]
    return options
