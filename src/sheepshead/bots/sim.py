"""The play of one hand for search: cards as bits, seats as ints, rules from the kernel.

The engine's ``Game`` is built for clarity and records; search plays tens of thousands
of cards per decision, so ``SimHand`` keeps a hand as a few mutable ints and lists. It
states no rule of its own: legal cards, the suit a card follows as, who takes a trick
and the scores all come from the rules kernel (``kernel.py``, which also has the bit
layout), as they do for ``Game``. What it adds is bookkeeping the playout policy reads
(voids shown, suits led, who knows whose side). ``tests/test_sim.py`` checks the glue:
it agrees with ``Game`` on legal cards, trick winners and scores for every preset.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from sheepshead import kernel
from sheepshead.bots.cardkeys import BEATERS, ORDER
from sheepshead.cards import Card
from sheepshead.game import Game
from sheepshead.kernel import POINTS_AT, SUIT_AT, SUIT_MASK, TRUMPS, mask_of, points_of
from sheepshead.rules import LeasterBlind, Rules


def shows_defender(best: int, led: int, played: int) -> bool:
    """Reading the play: the picker's card ``best`` (a bit position, ``led`` the suit
    led) was winning and the card just played took it, and every card that could beat
    ``best`` is now played (``played`` includes the new card). So the seat that took
    it held the only cards able to, and knew the picker's card was sure to hold: the
    partner would have let it win (or schmeared), a defender takes it. Every seat
    reads that seat as a defender (it errs only when that card was forced). The face-down
    unknown card does not count as played: the table cannot see it."""
    above = kernel.ABOVE[best] if best >= 18 else (kernel.ABOVE[best] & SUIT_MASK[led]) | TRUMPS
    return not above & ~played


def _known(n: int, picker: int, side: int, second: int) -> tuple[list[list[int]], list[list[int]]]:
    """``SimHand._know``'s two tables (everyone knows every side; what each seat knows
    before the partners are out), a function of the seats and sides only."""
    full = [[0] * n for _ in range(n)]
    rel = [[0] * n for _ in range(n)]
    for a in range(n):
        row, full_row = rel[a], full[a]
        for b in range(n):
            if a == b:
                row[b] = full_row[b] = 1
                continue
            if picker < 0:
                row[b] = full_row[b] = -1
                continue
            same = 1 if (side >> a & 1) == (side >> b & 1) else -1
            full_row[b] = same
            partner = a != picker and side >> a & 1
            if partner or b == second or (a != picker and b == picker):
                row[b] = same
    return full, rel


#: ``_known`` by its arguments: at most a few thousand (seats, picker, side masks).
#: The tables are shared, so never edited in place (as ``rel`` already was not).
_KNOWN: Final[dict[tuple[int, int, int, int], tuple[list[list[int]], list[list[int]]]]] = {}


#: Every attribute of a ``SimHand``: its ``__slots__``, and what a test compares field by
#: field (a class compiled by mypyc, ``sheepshead.native``, has no ``__slots__`` to read).
FIELDS: Final[tuple[str, ...]] = (
    "best",
    "best_seat",
    "blind_points",
    "blind_rule",
    "bump",
    "bury",
    "bury_points",
    "called",
    "called_by",
    "called_led",
    "cs",
    "hands",
    "leader",
    "leaster",
    "led",
    "multiplier",
    "n",
    "named_trick",
    "named_winner",
    "needs_trick",
    "partners",
    "picker",
    "played",
    "rel",
    "rel_full",
    "revealed",
    "second",
    "shown",
    "side",
    "suits_led",
    "ten_call",
    "total_tricks",
    "trick",
    "trick_no",
    "trick_points",
    "turn",
    "unk",
    "voids",
    "won_points",
    "won_tricks",
)


class SimHand:
    """The play of one hand from a known deal: mutable, cheap to copy.

    Build one with ``start`` at the first lead, then ``play`` cards (bits) in turn;
    ``legal()`` is the mask of cards the seat to act may play; once ``done``,
    ``scores()`` gives game points per seat, as ``Game.result().scores``. It also
    keeps the public facts a player counts (voids shown, suits led, who knows whose
    side), which the playout policy (``playout.py``) reads.
    """

    __slots__ = FIELDS

    n: int
    hands: list[int]
    #: The picker's seat, -1 in a leaster.
    picker: int
    partners: frozenset[int]
    #: Seats of the picker's side as a bitmask over seats.
    side: int
    #: The called card as a bit (0: none); ``cs`` its suit key when it carries duties.
    called: int
    cs: int
    #: The picker's unknown card as a bit (0: none).
    unk: int
    ten_call: bool
    #: Trick number in which the called suit was first led, -1 before.
    called_led: int
    bury_points: int
    #: The bury as a mask (the picker knows it; it counts for the picker's side).
    bury: int
    leaster: bool
    blind_points: int
    blind_rule: LeasterBlind
    named_trick: int
    named_winner: int
    needs_trick: bool
    multiplier: int
    bump: bool
    total_tricks: int
    trick_no: int
    leader: int
    turn: int
    #: The cards (bits) of the trick being played, in order.
    trick: list[int]
    #: The card points of ``trick``, kept as it is played.
    trick_points: int
    led: int
    best: int
    best_seat: int
    won_points: list[int]
    won_tricks: list[int]
    played: int
    #: Whether everyone knows the partners (the called card is out, or no call).
    revealed: bool
    #: Per seat: the union of the suit masks it has shown void in (failed to follow).
    voids: list[int]
    #: The union of the suit masks led in finished tricks.
    suits_led: int
    #: The seat that played the called card, -1 before.
    called_by: int
    #: rel[a][b]: what seat a knows of seat b: 1 same side, -1 other side, 0 unknown.
    rel: list[list[int]]
    #: ``rel`` once the partners are out: everyone knows every side.
    rel_full: list[list[int]]
    #: The seat on the picker's right when it is a second partner everyone knows, else -1.
    second: int
    #: Seats the play showed on the defence (``shows_defender``), as a mask over seats.
    shown: int

    @classmethod
    def start(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[Card]],
        leader: int,
        *,
        picker: int | None,
        partners: Iterable[int] = (),
        called: Card | None = None,
        unknown: Card | None = None,
        bury: Iterable[Card] = (),
        blind: Iterable[Card] = (),
        multiplier: int = 1,
        forced: bool = False,
        named_trick: int | None = None,
    ) -> SimHand:
        """The hand at its first lead. ``multiplier`` includes the cracks; ``forced``
        says the dealer was made to pick (for the bump option)."""
        self = cls()
        n = rules.players
        self.n = n
        self.hands = [mask_of(h) for h in hands]
        self.picker = -1 if picker is None else picker
        self.partners = frozenset(partners)
        self.side = 0 if picker is None else (1 << picker)
        for p in self.partners:
            self.side |= 1 << p
        self.called = 0 if called is None else called.bit
        self.cs = kernel.duty_suit(called)
        self.unk = 0 if unknown is None else unknown.bit
        self.ten_call = called is not None and called.rank.value == "T"
        self.called_led = -1
        self.bury = mask_of(bury) if picker is not None else 0
        self.bury_points = points_of(self.bury)
        self.leaster = picker is None
        self.blind_points = sum(c.points for c in blind)
        self.blind_rule = rules.leaster_blind
        self.named_trick = -1 if named_trick is None else named_trick - 1
        self.named_winner = -1
        self.needs_trick = rules.leaster_needs_trick
        self.multiplier = multiplier
        self.bump = kernel.bumps(rules, forced)
        self.total_tricks = rules.tricks
        self.trick_no = 0
        self.leader = leader
        self.turn = leader
        self.trick = []
        self.trick_points = 0
        self.led = -1
        self.best = -1
        self.best_seat = -1
        self.won_points = [0] * n
        self.won_tricks = [0] * n
        self.played = 0
        self.voids = [0] * n
        if self.unk and self.cs >= 0 and picker is not None:
            # An unknown call says the picker holds no card of the called suit.
            self.voids[picker] = SUIT_MASK[self.cs]
        self.suits_led = 0
        self.called_by = -1
        self.revealed = self.called == 0 or not self.partners
        self.second = (picker - 1) % n if rules.second_partner and picker is not None else -1
        self.shown = 0
        self._know()
        return self

    def _know(self) -> None:
        """Fill ``rel``: what each seat knows of the others' sides. Once the called card
        is out, everyone knows everything; before, the partner knows the whole table,
        the picker knows only a second partner, and a defender only the picker's side
        it can see (the picker, a second partner)."""
        key = (self.n, self.picker, self.side, self.second)
        known = _KNOWN.get(key)
        if known is None:
            known = _KNOWN[key] = _known(*key)
        full, rel = known
        self.rel_full = full
        self.rel = full if self.revealed else rel
        shown = self.shown
        seat = 0
        while shown and not self.revealed:
            if shown & 1:
                self._place_defender(seat)
            shown >>= 1
            seat += 1

    def _shown_defender(self, seat: int) -> None:
        """``seat`` took the picker's trick that only it could take: every seat now
        places it on the defence (``shows_defender``), in this world and in any other
        it is rewired to."""
        self.shown |= 1 << seat
        self._place_defender(seat)

    def _place_defender(self, seat: int) -> None:
        """``rel`` may be shared, so it is replaced, not edited."""
        picker = self.picker
        rel = [row[:] for row in self.rel]
        for a in range(self.n):
            if a != seat and rel[a][seat] == 0:
                rel[a][seat] = -rel[a][picker]
        self.rel = rel

    def rewire(
        self, hands: list[int], partners: frozenset[int], unknown: int, bury: int, blind: int
    ) -> SimHand:
        """The same play so far, with other hidden cards: each seat's cards now (masks),
        the partners they make, the picker's unknown card (a bit, not yet played), the
        bury (a mask), the blind's points. Only valid while no card was played face down."""
        new = self.copy()
        new.hands = hands
        new.partners = partners
        side = 0 if self.picker < 0 else 1 << self.picker
        for p in partners:
            side |= 1 << p
        new.side = side
        new.unk = unknown
        new.bury = bury
        new.bury_points = points_of(bury)
        new.blind_points = blind
        new._know()
        return new

    def copy(self) -> SimHand:
        new = SimHand()
        new.best = self.best
        new.best_seat = self.best_seat
        new.blind_points = self.blind_points
        new.blind_rule = self.blind_rule
        new.bump = self.bump
        new.bury = self.bury
        new.bury_points = self.bury_points
        new.called = self.called
        new.called_by = self.called_by
        new.called_led = self.called_led
        new.cs = self.cs
        new.hands = self.hands[:]
        new.leader = self.leader
        new.leaster = self.leaster
        new.led = self.led
        new.multiplier = self.multiplier
        new.n = self.n
        new.named_trick = self.named_trick
        new.named_winner = self.named_winner
        new.needs_trick = self.needs_trick
        new.partners = self.partners
        new.picker = self.picker
        new.played = self.played
        new.rel = self.rel
        new.rel_full = self.rel_full
        new.revealed = self.revealed
        new.second = self.second
        new.shown = self.shown
        new.side = self.side
        new.suits_led = self.suits_led
        new.ten_call = self.ten_call
        new.total_tricks = self.total_tricks
        new.trick = self.trick[:]
        new.trick_no = self.trick_no
        new.trick_points = self.trick_points
        new.turn = self.turn
        new.unk = self.unk
        new.voids = self.voids[:]
        new.won_points = self.won_points[:]
        new.won_tricks = self.won_tricks[:]
        # ``rel`` and ``rel_full`` are replaced, never edited in place: they may be shared.
        return new

    @property
    def done(self) -> bool:
        return self.trick_no == self.total_tricks

    # Rules of play --------------------------------------------------------

    def legal(self) -> int:
        """The cards the seat to act may play, as a mask (``kernel.legal``)."""
        seat = self.turn
        hand = self.hands[seat]
        if hand & (hand - 1) == 0:
            return hand
        return kernel.legal(
            hand,
            self.led if self.trick else -1,
            seat == self.picker,
            self.called,
            self.cs,
            self.unk,
            self.ten_call,
            self.called_led,
            self.trick_no,
        )

    def play(self, card: int) -> None:
        """Play one card (a one-bit mask) for the seat to act. Does not check legality.

        The hot path of search: ``kernel.suit_of`` and ``kernel.takes`` are written
        out here (``tests/test_sim.py`` holds it to ``Game``)."""
        seat = self.turn
        self.hands[seat] &= ~card
        played = self.played = self.played | card
        trick = self.trick
        unk = self.unk
        pos = card.bit_length() - 1
        suit = self.cs if card == unk else SUIT_AT[pos]
        if not trick:
            self.leader = seat
            led = self.led = suit
            if led == self.cs and self.called_led < 0:
                self.called_led = self.trick_no
            best = self.best = -1
            self.best_seat = -1
        else:
            led = self.led
            best = self.best
            if suit != led:
                self.voids[seat] |= SUIT_MASK[led]
        trick.append(card)
        self.trick_points += POINTS_AT[pos]
        # ``kernel.takes``: not the unknown card; a higher trump, or of the suit led.
        if card != unk and pos > best and (pos >= 18 or suit == led):
            if (
                best >= 0
                and not self.revealed
                and self.best_seat == self.picker
                and seat != self.second
                and shows_defender(best, led, played & ~unk)
            ):
                self._shown_defender(seat)
            self.best = pos
            self.best_seat = seat
        if card == self.called:
            self.called_out(seat)
        n = self.n
        if len(trick) < n:
            self.turn = seat + 1 if seat + 1 < n else 0
            return
        self._end_trick(led)

    def called_out(self, seat: int) -> None:
        """``seat`` played the called card: now everyone knows the sides."""
        self.called_by = seat
        if not self.revealed:
            self.revealed = True
            self.rel = self.rel_full

    def _end_trick(self, led: int) -> None:
        winner = self.best_seat
        if winner < 0:  # the unknown led and nothing followed it: the next seat wins
            winner = (self.leader + 1) % self.n
        # The bits are distinct, so their sum is their union.
        self.won_points[winner] += self.trick_points
        self.won_tricks[winner] += 1
        if self.trick_no == self.named_trick:
            self.named_winner = winner
        self.trick_no += 1
        self.suits_led |= SUIT_MASK[led]
        self.trick = []
        self.trick_points = 0
        self.leader = winner
        self.turn = winner

    def finish(self) -> None:
        """Play the last trick, where every seat still to play holds one card (so its
        play is forced): the trick's winner, points and lead exactly as ``play`` card
        by card would leave them, for the scores. What the play shows (voids, sides,
        the called card's seat) is not updated: nothing reads it after the hand."""
        n = self.n
        hands = self.hands
        trick = self.trick
        unk = self.unk
        turn = self.turn
        points, played = self.trick_points, self.played
        if trick:
            led, best, best_seat = self.led, self.best, self.best_seat
        else:
            self.leader = turn
            first = hands[turn]
            led = self.led = self.cs if first == unk else SUIT_AT[first.bit_length() - 1]
            best = best_seat = -1
        beat = BEATERS[led][best + 1] & ~unk  # ``kernel.takes``
        # Not appended to ``trick``: it is over.
        for seat in ORDER[n][turn][: n - len(trick)]:
            card = hands[seat]
            hands[seat] = 0
            played |= card
            pos = card.bit_length() - 1
            points += POINTS_AT[pos]
            if card & beat:
                best, best_seat = pos, seat
                beat = BEATERS[led][pos + 1] & ~unk
        self.played = played
        self.trick_points = points
        self.best, self.best_seat = best, best_seat
        self._end_trick(led)

    # Scoring --------------------------------------------------------------

    def side_points(self) -> int:
        """Card points of the picker's side so far, the bury included."""
        side = self.side
        points = self.bury_points
        for s, p in enumerate(self.won_points):  # a loop: ``sum`` of a generator costs more
            if side >> s & 1:
                points += p
        return points

    def scores(self) -> tuple[int, ...]:
        """Game points per seat of the finished hand (as ``Game.result().scores``)."""
        if self.leaster:
            return self._leaster_scores()
        return self._picker_scores(self.side_points())

    def outcome(self, seat: int) -> tuple[int, int]:
        """``scores()[seat]`` and ``own_points(seat)``, what search reads of a finished
        hand, the side's points counted once."""
        if self.leaster:
            points = self.leaster_points()
            scores = kernel.leaster_scores(
                points, self.won_tricks, self.needs_trick, self.multiplier
            )
            return scores[seat], -points[seat]
        p = self.side_points()
        return self._picker_scores(p)[seat], p if self.side >> seat & 1 else 120 - p

    def _picker_scores(self, points: int) -> tuple[int, ...]:
        side = self.side
        tricks = 0
        for s, t in enumerate(self.won_tricks):
            if side >> s & 1:
                tricks += t
        return kernel.picker_score(
            self.n,
            self.picker,
            side,
            points,
            tricks,
            self.total_tricks,
            self.multiplier,
            self.bump,
        )[1]

    def leaster_points(self) -> list[int]:
        points = self.won_points[:]
        rule = self.blind_rule
        if rule is LeasterBlind.LAST_TRICK:
            points[self.leader] += self.blind_points
        elif rule is LeasterBlind.NAMED_TRICK and self.named_winner >= 0:
            points[self.named_winner] += self.blind_points
        return points

    def _leaster_scores(self) -> tuple[int, ...]:
        return kernel.leaster_scores(
            self.leaster_points(), self.won_tricks, self.needs_trick, self.multiplier
        )

    def own_points(self, seat: int) -> int:
        """Card points the seat's side took (a tie-break for search): in a leaster,
        the fewer the better, so they count negative."""
        if self.leaster:
            return -self.leaster_points()[seat]
        p = self.side_points()
        return p if self.side >> seat & 1 else 120 - p

    # From the engine --------------------------------------------------------

    @classmethod
    def from_game(cls, game: Game) -> SimHand:
        """The engine's hand, in play or done, as a SimHand at the same point."""
        n = game.players
        played = [game.hands[s] for s in range(n)]
        order: list[Card] = []
        for trick in game.tricks:
            order.extend(trick.cards)
            for seat, card in trick.plays(n):
                played[seat] = (*played[seat], card)
        for i, card in enumerate(game.trick_cards):
            order.append(card)
            seat = (game.trick_leader + i) % n
            played[seat] = (*played[seat], card)
        picker = game.picker
        sim = cls.start(
            game.rules,
            played,
            (game.dealer + 1) % n,
            picker=picker,
            partners=game.partners,
            called=game.called,
            unknown=game.unknown,
            bury=game.bury,
            blind=game.blind,
            multiplier=kernel.hand_multiplier(game.multiplier, len(game.cracks)),
            forced=picker == game.dealer,
            named_trick=game.named_trick,
        )
        for card in order:
            sim.play(card.bit)
        return sim
