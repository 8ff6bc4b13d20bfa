"""One hand of Sheepshead, from the deal to the score, as an immutable state.

``Game.deal(rules, dealer, seed)`` deals; ``legal_actions()`` lists what the seat
to act may do (sorted by text); ``apply(action)`` returns the next state or raises
``IllegalAction`` with the reason; ``view(seat)`` is what one seat may know;
``result()`` scores a finished hand. A hand is its deal plus its moves, so any
state can be rebuilt by replaying them (see ``record.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from operator import attrgetter
from typing import Any, NoReturn

from sheepshead import kernel, refusals
from sheepshead.actions import (
    ALONE,
    CRACK,
    NOCRACK,
    PASS,
    PICK,
    PLAYS,
    Action,
    Alone,
    Bury,
    Call,
    Crack,
    Move,
    Name,
    NoCrack,
    Pass,
    Pick,
    Play,
)
from sheepshead.cards import DECK, FAIL_SUITS, Card, Rank, Suit, ace_of, ten_of
from sheepshead.deal import deal_cards
from sheepshead.hand import HandResult as HandResult  # re-exported: bots/frozen/ import
from sheepshead.hand import Phase as Phase  # these from game, as the play they froze did
from sheepshead.hand import Trick as Trick
from sheepshead.refusals import IllegalAction, Refusal
from sheepshead.rules import (
    JdPickerHolds,
    LeasterBlind,
    NobodyPicks,
    PartnerRule,
    Rules,
)
from sheepshead.scoring import hand_result, leaster_blind_seat
from sheepshead.view import SeatView, seat_view

_TEXT = attrgetter("text")
JD = Card(Rank.JACK, Suit.DIAMONDS)
JH = Card(Rank.JACK, Suit.HEARTS)


#: For each card (by ``Card.index``), the mask of the cards whose text sorts before its.
_TEXT_BEFORE: tuple[int, ...] = tuple(
    kernel.mask_of(c for c in DECK if c.text < card.text) for card in DECK
)


def _plays_of(cards: tuple[Card, ...]) -> tuple[Play, ...]:
    return tuple([PLAYS[c] for c in cards])


def _not_now(move: Move) -> Refusal:
    return Refusal("not-now", {"seat": move.seat, "action": str(move.action)})


class Game:
    """One hand. Immutable: ``apply`` returns a new ``Game``.

    Public attributes (read-only): ``rules``, ``dealer``, ``multiplier``, ``dealt``
    (each seat's dealt cards), ``blind``, ``moves``, ``phase``, ``turn`` (the seat to
    act, None when done), ``hands`` (each seat's cards now), ``picker``, ``bury``,
    ``called`` (the called card), ``unknown`` (the picker's face-down card),
    ``alone``, ``partners``, ``cracks``, ``named_trick``, ``tricks`` (complete) and
    ``trick_leader`` / ``trick_cards`` (the trick being played).
    """

    rules: Rules
    #: The head count (``rules.players``), kept at hand for the hot paths.
    players: int
    dealer: int
    multiplier: int
    dealt: tuple[tuple[Card, ...], ...]
    blind: tuple[Card, ...]
    phase: Phase
    turn: int | None
    picker: int | None
    bury: tuple[Card, ...]
    called: Card | None
    unknown: Card | None
    alone: bool
    partners: frozenset[int]
    cracks: tuple[int, ...]
    named_trick: int | None
    tricks: tuple[Trick, ...]
    trick_leader: int
    trick_cards: tuple[Card, ...]
    #: The suit that follows the duties of a call (ace, ten or unknown), else None.
    called_suit: Suit | None
    #: Index of the trick in which the called suit was first led, None before.
    called_led_at: int | None
    _legal: tuple[Action, ...] | None
    #: In play, each seat's cards as its Play actions, in text order (``hands`` is read
    #: from it then); None before the play, when ``_hands`` holds the cards.
    _plays: tuple[tuple[Play, ...], ...] | None
    _hands: tuple[tuple[Card, ...], ...] | None
    # The moves as a chain of (earlier chain, seat, action), None at the deal: ``moves``
    # is built from it when read. (A chain of small tuples, not of the earlier states:
    # those would all stay alive to the end of the hand, for the garbage collector to
    # walk again and again.)
    _log: tuple[Any, int, Action] | None
    _moves: tuple[Move, ...] | None
    # The same state in the rules kernel's terms (``kernel.py``): each seat's cards as a
    # mask, the suit key led (-1 before a lead), and the call's duties.
    _masks: tuple[int, ...] | None
    _led: int
    #: In play, the legal cards' mask, made with ``_legal``.
    _lmask: int
    _called: int
    _cs: int
    _unk: int
    _ten: bool
    _called_led: int

    # Construction -------------------------------------------------------

    @classmethod
    def deal(cls, rules: Rules, dealer: int, seed: bytes, multiplier: int = 1) -> Game:
        """Deal a hand from a seed (``deal.py`` documents the shuffle)."""
        if type(dealer) is not int or not 0 <= dealer < rules.players:
            raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
        if type(multiplier) is not int or multiplier < 1:
            raise ValueError(f"multiplier must be a positive integer, not {multiplier!r}")
        hands, blind = deal_cards(seed, rules.players, rules.cards_per_seat)
        # A seeded deal is a full deck by construction: no need to check it card by card.
        return cls._start(rules, dealer, hands, blind, multiplier)

    @classmethod
    def from_deal(
        cls,
        rules: Rules,
        dealer: int,
        hands: Sequence[Iterable[Card]],
        blind: Iterable[Card],
        multiplier: int = 1,
    ) -> Game:
        """Start a hand from given cards. Raises ValueError if the deal is not a full deck."""
        n = rules.players
        if type(dealer) is not int or not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        if type(multiplier) is not int or multiplier < 1:
            raise ValueError(f"multiplier must be a positive integer, not {multiplier!r}")
        hand_tuples = tuple(tuple(h) for h in hands)
        blind_tuple = tuple(blind)
        if len(hand_tuples) != n:
            raise ValueError(f"{n} players need {n} hands, not {len(hand_tuples)}")
        for seat, cards in enumerate(hand_tuples):
            if len(cards) != rules.cards_per_seat:
                raise ValueError(
                    f"seat {seat} must be dealt {rules.cards_per_seat} cards, not {len(cards)}"
                )
        if len(blind_tuple) != rules.blind_size:
            raise ValueError(
                f"the blind must hold {rules.blind_size} cards, not {len(blind_tuple)}"
            )
        seen: set[Card] = set()
        for card in (*(c for h in hand_tuples for c in h), *blind_tuple):
            if not isinstance(card, Card):
                raise ValueError(f"not a card: {card!r}")
            if card in seen:
                raise ValueError(f"card {card} is dealt twice")
            seen.add(card)
        if len(seen) != len(DECK):
            raise ValueError("the deal must hold every card exactly once")
        return cls._start(rules, dealer, hand_tuples, blind_tuple, multiplier)

    @classmethod
    def _start(
        cls,
        rules: Rules,
        dealer: int,
        hand_tuples: tuple[tuple[Card, ...], ...],
        blind_tuple: tuple[Card, ...],
        multiplier: int,
    ) -> Game:
        n = rules.players
        hands = tuple(tuple(sorted(h, key=_TEXT)) for h in hand_tuples)
        game = object.__new__(cls)
        game.__dict__.update(
            rules=rules,
            players=n,
            dealer=dealer,
            multiplier=multiplier,
            dealt=hand_tuples,
            blind=blind_tuple,
            phase=Phase.PICKING,
            turn=(dealer + 1) % n,
            picker=None,
            bury=(),
            called=None,
            unknown=None,
            alone=False,
            partners=frozenset(),
            cracks=(),
            named_trick=None,
            tricks=(),
            trick_leader=(dealer + 1) % n,
            trick_cards=(),
            called_suit=None,
            called_led_at=None,
            _legal=None,
            _plays=None,
            _hands=hands,
            _log=None,
            _moves=(),
            _masks=None,
            _led=-1,
            _lmask=0,
            _called=0,
            _cs=kernel.NO_SUIT,
            _unk=0,
            _ten=False,
            _called_led=-1,
        )
        return game

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError("a Game is immutable: apply() returns a new one")

    def _evolve(self, **changes: Any) -> Game:
        new = object.__new__(Game)
        state = self.__dict__.copy()
        state.update(changes)
        state["_legal"] = None
        object.__setattr__(new, "__dict__", state)
        return new

    # Facts --------------------------------------------------------------

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards now, in text order."""
        d = self.__dict__
        hands: tuple[tuple[Card, ...], ...] | None = d["_hands"]
        if hands is None:
            hands = d["_hands"] = tuple([tuple([p.card for p in ps]) for ps in d["_plays"]])
        return hands

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move so far, in order."""
        d = self.__dict__
        moves: tuple[Move, ...] | None = d["_moves"]
        if moves is None:
            steps: list[Move] = []
            log = d["_log"]
            while log is not None:
                log, seat, action = log
                steps.append(Move(seat, action))
            steps.reverse()
            moves = d["_moves"] = tuple(steps)
        return moves

    @property
    def is_done(self) -> bool:
        return self.phase is Phase.DONE

    @property
    def is_leaster(self) -> bool:
        """Everyone passed and the table plays a leaster."""
        return (
            self.picker is None
            and self.phase is not Phase.PICKING
            and self.rules.nobody_picks is NobodyPicks.LEASTER
        )

    @property
    def is_doubler(self) -> bool:
        return self.picker is None and self.phase is Phase.DONE and not self.tricks

    def holds(self, seat: int, card: Card) -> bool:
        """Whether the seat holds the card now; the picker's bury counts as held."""
        return card in self.hands[seat] or (seat == self.picker and card in self.bury)

    def holder_of(self, card: Card) -> int | None:
        for seat, cards in enumerate(self.hands):
            if card in cards:
                return seat
        return None

    # Legal actions ------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act, sorted by text; () when done."""
        d = self.__dict__
        legal: tuple[Action, ...] | None = d["_legal"]
        if legal is None:
            if d["phase"] is Phase.PLAYING:
                # The common case, inline. Hands are kept in text order, so the legal
                # cards come out sorted already.
                if d["_plays"] is None:
                    hands = d["_hands"]
                    d["_plays"] = tuple([_plays_of(h) for h in hands])
                    d["_masks"] = tuple([kernel.mask_of(h) for h in hands])
                seat = d["turn"]
                held = d["_plays"][seat]
                hand = d["_masks"][seat]
                mask = _kernel_legal(d, seat)
                legal = held if mask == hand else tuple([p for p in held if p.card.bit & mask])
                d["_lmask"] = mask
            else:
                legal = self._compute_legal()
            d["_legal"] = legal
        return legal

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase is Phase.PICKING:
            if self.turn == self.dealer and self.rules.nobody_picks is NobodyPicks.FORCED_PICK:
                return (PICK,)
            return (PASS, PICK)
        if phase is Phase.BURYING:
            assert self.picker is not None
            # Combinations of text-sorted cards come out in the text order of their records.
            cards = self.hands[self.picker]
            return tuple(map(Bury.of_sorted, combinations(cards, self.rules.blind_size)))
        if phase is Phase.CALLING:
            return tuple(sorted(self._legal_calls(), key=str))
        if phase is Phase.CRACKING:
            if self.turn in self.partners:
                return (NOCRACK,)
            return (CRACK, NOCRACK)
        if phase is Phase.NAMING:
            return tuple(sorted((Name(t) for t in range(1, self.rules.tricks + 1)), key=str))
        return ()

    def _legal_calls(self) -> list[Action]:
        assert self.picker is not None
        picker, rules = self.picker, self.rules
        hand = self.hands[picker]
        calls: list[Action] = []
        if rules.partner is PartnerRule.JACK_OF_DIAMONDS:
            if not self.holds(picker, JD):
                calls.append(Call(JD))
            elif rules.jd_picker_holds is JdPickerHolds.CALL_JACK_OF_HEARTS and not self.holds(
                picker, JH
            ):
                calls.append(Call(JH))
            else:
                return [ALONE]
        else:
            aces_held = [self.holds(picker, ace_of(s)) for s in FAIL_SUITS]
            for suit, held in zip(FAIL_SUITS, aces_held, strict=True):
                if not held and any(c.fail_suit is suit for c in hand):
                    calls.append(Call(ace_of(suit)))
            if not calls and all(aces_held):
                if rules.call_ten:
                    for suit in FAIL_SUITS:
                        if not self.holds(picker, ten_of(suit)) and ace_of(suit) in hand:
                            calls.append(Call(ten_of(suit)))
            elif not calls and rules.call_unknown:
                for suit, held in zip(FAIL_SUITS, aces_held, strict=True):
                    if not held and not any(c.fail_suit is suit for c in hand):
                        calls.extend(Call(ace_of(suit), card) for card in hand)
        if rules.alone or not calls:
            calls.append(ALONE)
        return calls

    def legal_cards(self) -> tuple[Card, ...]:
        """The cards the seat to act may play now (in hand order)."""
        if self.phase is not Phase.PLAYING:
            return ()
        seat = self.turn
        assert seat is not None
        mask = self._legal_mask(seat)
        return tuple([c for c in self.hands[seat] if c.bit & mask])

    def _legal_mask(self, seat: int) -> int:
        self.legal_actions()  # makes the kernel's masks
        return _kernel_legal(self.__dict__, seat)

    # Reasons ------------------------------------------------------------

    def refusal(self, move: Move) -> Refusal | None:
        """Why the seat may not take the action now, or None if it may (see ``refusals.py``)."""
        return refusals.refusal(self, move)

    def why_illegal(self, move: Move) -> str | None:
        """The refusal's sentence, or None if the seat may take the action."""
        found = refusals.refusal(self, move)
        return None if found is None else str(found)

    # Applying actions ---------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> Game:
        """The state after the seat to act takes ``action``. Raises IllegalAction.

        ``seat``, when given, must be the seat to act (records name every action's seat).
        """
        d = self.__dict__
        turn = d["turn"]
        if seat is None:
            seat = turn
        legal = d["_legal"] or self.legal_actions()
        if type(action) is Play and d["phase"] is Phase.PLAYING:
            # A card is legal when the kernel's legal mask holds it (``legal`` is made of
            # that mask): the check of ``in`` without comparing actions one by one.
            allowed = seat == turn and action.card.bit & d["_lmask"] != 0
        else:
            allowed = seat is not None and seat == turn and action in legal
        if not allowed or seat is None:
            move = Move(-1 if seat is None else seat, action)
            raise IllegalAction(self.refusal(move) or _not_now(move))
        if type(action) is Play:  # the common case, first
            return self._play(seat, action)
        match action:
            case Pick():
                new = self._pick(seat)
            case Pass():
                new = self._pass(seat)
            case Bury(cards):
                new = self._bury(seat, cards)
            case Call() | Alone():
                new = self._call(seat, action)
            case Crack() | NoCrack():
                new = self._crack(seat, isinstance(action, Crack))
            case Name(trick):
                new = self._evolve(named_trick=trick, phase=Phase.PLAYING, turn=self._first_leader)
            case _:  # pragma: no cover
                raise IllegalAction(_not_now(Move(seat, action)))
        d = new.__dict__
        d["_log"] = (self.__dict__["_log"], seat, action)
        d["_moves"] = None
        return new

    def apply_move(self, move: Move) -> Game:
        return self.apply(move.action, move.seat)

    @property
    def _first_leader(self) -> int:
        return (self.dealer + 1) % self.players

    def _pick(self, seat: int) -> Game:
        hands = list(self.hands)
        hands[seat] = tuple(sorted(hands[seat] + self.blind, key=_TEXT))
        return self._evolve(
            picker=seat,
            **self._holding(hands),
            phase=Phase.BURYING,
            turn=seat,
        )

    @staticmethod
    def _holding(hands: list[tuple[Card, ...]]) -> dict[str, Any]:
        """The state's entries for each seat's cards (text order)."""
        return {"_plays": None, "_hands": tuple(hands), "_masks": None}

    def _pass(self, seat: int) -> Game:
        if seat != self.dealer:
            return self._evolve(turn=(seat + 1) % self.players)
        if self.rules.nobody_picks is NobodyPicks.DOUBLER:
            return self._evolve(phase=Phase.DONE, turn=None)
        if self.rules.leaster_blind is LeasterBlind.NAMED_TRICK:
            return self._evolve(phase=Phase.NAMING, turn=self.dealer)
        return self._evolve(phase=Phase.PLAYING, turn=self._first_leader)

    def _bury(self, seat: int, cards: tuple[Card, ...]) -> Game:
        hands = list(self.hands)
        hands[seat] = tuple(c for c in hands[seat] if c not in cards)
        state = self._evolve(bury=cards, **self._holding(hands))
        if self.rules.partner is PartnerRule.NONE:
            return state._after_call(alone=True)
        return state._evolve(phase=Phase.CALLING)

    def _call(self, seat: int, action: Action) -> Game:
        if isinstance(action, Alone):
            return self._after_call(alone=True)
        assert isinstance(action, Call)
        card = action.card
        holder = self.holder_of(card)
        assert holder is not None
        assert holder != seat
        partners = {holder}
        if self.rules.second_partner:
            partners.add((seat - 1) % self.players)
        unknown = action.unknown
        return self._evolve(
            called=card,
            unknown=unknown,
            called_suit=card.fail_suit,
            partners=frozenset(partners),
            _called=card.bit,
            _cs=kernel.duty_suit(card),
            _unk=0 if unknown is None else unknown.bit,
            _ten=card.rank is Rank.TEN,
        )._after_call(alone=False)

    def _after_call(self, alone: bool) -> Game:
        assert self.picker is not None
        if self.rules.cracking and self.picker != self.dealer:
            phase, turn = Phase.CRACKING, (self.picker + 1) % self.players
        else:
            phase, turn = Phase.PLAYING, self._first_leader
        return self._evolve(alone=alone, phase=phase, turn=turn)

    def _crack(self, seat: int, crack: bool) -> Game:
        cracks = (*self.cracks, seat) if crack else self.cracks
        if seat == self.dealer:
            return self._evolve(cracks=cracks, phase=Phase.PLAYING, turn=self._first_leader)
        return self._evolve(cracks=cracks, turn=(seat + 1) % self.players)

    def _play(self, seat: int, action: Play) -> Game:
        # The hot path of every simulation: build the next state's dict directly.
        state = self.__dict__.copy()
        n = state["players"]
        card = action.card
        plays = list(state["_plays"])
        held = plays[seat]
        # Its place in the text-ordered hand: how many of the seat's cards sort before it.
        at = (state["_masks"][seat] & _TEXT_BEFORE[card.index]).bit_count()
        plays[seat] = held[:at] + held[at + 1 :]
        masks = list(state["_masks"])
        masks[seat] &= ~card.bit
        cards = (*state["trick_cards"], card)
        tricks = state["tricks"]
        if len(cards) == 1:
            led = state["_led"] = kernel.suit_of(card.bit, state["_unk"], state["_cs"])
            if led == state["_cs"] and state["_called_led"] < 0:
                state["_called_led"] = state["called_led_at"] = len(tricks)
        state["_plays"] = tuple(plays)
        state["_hands"] = None
        state["_masks"] = tuple(masks)
        state["_legal"] = None
        state["_log"] = (state["_log"], seat, action)
        state["_moves"] = None
        if len(cards) < n:
            state["trick_cards"] = cards
            state["turn"] = (seat + 1) % n
        else:
            leader = state["trick_leader"]
            won = kernel.trick_winner([c.bit for c in cards], state["_unk"], state["_cs"])
            winner = (leader + won) % n
            tricks = state["tricks"] = (*tricks, Trick(leader, cards, winner))
            state["trick_cards"] = ()
            state["trick_leader"] = winner
            state["_led"] = -1
            if len(tricks) == self.rules.tricks:
                state["phase"], state["turn"] = Phase.DONE, None
            else:
                state["turn"] = winner
        new = object.__new__(Game)
        object.__setattr__(new, "__dict__", state)
        return new

    # Scoring ------------------------------------------------------------

    def result(self) -> HandResult | None:
        """The hand's score once it is done, else None (``scoring.hand_result``)."""
        return hand_result(self)

    def leaster_blind_seat(self) -> int | None:
        """Who takes the blind in a finished leaster, by the table's rule."""
        return leaster_blind_seat(self)

    # Views --------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """What one seat may know: see ``view.SeatView``."""
        return seat_view(self, seat)

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.players}-handed dealer={self.dealer} phase={self.phase.value} "
            f"turn={self.turn} moves={len(self.moves)}>"
        )


def _kernel_legal(d: dict[str, Any], seat: int) -> int:
    """The seat's legal cards as a mask, from the kernel's masks a Game keeps in its
    ``__dict__`` (made by ``legal_actions``)."""
    return kernel.legal(
        d["_masks"][seat],
        d["_led"],
        seat == d["picker"],
        d["_called"],
        d["_cs"],
        d["_unk"],
        d["_ten"],
        d["_called_led"],
        len(d["tricks"]),
    )
