"""One hand of Sheepshead, from the deal to the score, as an immutable state.

``Game.deal(rules, dealer, seed)`` deals; ``legal_actions()`` lists what the seat
to act may do (sorted by text); ``apply(action)`` returns the next state or raises
``IllegalAction`` with the reason; ``view(seat)`` is what one seat may know;
``result()`` scores a finished hand. A hand is its deal plus its moves, so any
state can be rebuilt by replaying them (see ``record.py``).

A state keeps the cards in the rules kernel's terms (``kernel.py``): every seat's
cards as one int, 32 bits a seat (``card_masks``), the suit led, the call's duties. The play
of a card changes a few of those ints; the cards of a seat (``hands``) and the moves
are made from them only when read. The phases before the play (pick, bury, call,
crack, name) are ``auction.py``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter

from sheepshead import auction, kernel, refusals
from sheepshead.actions import PLAYS, Action, Move, Play
from sheepshead.cards import DECK, Card, Suit
from sheepshead.cardsets import cards_of, plays_of
from sheepshead.deal import deal_cards
from sheepshead.hand import HandResult as HandResult  # re-exported: bots/frozen/ import
from sheepshead.hand import Phase as Phase  # these from game, as the play they froze did
from sheepshead.hand import Trick as Trick
from sheepshead.refusals import IllegalAction, Refusal
from sheepshead.rules import NobodyPicks, Rules
from sheepshead.scoring import hand_result, leaster_blind_seat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from sheepshead.view import SeatView


_BIT = attrgetter("bit")
_FULL = kernel.FULL
_PLAYING = Phase.PLAYING
_DONE = Phase.DONE
_new = object.__new__
_legal_mask = kernel.legal
#: The legal actions of a hand of one card, by the card's bit length (0: no card).
_ONE_PLAY: tuple[tuple[Play, ...], ...] = ((), *((PLAYS[c],) for c in kernel.CARD_AT))
_suit_of = kernel.suit_of
_winner = kernel.trick_winner
# A Trick's slots, set as its frozen __init__ sets them, without the call.
_set_leader = Trick.__dict__["leader"].__set__
_set_cards = Trick.__dict__["cards"].__set__
_set_winner = Trick.__dict__["winner"].__set__


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
    #: Whether the hand is over (``phase`` is done).
    is_done: bool
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
    #: The legal actions, once made (in play, ``_play`` makes them with the state).
    _legal: tuple[Action, ...] | None
    #: In play, the legal cards' mask (made with ``_legal``); -1 before it is made.
    _lmask: int
    #: In play, the hand's facts that the play of a card reads, in one tuple (one
    #: lookup, not seven): head count, picker, and the call's duties in the kernel's
    #: terms (``_called``, ``_cs``, ``_unk``, ``_ten``). None before it is made.
    _k: tuple[int, int | None, int, int, int, bool] | None
    #: Every seat's cards now as one int: seat ``s``'s mask is bits ``32 s`` to ``32 s + 31``.
    card_masks: int
    #: ``hands`` once read, with the ``card_masks`` it was read from (a state copies its
    #: parent's fields, so a copy checks that they still match): None before.
    _hands: tuple[int, tuple[tuple[Card, ...], ...]] | None
    # The moves as a chain of (earlier chain, seat, action), None at the deal: ``moves``
    # is built from it when read. (A chain of small tuples, not of the earlier states:
    # those would all stay alive to the end of the hand, for the garbage collector to
    # walk again and again.)
    _log: tuple[Any, int, Action] | None
    #: ``moves`` once read, with the ``_log`` it was read from (checked as ``_hands``).
    _moves: tuple[Any, tuple[Move, ...]] | None
    #: The tricks of a hand (``rules.tricks``).
    _ntricks: int
    # The call's duties in the kernel's terms, and the suit key led (-1 before a lead).
    _led: int
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
        masks = 0
        for seat, cards in enumerate(hand_tuples):
            # The bits are distinct, so their sum is their union.
            masks |= sum(map(_BIT, cards)) << (seat << 5)
        first = (dealer + 1) % n
        state = _DEALT.copy()
        state["rules"] = rules
        state["players"] = n
        state["dealer"] = dealer
        state["multiplier"] = multiplier
        state["dealt"] = hand_tuples
        state["blind"] = blind_tuple
        state["turn"] = state["trick_leader"] = first
        state["card_masks"] = masks
        state["_ntricks"] = rules.tricks
        game = _new(cls)
        _set_dict(game, state)
        return game

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError("a Game is immutable: apply() returns a new one")

    # Facts --------------------------------------------------------------

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards now, in text order."""
        d = self.__dict__
        masks = d["card_masks"]
        cached = d["_hands"]
        if cached is not None and cached[0] == masks:
            hands: tuple[tuple[Card, ...], ...] = cached[1]
            return hands
        hands = tuple([cards_of(masks >> (s << 5) & _FULL) for s in range(d["players"])])
        d["_hands"] = (masks, hands)
        return hands

    def mask_of_seat(self, seat: int) -> int:
        """The seat's cards now, as a kernel mask."""
        mask: int = self.__dict__["card_masks"] >> (seat << 5) & _FULL
        return mask

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move so far, in order."""
        d = self.__dict__
        log = d["_log"]
        cached = d["_moves"]
        if cached is not None and cached[0] is log:
            moves: tuple[Move, ...] = cached[1]
            return moves
        steps: list[Move] = []
        chain = log
        while chain is not None:
            chain, seat, action = chain
            steps.append(Move(seat, action))
        steps.reverse()
        moves = tuple(steps)
        d["_moves"] = (log, moves)
        return moves

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
        return bool(self.mask_of_seat(seat) & card.bit) or (
            seat == self.picker and card in self.bury
        )

    def holder_of(self, card: Card) -> int | None:
        for seat in range(self.players):
            if self.mask_of_seat(seat) & card.bit:
                return seat
        return None

    # Legal actions ------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act, sorted by text; () when done."""
        legal = self._legal  # an attribute read: cheaper than ``__dict__`` and a lookup
        if legal is not None:
            return legal
        d = self.__dict__
        if d["phase"] is _PLAYING:
            # The kernel's legal mask, read back in text order.
            mask = d["_lmask"]
            legal = d["_legal"] = plays_of(_seat_legal(d) if mask < 0 else mask)
            return legal
        legal = d["_legal"] = auction.legal(self)
        return legal

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def legal_cards(self) -> tuple[Card, ...]:
        """The cards the seat to act may play now (in hand order)."""
        if self.phase is not Phase.PLAYING:
            return ()
        d = self.__dict__
        mask = d["_lmask"]
        return cards_of(_seat_legal(d) if mask < 0 else mask)

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
        if type(action) is Play and d["phase"] is _PLAYING and (seat is None or seat == turn):
            # A card is legal when the kernel's legal mask holds it.
            mask = d["_lmask"]
            if mask < 0:
                mask = _seat_legal(d)
            if action.card.bit & mask:
                return _play(d, turn, action)
        elif (
            (seat is None or seat == turn)
            and turn is not None
            and auction.allows(self.legal_actions(), action)
        ):
            state = d.copy()
            state.update(auction.apply(self, turn, action))
            state["_legal"] = None
            state["_lmask"] = -1
            state["_log"] = (d["_log"], turn, action)
            new = _new(Game)
            _set_dict(new, state)
            return new
        if seat is None:
            seat = turn
        move = Move(-1 if seat is None else seat, action)
        raise IllegalAction(self.refusal(move) or _not_now(move))

    def apply_move(self, move: Move) -> Game:
        return self.apply(move.action, move.seat)

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
        from sheepshead.view import seat_view  # not at start: ``check`` sees no view

        return seat_view(self, seat)

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.players}-handed dealer={self.dealer} phase={self.phase.value} "
            f"turn={self.turn} moves={len(self.moves)}>"
        )


# A new state's dict, set as ``object.__setattr__(state, "__dict__", d)`` sets it,
# without the attribute's lookup (``Game.__setattr__`` refuses every other write).
_set_dict = vars(Game)["__dict__"].__set__

#: A state's fields at the deal, but those of the deal itself (``Game._start`` fills them).
_DEALT: dict[str, Any] = {
    "rules": None,
    "players": 0,
    "dealer": 0,
    "multiplier": 1,
    "dealt": (),
    "blind": (),
    "phase": Phase.PICKING,
    "turn": 0,
    "is_done": False,
    "picker": None,
    "bury": (),
    "called": None,
    "unknown": None,
    "alone": False,
    "partners": frozenset(),
    "cracks": (),
    "named_trick": None,
    "tricks": (),
    "trick_leader": 0,
    "trick_cards": (),
    "called_suit": None,
    "called_led_at": None,
    "_legal": None,
    "_lmask": -1,
    "_k": None,
    "card_masks": 0,
    "_hands": None,
    "_log": None,
    "_moves": None,
    "_ntricks": 0,
    "_led": -1,
    "_called": 0,
    "_cs": kernel.NO_SUIT,
    "_unk": 0,
    "_ten": False,
    "_called_led": -1,
}


def _facts(d: dict[str, Any]) -> tuple[int, int | None, int, int, int, bool]:
    """The state's ``_k``: the hand's facts the play reads (fixed once the play starts)."""
    k = d["_k"]
    if k is None:
        k = d["_k"] = (d["players"], d["picker"], d["_called"], d["_cs"], d["_unk"], d["_ten"])
    return k  # type: ignore[no-any-return]


def _seat_legal(d: dict[str, Any]) -> int:
    """The legal cards' mask of the seat to act in play, from a state's fields; kept
    in the state (a state made by ``_play`` has it already)."""
    seat = d["turn"]
    _, picker, called, cs, unk, ten = _facts(d)
    mask: int = _legal_mask(
        d["card_masks"] >> (seat << 5) & _FULL,
        d["_led"],
        seat == picker,
        called,
        cs,
        unk,
        ten,
        d["_called_led"],
        len(d["tricks"]),
    )
    d["_lmask"] = mask
    return mask


def _play(d: dict[str, Any], seat: int, action: Play) -> Game:
    """The state after ``seat`` plays a legal card: the hot path of every hand. It makes
    the next seat's legal mask and actions too (``apply`` and ``legal_actions`` read
    them, so they are always wanted)."""
    state = d.copy()
    n, picker, called, cs, unk, ten = d["_k"]  # made when the mask was (``_seat_legal``)
    card = action.card
    bit = card.bit
    masks = state["card_masks"] = d["card_masks"] ^ bit << (seat << 5)
    state["_log"] = (d["_log"], seat, action)
    cards = d["trick_cards"]
    called_led = d["_called_led"]
    if not cards:
        led = state["_led"] = _suit_of(bit, unk, cs)
        done = len(d["tricks"])
        if led == cs and called_led < 0:
            called_led = state["_called_led"] = state["called_led_at"] = done
        state["trick_cards"] = (card,)
        turn = state["turn"] = (seat + 1) % n
    elif len(cards) + 1 < n:
        led = d["_led"]
        state["trick_cards"] = (*cards, card)
        turn = state["turn"] = (seat + 1) % n
        done = len(d["tricks"])
    else:
        turn = _take_trick(d, state, (*cards, card))
        led = -1
        done = len(state["tricks"])
    if turn >= 0:
        hand = masks >> (turn << 5) & _FULL
        if hand & (hand - 1):
            lmask = state["_lmask"] = _legal_mask(
                hand, led, turn == picker, called, cs, unk, ten, called_led, done
            )
            state["_legal"] = plays_of(lmask)
        else:
            # The seat's last card, legal by the kernel's first rule (``kernel.legal``
            # answers a hand of one card with that card): its play alone, by its bit.
            state["_lmask"] = hand
            state["_legal"] = _ONE_PLAY[hand.bit_length()]
    new = _new(Game)
    _set_dict(new, state)
    return new


def _take_trick(d: dict[str, Any], state: dict[str, Any], cards: tuple[Card, ...]) -> int:
    """Complete the trick in ``state``: its winner leads next (returned), or the hand is
    over (-1 returned)."""
    n = d["players"]
    leader = d["trick_leader"]
    winner: int = (leader + _winner(list(map(_BIT, cards)), d["_unk"], d["_cs"])) % n
    trick = _new(Trick)
    _set_leader(trick, leader)
    _set_cards(trick, cards)
    _set_winner(trick, winner)
    tricks = state["tricks"] = (*d["tricks"], trick)
    state["trick_cards"] = ()
    state["trick_leader"] = winner
    state["_led"] = -1
    if len(tricks) == d["_ntricks"]:
        state["phase"] = _DONE
        state["turn"] = None
        state["is_done"] = True
        state["_lmask"] = 0
        state["_legal"] = ()
        return -1
    state["turn"] = winner
    return winner
