"""One hand of Sheepshead, from the deal to the score, as an immutable state.

``Game.deal(rules, dealer, seed)`` deals; ``legal_actions()`` lists what the seat
to act may do (sorted by text); ``apply(action)`` returns the next state or raises
``IllegalAction`` with the reason; ``view(seat)`` is what one seat may know;
``result()`` scores a finished hand. A hand is its deal plus its moves, so any
state can be rebuilt by replaying them (see ``record.py``).

A state keeps the cards in the rules kernel's terms (``kernel.py``): every seat's
cards as one int, 32 bits a seat (``card_masks``), the suit led, the call's duties; the
cards of a seat (``hands``) and the moves are made from them only when read. Two kinds
of state share the ``Game`` API: before the play (pick, bury, call, crack, name: the
fields ``auction.py`` changes) a state keeps its fields in a dict, copied at each
action; in the play, a state holds only what a card changes (a few ints and tuples,
in slots) and reads the hand's fixed facts from the state in which the play started.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter

from sheepshead import auction, cardsets, kernel, refusals
from sheepshead.actions import PLAYS, Action, Move, Play, moves_of
from sheepshead.cards import Card, Suit
from sheepshead.cardsets import cards_of, hands_of, plays_of
from sheepshead.deal import check_dealer, checked_deal, deal_cards
from sheepshead.hand import HandResult as HandResult  # re-exported: bots/frozen/ import
from sheepshead.hand import Phase as Phase  # these from game, as the play they froze did
from sheepshead.hand import Trick as Trick
from sheepshead.refusals import IllegalAction, Refusal
from sheepshead.rules import NobodyPicks, Rules
from sheepshead.scoring import hand_result, leaster_blind_seat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn

    from sheepshead.view import SeatView


_BIT = attrgetter("bit")
_FULL = kernel.FULL
_PICKING = Phase.PICKING
_PLAYING = Phase.PLAYING
_DONE = Phase.DONE
_LEASTER = NobodyPicks.LEASTER
_new = object.__new__
_legal_mask = kernel.legal
#: The legal actions of a hand of one card, by the card's bit length (0: no card).
_ONE_PLAY: tuple[tuple[Play, ...], ...] = ((), *((PLAYS[c],) for c in kernel.CARD_AT))
_suit_of = kernel.suit_of
# ``cardsets.plays_of``'s tables, read in the play of a card without the call.
_T0, _T1, _T2, _T3 = cardsets.TO_TEXT
_P0, _P1, _P2, _P3 = cardsets.TEXT_PLAYS
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

    A state is an ``_Auction`` before the play and a ``_Play`` in it (``_Done`` once
    over); this class holds what both share.
    """

    __slots__ = ()

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
    #: Every seat's cards now as one int: seat ``s``'s mask is bits ``32 s`` to ``32 s + 31``.
    card_masks: int

    # Construction -------------------------------------------------------

    @classmethod
    def deal(cls, rules: Rules, dealer: int, seed: bytes, multiplier: int = 1) -> Game:
        """Deal a hand from a seed (``deal.py`` documents the shuffle)."""
        check_dealer(rules.players, dealer, multiplier)
        hands, blind = deal_cards(seed, rules.players, rules.cards_per_seat)
        # A seeded deal is a full deck by construction: no need to check it card by card.
        return _start(rules, dealer, hands, blind, multiplier)

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
        check_dealer(rules.players, dealer, multiplier)
        hand_tuples, blind_tuple = checked_deal(rules, hands, blind)
        return _start(rules, dealer, hand_tuples, blind_tuple, multiplier)

    # Facts --------------------------------------------------------------

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards now, in text order."""
        raise NotImplementedError

    def mask_of_seat(self, seat: int) -> int:
        """The seat's cards now, as a kernel mask."""
        mask: int = self.card_masks >> (seat << 5) & _FULL
        return mask

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move so far, in order."""
        raise NotImplementedError

    @property
    def is_leaster(self) -> bool:
        """Everyone passed and the table plays a leaster."""
        return (
            self.picker is None
            and self.phase is not _PICKING
            and self.rules.nobody_picks is _LEASTER
        )

    @property
    def is_doubler(self) -> bool:
        return self.picker is None and self.phase is _DONE and not self.tricks

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
        raise NotImplementedError

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def legal_cards(self) -> tuple[Card, ...]:
        """The cards the seat to act may play now (in hand order)."""
        return ()

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
        raise NotImplementedError

    def _refuse(self, action: Action, seat: int | None) -> NoReturn:
        if seat is None:
            seat = self.turn
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


class _Auction(Game):
    """A state before the play (and a doubler's end): its fields in its dict, which
    ``apply`` copies, changing what ``auction.apply`` gives."""

    # The moves as a chain of (earlier chain, seat, action), None at the deal: ``moves``
    # is built from it when read. (A chain of small tuples, not of the earlier states:
    # those would all stay alive to the end of the hand, for the garbage collector to
    # walk again and again.)
    _log: tuple[Any, int, Action] | None
    #: The legal actions, once made.
    _legal: tuple[Action, ...] | None
    #: ``hands`` once read, with the ``card_masks`` it was read from (a state copies its
    #: parent's fields, so a copy checks that they still match): None before.
    _hands: tuple[int, tuple[tuple[Card, ...], ...]] | None
    #: ``moves`` once read, with the ``_log`` it was read from (checked as ``_hands``).
    _moves: tuple[Any, tuple[Move, ...]] | None
    #: The tricks of a hand (``rules.tricks``).
    _ntricks: int
    # The call's duties in the kernel's terms (see ``kernel.py``).
    _called: int
    _cs: int
    _unk: int
    _ten: bool

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError("a Game is immutable: apply() returns a new one")

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        d = self.__dict__
        masks = d["card_masks"]
        cached = d["_hands"]
        if cached is not None and cached[0] == masks:
            hands: tuple[tuple[Card, ...], ...] = cached[1]
            return hands
        hands = hands_of(masks, d["players"])
        d["_hands"] = (masks, hands)
        return hands

    @property
    def moves(self) -> tuple[Move, ...]:
        d = self.__dict__
        log = d["_log"]
        cached = d["_moves"]
        if cached is not None and cached[0] is log:
            moves: tuple[Move, ...] = cached[1]
            return moves
        moves = moves_of(log)
        d["_moves"] = (log, moves)
        return moves

    def legal_actions(self) -> tuple[Action, ...]:
        legal = self._legal  # an attribute read: cheaper than ``__dict__`` and a lookup
        if legal is None:
            legal = self.__dict__["_legal"] = auction.legal(self)
        return legal

    def apply(self, action: Action, seat: int | None = None) -> Game:
        d = self.__dict__
        turn = d["turn"]
        if (
            (seat is None or seat == turn)
            and turn is not None
            and auction.allows(self.legal_actions(), action)
        ):
            state = d.copy()
            state.update(auction.apply(self, turn, action))
            state["_legal"] = None
            state["_log"] = (d["_log"], turn, action)
            new = _new(_Auction)
            _set_dict(new, state)
            if state["phase"] is _PLAYING:
                return _first_play(new)
            return new
        self._refuse(action, seat)


# A new state's dict, set as ``object.__setattr__(state, "__dict__", d)`` sets it,
# without the attribute's lookup (``_Auction.__setattr__`` refuses every other write).
_set_dict = vars(_Auction)["__dict__"].__set__


def _start(
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
    state = auction.AT_DEAL.copy()
    state["rules"] = rules
    state["players"] = n
    state["dealer"] = dealer
    state["multiplier"] = multiplier
    state["dealt"] = hand_tuples
    state["blind"] = blind_tuple
    state["turn"] = state["trick_leader"] = first
    state["card_masks"] = masks
    state["_ntricks"] = rules.tricks
    game = _new(_Auction)
    _set_dict(game, state)
    return game


def _fixed(name: str) -> Any:
    """A play state's field that the play does not change: the start of the play's."""
    return property(attrgetter("_g." + name))


def _read_only(get: Callable[[Any], Any]) -> Any:
    """A read-only property (typed as the field it stands for)."""
    return property(get)


class _Play(Game):
    """A state of the play. It holds what the play of a card changes, in slots (a new
    state sets a dozen, not a dict of three dozen); the hand's fixed facts are those
    of the state in which the play started (``_g``), and ``_k`` has those the play
    reads, in the kernel's terms. Immutable: its public fields are read-only
    properties and it has no dict."""

    __slots__ = (
        "_called_led",
        "_cards",
        "_g",
        "_hands",
        "_k",
        "_leader",
        "_led",
        "_legal",
        "_lmask",
        "_log",
        "_masks",
        "_moves",
        "_tricks",
        "_turn",
    )
    _g: _Auction
    #: Head count, picker, the call's duties (``called``, ``cs``, ``unk``, ``ten``, as
    #: ``kernel.legal`` takes them) and the hand's tricks.
    _k: tuple[int, int | None, int, int, int, bool, int]
    _masks: int
    _turn: int | None
    _tricks: tuple[Trick, ...]
    _leader: int
    _cards: tuple[Card, ...]
    #: The suit key led, -1 before a lead; the trick in which the called suit was
    #: first led, -1 before (``kernel.legal``'s ``led`` and ``called_led``).
    _led: int
    _called_led: int
    _log: tuple[Any, int, Action]
    #: The legal cards' mask of the seat to act, and their actions in text order.
    _lmask: int
    _legal: tuple[Action, ...]
    # ``hands`` and ``moves`` once read (unset before).
    _hands: tuple[tuple[Card, ...], ...]
    _moves: tuple[Move, ...]

    phase = _PLAYING
    is_done = False
    rules = _fixed("rules")
    players = _fixed("players")
    dealer = _fixed("dealer")
    multiplier = _fixed("multiplier")
    dealt = _fixed("dealt")
    blind = _fixed("blind")
    picker = _fixed("picker")
    bury = _fixed("bury")
    called = _fixed("called")
    unknown = _fixed("unknown")
    alone = _fixed("alone")
    partners = _fixed("partners")
    cracks = _fixed("cracks")
    named_trick = _fixed("named_trick")
    called_suit = _fixed("called_suit")
    card_masks = _read_only(attrgetter("_masks"))
    turn = _read_only(attrgetter("_turn"))
    tricks = _read_only(attrgetter("_tricks"))
    trick_leader = _read_only(attrgetter("_leader"))
    trick_cards = _read_only(attrgetter("_cards"))
    called_led_at = _read_only(lambda s: None if s._called_led < 0 else s._called_led)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        try:
            return self._hands
        except AttributeError:
            hands = self._hands = hands_of(self._masks, self._k[0])
            return hands

    def mask_of_seat(self, seat: int) -> int:
        mask: int = self._masks >> (seat << 5) & _FULL
        return mask

    @property
    def moves(self) -> tuple[Move, ...]:
        try:
            return self._moves
        except AttributeError:
            moves = self._moves = moves_of(self._log)
            return moves

    def legal_actions(self) -> tuple[Action, ...]:
        return self._legal

    def legal_cards(self) -> tuple[Card, ...]:
        return cards_of(self._lmask)

    def apply(self, action: Action, seat: int | None = None) -> Game:
        # The hot path of every hand, written in one function (a call costs about as
        # much as a kernel lookup). A card is legal when the kernel's legal mask, made
        # with the state, holds it; the new state makes the next seat's legal mask and
        # actions (``apply`` and ``legal_actions`` read them, so they are always wanted).
        turn: int = self._turn  # type: ignore[assignment]
        if type(action) is not Play or not (seat is None or seat == turn):
            self._refuse(action, seat)
        card = action.card
        bit = card.bit
        if not bit & self._lmask:
            self._refuse(action, seat)
        k = self._k
        n, picker, called, cs, unk, ten, _ = k
        masks = self._masks ^ bit << (turn << 5)
        cards = self._cards
        tricks = self._tricks
        called_led = self._called_led
        if not cards:
            led = _suit_of(bit, unk, cs)
            if led == cs and called_led < 0:
                called_led = len(tricks)
            cards = (card,)
        elif len(cards) + 1 < n:
            led = self._led
            cards += (card,)
        else:
            return _take_trick(self, masks, (*cards, card), (self._log, turn, action))
        new = _new(_Play)
        new._g = self._g
        new._k = k
        new._masks = masks
        new._turn = after = turn + 1 if turn + 1 < n else 0
        new._tricks = tricks
        new._leader = self._leader
        new._cards = cards
        new._led = led
        new._called_led = called_led
        new._log = (self._log, turn, action)
        hand = masks >> (after << 5) & _FULL
        if hand & (hand - 1):
            lmask = new._lmask = _legal_mask(
                hand, led, after == picker, called, cs, unk, ten, called_led, len(tricks)
            )
            # ``cardsets.plays_of``, written out: its text-order masks, then the plays.
            t = _T0[lmask & 255] | _T1[lmask >> 8 & 255] | _T2[lmask >> 16 & 255] | _T3[lmask >> 24]
            new._legal = _P0[t & 255] + _P1[t >> 8 & 255] + _P2[t >> 16 & 255] + _P3[t >> 24]
        else:
            # The seat's last card, legal by the kernel's first rule (``kernel.legal``
            # answers a hand of one card with that card): its play alone, by its bit.
            new._lmask = hand
            new._legal = _ONE_PLAY[hand.bit_length()]
        return new


class _Done(_Play):
    """The state after the last card: no seat to act, nothing legal."""

    __slots__ = ()
    phase = _DONE
    is_done = True


def _first_play(start: _Auction) -> _Play:
    """The state in which the play starts, from the auction's last state."""
    d = start.__dict__
    k = (d["players"], d["picker"], d["_called"], d["_cs"], d["_unk"], d["_ten"], d["_ntricks"])
    return _state(
        _Play, start, k, d["card_masks"], d["turn"], (), d["trick_leader"], (), -1, -1, d["_log"]
    )


def _state(
    cls: type[_Play],
    g: _Auction,
    k: tuple[int, int | None, int, int, int, bool, int],
    masks: int,
    turn: int,
    tricks: tuple[Trick, ...],
    leader: int,
    cards: tuple[Card, ...],
    led: int,
    called_led: int,
    log: Any,
) -> _Play:
    """A new play state, with its seat's legal cards (``_Play.apply`` writes it out)."""
    new = _new(cls)
    new._g = g
    new._k = k
    new._masks = masks
    new._turn = turn
    new._tricks = tricks
    new._leader = leader
    new._cards = cards
    new._led = led
    new._called_led = called_led
    new._log = log
    _, picker, called, cs, unk, ten, _ = k
    hand = masks >> (turn << 5) & _FULL
    lmask = new._lmask = _legal_mask(
        hand, led, turn == picker, called, cs, unk, ten, called_led, len(tricks)
    )
    new._legal = plays_of(lmask)
    return new


def _take_trick(s: _Play, masks: int, cards: tuple[Card, ...], log: Any) -> Game:
    """The state after the trick's last card: its winner leads next, or the hand is over."""
    k = s._k
    n = k[0]
    leader = s._leader
    winner: int = (leader + _winner(list(map(_BIT, cards)), k[4], k[3])) % n
    trick = _new(Trick)
    _set_leader(trick, leader)
    _set_cards(trick, cards)
    _set_winner(trick, winner)
    tricks = (*s._tricks, trick)
    if len(tricks) < k[6]:
        return _state(_Play, s._g, k, masks, winner, tricks, winner, (), -1, s._called_led, log)
    done = _new(_Done)
    done._g = s._g
    done._k = k
    done._masks = masks
    done._turn = None
    done._tricks = tricks
    done._leader = winner
    done._cards = ()
    done._led = -1
    done._called_led = s._called_led
    done._log = log
    done._lmask = 0
    done._legal = ()
    return done
