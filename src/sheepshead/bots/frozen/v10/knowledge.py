# Frozen copy of sheepshead.bots/knowledge.py at version 10: never edit.
"""What a seat can infer from its view: the counting a good player does at the table.

Everything here is read from a ``SeatView``, so nothing hidden can leak in: the cards
still out, the suits each seat has shown void in, who is known to be an ally or an
opponent, the points each seat has taken, whether the called suit has been led, and
who is winning the trick being played.

A suit is written as ``Suit`` for a fail suit and ``None`` for trump (all trumps are
one suit for following), as ``Card.fail_suit`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from sheepshead import kernel
from sheepshead.bots.frozen.v10.sim import shows_defender
from sheepshead.cards import DECK, FAIL_SUITS, TRUMPS, Card, Rank, Suit, ace_of
from sheepshead.hand import Phase
from sheepshead.rules import PartnerRule
from sheepshead.view import SeatView, SeenTrick

#: A card's suit for following: a fail suit, or None for trump.
SuitKey = Suit | None


def beats(card: Card, best: Card, led: SuitKey) -> bool:
    """Whether ``card`` takes a trick that ``best`` is winning, ``led`` being the suit led."""
    if card.is_trump:
        return card.power > best.power
    return card.fail_suit is led and not best.is_trump and card.power > best.power


@dataclass(frozen=True, slots=True)
class Knowledge:
    view: SeatView
    seat: int
    players: int
    picker: int | None
    #: Everyone passed and the hand is played as a leaster.
    leaster: bool
    me_picker: bool
    me_partner: bool
    called: Card | None
    #: The suit with call duties (ace, unknown or ten call); None under the jack of diamonds.
    called_suit: Suit | None
    called_led: bool
    #: The seat known (to this seat) to hold or have played the called card.
    called_holder: int | None
    #: Cards this seat cannot place: not its own, not played face up, not its own bury.
    unseen: frozenset[Card]
    #: Per seat: the suits it has shown void in (failed to follow).
    voids: tuple[frozenset[SuitKey], ...]
    #: Seats known to be on this seat's side, and known to be against it.
    allies: frozenset[int]
    opponents: frozenset[int]
    #: Per seat: card points and tricks taken so far.
    points_won: tuple[int, ...]
    tricks_won: tuple[int, ...]
    #: The trick being played, as (seat, card) with None for a face-down unknown card.
    plays: tuple[tuple[int, Card | None], ...]
    led: SuitKey
    winner: int | None
    best: Card | None
    trick_points: int
    #: Seats still to play to this trick after this seat.
    later: tuple[int, ...]
    #: Which suits have been led so far (for "first round of a suit").
    suits_led: frozenset[SuitKey]
    #: Unplayed cards only the picker can hold (a ten call shows all three fail aces).
    picker_only: frozenset[Card]

    # Derived facts ---------------------------------------------------------

    @property
    def hand(self) -> tuple[Card, ...]:
        return self.view.cards

    @property
    def leading(self) -> bool:
        return not self.plays

    @property
    def trick_number(self) -> int:
        """0-based index of the trick being played."""
        return len(self.view.tricks)

    @property
    def tricks_left(self) -> int:
        return self.view.rules.tricks - len(self.view.tricks)

    @property
    def on_picker_side(self) -> bool:
        return self.me_picker or self.me_partner

    def trumps_unseen(self) -> list[Card]:
        """The trumps this seat cannot place, high to low."""
        return [t for t in TRUMPS if t in self.unseen]

    def is_boss(self, card: Card) -> bool:
        """No card this seat cannot place beats ``card`` when ``card`` leads its suit."""
        if card.is_trump:
            return not any(t.power > card.power for t in self.unseen if t.is_trump)
        return not any(
            c.fail_suit is card.fail_suit and c.power > card.power for c in self.unseen
        ) and not any(t.is_trump for t in self.unseen)

    def could_hold(self, seat: int, card: Card) -> bool:
        """Whether ``seat`` may still hold ``card``, as far as this seat knows."""
        if card not in self.unseen or seat == self.seat:
            return False
        if card.fail_suit in self.voids[seat]:
            return False
        if card is self.called and self.called_holder is not None:
            return seat == self.called_holder
        if seat != self.picker and card in self.picker_only:
            return False
        return card is not self.called or seat != self.picker

    def could_beat(self, seat: int, best: Card, led: SuitKey) -> bool:
        """Whether ``seat`` may hold a card that takes a trick ``best`` is winning."""
        first_called_lead = (
            led is not None and led is self.called_suit and not self.called_led_before_this_trick
        )
        if first_called_lead and seat == self.picker and self.view.unknown_call:
            return False  # the picker must play the face-down card, which never wins
        must_follow_fail = first_called_lead and (seat == self.picker or seat == self.called_holder)
        for card in self.unseen:
            if not beats(card, best, led) or not self.could_hold(seat, card):
                continue
            if card.is_trump and led is not None and must_follow_fail:
                continue
            return True
        return False

    @property
    def called_led_before_this_trick(self) -> bool:
        return any(_led_suit(t, self) is self.called_suit for t in self.view.tricks)

    def later_beaters(self, card: Card) -> int:
        """How many cards this seat cannot place could beat ``card`` (played now) in the
        hand of a seat still to play."""
        led = self.led if self.plays else card.fail_suit
        return sum(
            1
            for c in self.unseen
            if beats(c, card, led) and any(self._could_play(s, c, led) for s in self.later)
        )

    def _could_play(self, seat: int, card: Card, led: SuitKey) -> bool:
        if not self.could_hold(seat, card):
            return False
        if card.is_trump and led is not None:
            first_called = led is self.called_suit and not self.called_led_before_this_trick
            if first_called and (seat == self.picker or seat == self.called_holder):
                return False  # the hold card or the called card must be played
        return True

    def sure_to_win(self, card: Card) -> bool:
        """Whether ``card``, played now, takes the trick whatever the later seats hold."""
        best, led = self.best, self.led
        if self.plays:
            if best is not None and not beats(card, best, led):
                return False
        else:
            led = card.fail_suit
        return not any(self.could_beat(s, card, led) for s in self.later)

    def winner_is_sure(self) -> bool:
        """Whether the trick's current best card will hold against every seat still to
        play after this one (this seat's own card aside)."""
        best = self.best
        if best is None:
            return False
        return not any(self.could_beat(s, best, self.led) for s in self.later)

    def side_of(self, seat: int) -> int:
        """+1 a known ally (or this seat), -1 a known opponent, 0 unknown."""
        if seat == self.seat or seat in self.allies:
            return 1
        if seat in self.opponents:
            return -1
        return 0


def _led_suit(trick: SeenTrick, k: Knowledge) -> SuitKey:
    if not trick.cards:
        return None
    return kernel.counts_as(trick.cards[0], k.view.unknown, k.view.called)


def _best_of(
    plays: tuple[tuple[int, Card | None], ...], led: SuitKey, view: SeatView
) -> tuple[int | None, Card | None]:
    """Who is winning the trick, and with what: the kernel's rule (``kernel.takes``)."""
    led_key = kernel.TRUMP if led is None else kernel.SUIT_KEY[led]
    unk = 0 if view.unknown is None else view.unknown.bit
    best_seat: int | None = None
    best: Card | None = None
    best_pos = -1
    for seat, card in plays:
        if card is None:
            continue  # the unknown card, face down, never wins
        pos = card.bit.bit_length() - 1
        if kernel.takes(pos, card.bit, led_key, best_pos, unk):
            best_seat, best, best_pos = seat, card, pos
    return best_seat, best


def read_view(view: SeatView) -> Knowledge:
    """Everything ``view``'s seat can infer, for its decision."""
    n = view.players
    seat = view.seat
    picker = view.picker
    leaster = picker is None and view.phase in (Phase.PLAYING, Phase.NAMING, Phase.DONE)
    me_picker = picker == seat
    me_partner = view.partner
    called = view.called
    called_suit = None if called is None or called.is_trump else called.suit

    played: set[Card] = set()
    voids: list[set[SuitKey]] = [set() for _ in range(n)]
    points = [0] * n
    tricks = [0] * n
    suits_led: set[SuitKey] = set()
    called_led = False
    called_holder: int | None = None
    if called is not None and called in view.cards:
        called_holder = seat

    def scan(trick: SeenTrick) -> SuitKey:
        nonlocal called_led, called_holder
        led = kernel.counts_as(trick.cards[0], view.unknown, called)
        suits_led.add(led)
        if called_suit is not None and led is called_suit:
            called_led = True
        for i, card in enumerate(trick.cards):
            who = (trick.leader + i) % n
            if card is not None:
                played.add(card)
                if card is called:
                    called_holder = who
            if i and kernel.counts_as(card, view.unknown, called) is not led:
                voids[who].add(led)
        return led

    for trick in view.tricks:
        scan(trick)
        assert trick.winner is not None
        tricks[trick.winner] += 1
        points[trick.winner] += sum(c.points for c in trick.cards if c is not None)
    plays = view.trick.plays(n)
    led: SuitKey = None
    if plays:
        led = scan(view.trick)
    if called_suit is not None and view.unknown_call and picker is not None:
        # An unknown call says the picker holds no card of the called suit.
        voids[picker].add(called_suit)

    own = set(view.cards)
    if me_picker:
        own.update(view.bury or ())
        own.update(view.blind or ())
    unseen = frozenset(c for c in DECK if c not in own and c not in played)

    picker_only: frozenset[Card] = frozenset()
    if called is not None and called.rank is Rank.TEN and not me_picker:
        picker_only = frozenset(ace_of(s) for s in FAIL_SUITS) & unseen
    allies, opponents = _sides(view, called_holder, leaster)
    if picker is not None and not leaster:
        allies, opponents = _read_play(view, allies, opponents)
    best_seat, best = _best_of(plays, led, view)
    trick_points = sum(c.points for _, c in plays if c is not None)
    later: tuple[int, ...] = ()
    if view.turn == seat and view.phase is Phase.PLAYING:
        leader = view.trick.leader
        done = len(plays)
        later = tuple((leader + i) % n for i in range(done + 1, n))
    return Knowledge(
        view=view,
        seat=seat,
        players=n,
        picker=picker,
        leaster=leaster,
        me_picker=me_picker,
        me_partner=me_partner,
        called=called,
        called_suit=called_suit,
        called_led=called_led,
        called_holder=called_holder,
        unseen=unseen,
        voids=tuple(frozenset(v) for v in voids),
        allies=allies,
        opponents=opponents,
        points_won=tuple(points),
        tricks_won=tuple(tricks),
        plays=plays,
        led=led,
        winner=best_seat,
        best=best,
        trick_points=trick_points,
        later=later,
        suits_led=frozenset(suits_led),
        picker_only=picker_only,
    )


def _sides(
    view: SeatView, called_holder: int | None, leaster: bool
) -> tuple[frozenset[int], frozenset[int]]:
    """(allies, opponents) as far as this seat knows; the rest are unknown."""
    n, seat, picker = view.players, view.seat, view.picker
    others = frozenset(s for s in range(n) if s != seat)
    if leaster:
        return frozenset(), others
    if picker is None:
        return frozenset(), frozenset()
    if view.alone or view.rules.partner is PartnerRule.NONE:
        if seat == picker:
            return frozenset(), others
        return others - {picker}, frozenset({picker})
    partners = set(view.known_partners)
    if called_holder is not None:
        partners.add(called_holder)
    if view.partner:
        partners.add(seat)
    # Before the call nobody knows the partner; after it, whoever has the called card.
    complete = view.called is not None and called_holder is not None
    side = partners | {picker}
    if seat in side:
        allies = frozenset(side - {seat})
        return allies, (others - allies) if complete else frozenset()
    opponents = frozenset(side)
    return (others - opponents) if complete else frozenset(), opponents


def _read_play(
    view: SeatView, allies: frozenset[int], opponents: frozenset[int]
) -> tuple[frozenset[int], frozenset[int]]:
    """Places the seats the play shows on the defence (``shown_defenders``), as the
    simulator places them, so that the standard level and the playouts read alike."""
    shown = shown_defenders(view) - allies - opponents - {view.seat}
    if not shown:
        return allies, opponents
    if view.seat == view.picker:
        return allies, opponents | shown
    return allies | shown, opponents


def shown_defenders(view: SeatView) -> frozenset[int]:
    """Seats that took the picker's trick with the only cards that could
    (``sim.shows_defender``), while the partner was not yet known."""
    n, picker = view.players, view.picker
    if picker is None:
        return frozenset()
    second = (picker - 1) % n if view.rules.second_partner else -1
    unknown = view.unknown
    called = view.called
    cs = kernel.duty_suit(called)
    unk = 0 if unknown is None else unknown.bit
    played = 0
    shown: set[int] = set()
    for trick in (*view.tricks, view.trick):
        led = -1
        best, best_seat = -1, -1
        for i, card in enumerate(trick.cards):
            who = (trick.leader + i) % n
            if card is None:
                if i == 0:
                    led = cs
                continue
            b = card.bit
            played |= b
            if i == 0:
                led = kernel.suit_of(b, unk, cs)
            pos = b.bit_length() - 1
            if kernel.takes(pos, b, led, best, unk):
                if (
                    best_seat == picker
                    and who != second
                    and best >= 0
                    and shows_defender(best, led, played & ~unk)
                ):
                    shown.add(who)
                best, best_seat = pos, who
            if card is called:
                return frozenset(shown)  # the partner is out: nothing more to read
    return frozenset(shown)


def fail_cards(cards: tuple[Card, ...] | list[Card], suit: Suit) -> list[Card]:
    return [c for c in cards if c.fail_suit is suit]


def trumps_of(cards: tuple[Card, ...] | list[Card]) -> list[Card]:
    return [c for c in cards if c.is_trump]
