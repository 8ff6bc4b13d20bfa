"""The rules kernel: the rules of play and scoring, once, as pure functions over card masks.

``Game`` (the engine, over ``Card`` objects and records) and the bots' simulator
(``bots/sim.py``, tens of thousands of cards per decision) both play by these
functions; ``refusals.py`` words their refusals. Nothing else states a rule of play.

A set of cards is one int (``Card.bit`` is each card's bit). The fail suits take bits
0-5 (clubs), 6-11 (spades) and 12-17 (hearts), each 7 8 9 K T A from low to high; the
trumps take bits 18-31, 7D up to QC. So within a suit a higher bit is a stronger card,
any trump outranks any fail card, and a trick goes to its highest eligible bit.

A suit is a key: 0 clubs, 1 spades, 2 hearts, 3 trump (all trumps follow as one suit).
A call's duties are described by: ``called`` (the called card's bit, 0 for none), ``cs``
(the suit key whose duties the call carries, -1 for none: no call, or a trump called
under the jack-of-diamonds rule), ``unk`` (the picker's unknown card's bit, 0 for
none), ``ten`` (a ten was called) and ``called_led`` (the trick in which the called
suit was first led, -1 before).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sheepshead.cards import DECK, FAIL_SUITS, Card, Suit
from sheepshead.rules import (
    RESULT_MULTIPLIER,
    NobodyPicks,
    Result,
    Rules,
    picker_result,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any, Final

#: Suit keys: 0 clubs, 1 spades, 2 hearts (fail), 3 trump.
TRUMP: Final = 3
NO_SUIT: Final = -1
FULL: Final = (1 << 32) - 1

#: The card at each bit position.
CARD_AT: Final[tuple[Card, ...]] = tuple(sorted(DECK, key=lambda c: c.bit))
POINTS_AT: Final[tuple[int, ...]] = tuple(c.points for c in CARD_AT)
SUIT_AT: Final[tuple[int, ...]] = tuple(TRUMP if b >= 18 else b // 6 for b in range(32))
SUIT_MASK: Final[tuple[int, ...]] = (0x3F, 0x3F << 6, 0x3F << 12, FULL & ~((1 << 18) - 1))
TRUMPS: Final = SUIT_MASK[TRUMP]
FAIL: Final = FULL & ~TRUMPS
#: Cards worth 10 or 11: the aces and tens (AD and TD included).
ACES_TENS: Final = sum(1 << b for b in range(32) if POINTS_AT[b] >= 10)
#: Bits strictly above each bit.
ABOVE: Final[tuple[int, ...]] = tuple(FULL & ~((2 << b) - 1) for b in range(32))
#: The ace of each fail suit, as a bit.
ACE_BIT: Final[tuple[int, ...]] = (1 << 5, 1 << 11, 1 << 17)
#: The suit key of each fail suit, and back.
SUIT_KEY: Final[dict[Suit, int]] = {suit: key for key, suit in enumerate(FAIL_SUITS)}


def _byte_points(k: int) -> tuple[int, ...]:
    """Card points of each value of byte ``k`` of a mask: a value's points are those of
    the value without its lowest bit, plus that bit's card's."""
    table = [0] * 256
    for v in range(1, 256):
        table[v] = table[v & (v - 1)] + POINTS_AT[8 * k + (v & -v).bit_length() - 1]
    return tuple(table)


# Card points of each byte of a mask, so a trick's points take four lookups.
_BYTE_POINTS: Final[tuple[tuple[int, ...], ...]] = tuple(_byte_points(k) for k in range(4))


def bit(card: Card) -> int:
    """The one-bit mask of a card."""
    return card.bit


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for card in cards:
        m |= card.bit
    return m


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, weakest bit first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARD_AT[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def points_of(mask: int) -> int:
    bp = _BYTE_POINTS
    return bp[0][mask & 255] + bp[1][mask >> 8 & 255] + bp[2][mask >> 16 & 255] + bp[3][mask >> 24]


def high(mask: int) -> int:
    """The strongest card (bit) of a non-empty mask."""
    return 1 << (mask.bit_length() - 1)


def low(mask: int) -> int:
    """The weakest card (bit) of a non-empty mask."""
    return mask & -mask


# The unknown card ---------------------------------------------------------------


def duty_suit(called: Card | None) -> int:
    """The suit key whose duties a called card carries: a fail ace's or ten's suit;
    NO_SUIT for no call, or a trump called under the jack-of-diamonds rule."""
    if called is None or called.fail_suit is None:
        return NO_SUIT
    return SUIT_KEY[called.fail_suit]


def suit_of(card: int, unk: int, cs: int) -> int:
    """The suit key a card (a bit) follows as: the unknown card counts as the called suit."""
    return cs if card == unk else SUIT_AT[card.bit_length() - 1]


def counts_as(card: Card | None, unknown: Card | None, called: Card | None) -> Suit | None:
    """The same rule over cards, for what a seat sees: the suit a played card follows as
    (None for trump). The unknown card, face up to its picker or face down (None) to
    the others, counts as the called suit."""
    if card is None or card is unknown:
        return None if called is None else called.fail_suit
    return card.fail_suit


# Following suit, the hold card and the called card's duties ------------------------


def legal(
    hand: int,
    led: int,
    picker: bool,
    called: int,
    cs: int,
    unk: int,
    ten: bool,
    called_led: int,
    trick_no: int,
) -> int:
    """The cards of ``hand`` its seat may play, as a mask: the fast form of
    ``play_refusal`` (a card is legal exactly when that finds no refusal). ``led`` is
    the suit key led, -1 when the seat leads; ``picker`` whether the seat picked."""
    if hand & (hand - 1) == 0:
        return hand
    pending = cs >= 0 and called_led < 0
    if led < 0:
        if pending:
            if hand & called:
                return hand & ~(SUIT_MASK[cs] & ~called)
            if ten and picker:
                return hand & ~(SUIT_MASK[cs] & ~ACE_BIT[cs])
        return hand
    # The cards that follow the suit led (``_follow``, written out: the hot path).
    if unk and picker:
        follow = hand & ~unk & SUIT_MASK[led]
        if led == cs:
            follow |= hand & unk
    else:
        follow = hand & SUIT_MASK[led]
    if follow:
        if led == cs and called_led == trick_no:
            if follow & called:
                return called
            if ten and picker and follow & ACE_BIT[cs]:
                return ACE_BIT[cs]
        return follow
    if pending:
        duty = _duty(hand, picker, called, cs, unk, ten)
        return hand & ~duty
    return hand


def _follow(hand: int, led: int, picker: bool, cs: int, unk: int) -> int:
    """The cards of ``hand`` that follow the suit led (the picker's unknown card follows
    as the called suit)."""
    if unk and picker:
        follow = hand & ~unk & SUIT_MASK[led]
        if led == cs:
            follow |= hand & unk
        return follow
    return hand & SUIT_MASK[led]


def _duty(hand: int, picker: bool, called: int, cs: int, unk: int, ten: bool) -> int:
    """The card (a bit, 0 for none) a seat must keep until the called suit is first led:
    the called card; the picker's unknown card; the ten caller's ace; a picker's only
    card of the called suit (the hold card)."""
    if hand & called:
        return called
    if not picker:
        return 0
    if unk:
        return unk
    if ten:
        return ACE_BIT[cs]
    holding = hand & SUIT_MASK[cs]
    return holding if holding & (holding - 1) == 0 else 0


def play_refusal(
    hand: int,
    card: int,
    led: int,
    picker: bool,
    called: int,
    cs: int,
    unk: int,
    ten: bool,
    called_led: int,
    trick_no: int,
) -> tuple[str, dict[str, Any]] | None:
    """Why the seat may not play ``card`` (a bit) from ``hand`` now, as a refusal code
    and its parameters (``refusals.py`` words them), or None if it may. The arguments
    are those of ``legal``."""
    if not hand & card:
        return ("not-held", {"card": CARD_AT[card.bit_length() - 1].text})
    if hand & (hand - 1) == 0:
        return None
    pending = cs >= 0 and called_led < 0
    if led < 0:
        if pending and card & SUIT_MASK[cs]:
            keep = called if hand & called else ACE_BIT[cs] if ten and picker else 0
            if keep and card != keep:
                return ("lead-only-with", {"suit": _suit_param(cs), "card": _text(keep)})
        return None
    follow = _follow(hand, led, picker, cs, unk)
    if follow:
        if not card & follow:
            return ("must-follow", {"suit": _suit_param(led)})
        if led == cs and called_led == trick_no:
            need = called if follow & called else ACE_BIT[cs] if ten and picker else 0
            if need & follow and card != need:
                return ("must-play-on-first-trick", {"suit": _suit_param(cs), "card": _text(need)})
        return None
    if not pending:
        return None
    duty = _duty(hand, picker, called, cs, unk, ten)
    if card != duty:
        return None
    if duty == unk:
        return ("keep-unknown", {"suit": _suit_param(cs)})
    if duty == called or ten:
        return ("keep-card", {"suit": _suit_param(cs), "card": _text(duty)})
    return ("keep-suit", {"suit": _suit_param(cs)})


def _text(card: int) -> str:
    return CARD_AT[card.bit_length() - 1].text


def _suit_param(key: int) -> str:
    """A suit key as a refusal parameter: its letter, or "trump"."""
    return "trump" if key == TRUMP else FAIL_SUITS[key].value


# Tricks -------------------------------------------------------------------------


def takes(pos: int, card: int, led: int, best: int, unk: int) -> bool:
    """Whether the card at bit position ``pos`` (its bit ``card``) takes the trick from
    the card at position ``best`` (-1: nothing eligible yet), ``led`` being the suit
    led. The highest trump wins, else the highest card of the suit led; the unknown
    card never wins."""
    return card != unk and pos > best and (pos >= 18 or SUIT_AT[pos] == led)


def trick_winner(trick: Sequence[int], unk: int, cs: int) -> int:
    """The index in ``trick`` (its cards as bits, in the order played) of the card that
    takes it: its highest eligible bit (``takes``: a trump, or a card of the suit led;
    never the unknown card). When the unknown card led and nothing followed it, the
    next card wins."""
    led = suit_of(trick[0], unk, cs)
    # The bits are distinct, so their sum is their union.
    eligible = sum(trick) & (TRUMPS | SUIT_MASK[led]) & ~unk
    if not eligible:
        return 1
    return trick.index(1 << (eligible.bit_length() - 1))


# Multipliers and scoring -------------------------------------------------------------


# Enum members as plain names: a member read from its class costs a class lookup.
_FORCED_PICK: Final = NobodyPicks.FORCED_PICK
#: The winning results (``Result.is_win``, without the property's call).
_WINS: Final = frozenset(r for r in Result if r.is_win)
#: ``picker_score``'s result, whether it wins and its base multiplier, by the picker's
#: side's points and tricks and the hand's tricks (``points << 8 | won << 4 | tricks``:
#: a hand has at most ten tricks, three-handed, so each count fits its four bits).
_RESULTS: Final[dict[int, tuple[Result, bool, int]]] = {}


def hand_multiplier(multiplier: int, cracks: int) -> int:
    """The hand's multiplier before the bump: the record's, doubled by each crack."""
    return multiplier << cracks


def bumps(rules: Rules, dealer_picked: bool) -> bool:
    """Whether a loss doubles (double on the bump): not for a forced pick (the dealer
    picking after everyone passed, under that rule) when the rules spare it."""
    forced = dealer_picked and rules.nobody_picks is _FORCED_PICK
    return rules.double_on_the_bump and not (forced and not rules.forced_pick_bump)


def picker_score(
    players: int,
    picker: int,
    side: int,
    points: int,
    tricks_won: int,
    tricks: int,
    multiplier: int,
    bump: bool,
) -> tuple[Result, tuple[int, ...], int]:
    """The result, each seat's game points and the whole multiplier of a picked hand.
    ``side`` is the picker's side as a mask over seats; ``points`` and ``tricks_won``
    its card points (the bury included) and tricks; ``multiplier`` counts the cracks."""
    # Search scores every playout: the result's lookups (an enum member's hash runs as
    # Python) once per points and tricks, not once per hand.
    key = points << 8 | tricks_won << 4 | tricks
    known = _RESULTS.get(key)
    if known is None:
        found = picker_result(points, tricks_won, tricks)
        known = _RESULTS[key] = (found, found in _WINS, RESULT_MULTIPLIER[found])
    result, win, base = known
    if not win and bump:
        multiplier *= 2
    m = base * multiplier
    each = m if win else -m
    scores = [0] * players
    for seat in range(players):
        if seat != picker:
            scores[seat] = each if side >> seat & 1 else -each
    scores[picker] = -sum(scores)
    return result, tuple(scores), multiplier


def leaster_scores(
    points: Sequence[int], taken: Sequence[int], needs_trick: bool, multiplier: int
) -> tuple[int, ...]:
    """A leaster's game points: the fewest card points win (among seats that took a
    trick, when the rules ask it); each winner gets one share from each other seat."""
    n = len(points)
    candidates = [s for s in range(n) if taken[s] or not needs_trick]
    least = min(points[s] for s in candidates)
    winners = [s for s in candidates if points[s] == least]
    k = len(winners)
    if k == n:
        return (0,) * n
    return tuple((n - k) * multiplier if s in winners else -k * multiplier for s in range(n))
