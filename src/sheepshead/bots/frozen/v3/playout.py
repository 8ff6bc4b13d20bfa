# Frozen copy of sheepshead.bots/playout.py at version 3: never edit.
"""The one card-play policy: the standard level's play and the expert's playouts.

Search plays each sampled world to the end many times per decision, so the policy
works over ``SimHand`` bits, a few microseconds a card. The standard level (and the
beginner, with its noise) asks it over the seat's own table (``table_of``); the
expert asks it for every seat of every sampled world (``playout``). The seat acts on
what it would know at the table (its own cards, the cards played, voids shown, the
sides it can place: ``SimHand.rel``, which reads the play too), never on the other
hands of the world: no playout assumes open cards, and the standard level's card
does not depend on where ``table_of`` puts the cards it cannot see.
"""

from __future__ import annotations

from sheepshead import kernel
from sheepshead.bots.frozen.v3.sim import SimHand, shows_defender
from sheepshead.bots.frozen.v3.simview import partners_of, sim_of, table_of
from sheepshead.kernel import (
    ABOVE,
    ACE_BIT,
    CARD_AT,
    FAIL,
    POINTS_AT,
    SUIT_AT,
    SUIT_MASK,
    TRUMPS,
    high,
    low,
)

__all__ = ["choose", "partners_of", "playout", "sim_of", "table_of"]

FAIL_ACES = ACE_BIT[0] | ACE_BIT[1] | ACE_BIT[2]
_FAIL_SUITS = (0, 1, 2)
#: JC, the weakest card the picker leads from two trumps (bits: QC 31 ... 7D 18).
_JC = 27


def _power(b: int) -> int:
    return b + 83 if b >= 18 else b % 6 + 1


# The standard bot breaks ties by the order of ``view.legal``, the cards' text: so
# does every key below, in its lowest five bits (``_TIE`` for a minimum, ``_TIE_MAX``
# for a maximum, where the first in text order must weigh most).
_TEXT_ORDER = sorted(range(32), key=lambda b: CARD_AT[b].text)
_TIE: tuple[int, ...] = tuple(_TEXT_ORDER.index(b) for b in range(32))
_TIE_MAX: tuple[int, ...] = tuple(31 - t for t in _TIE)


# What a card costs to throw away (``discard_cost``), less the fail suit's length,
# which is added per hand; what it adds to a sure trick of one's own side
# (``schmear_value``); how likely it is to take a leaster trick (``_danger``).
# All scaled to integers in the order the floats of ``cardplay.py`` give.
_DISCARD: tuple[int, ...] = tuple(
    32 * ((POINTS_AT[b] + 5 + _power(b) - 101) * 100 if b >= 18 else POINTS_AT[b] * 100 + _power(b))
    + _TIE[b]
    for b in range(32)
)
_SCHMEAR: tuple[int, ...] = tuple(
    32
    * ((POINTS_AT[b] - 6 - (_power(b) - 101)) * 100 if b >= 18 else POINTS_AT[b] * 100 + _power(b))
    + _TIE_MAX[b]
    for b in range(32)
)
_DANGER: tuple[int, ...] = tuple(
    32
    * (10 * POINTS_AT[b] + 15 * (_power(b) - 100) if b >= 18 else 10 * (POINTS_AT[b] + _power(b)))
    + _TIE_MAX[b]
    for b in range(32)
)


def playout(sim: SimHand) -> None:
    """Play the hand to its end with the policy (the last trick is forced:
    ``SimHand.finish``). The hot loop of search: ``SimHand.legal`` and ``SimHand.play``
    are written out, over what stays fixed in a hand (its lists are
    edited in place); ``tests/bots/test_sim.py`` holds it to ``play`` and ``choose``."""
    last = sim.total_tricks - 1
    hands, voids, legal_of = sim.hands, sim.voids, kernel.legal
    picker, called, cs, unk, ten = sim.picker, sim.called, sim.cs, sim.unk, sim.ten_call
    n, second = sim.n, sim.second
    if sim.leaster:
        follow, leads = _leaster, [_leaster] * n
    else:
        follow = _follow
        leads = [_picker_side_lead if sim.side >> s & 1 else _defender_lead for s in range(n)]
    while sim.trick_no < last:
        seat = sim.turn
        hand = hands[seat]
        trick = sim.trick
        if hand & (hand - 1) == 0:
            card = hand
        else:
            led = sim.led if trick else -1
            mine = seat == picker
            card = legal_of(hand, led, mine, called, cs, unk, ten, sim.called_led, sim.trick_no)
            if card & (card - 1):  # ``_decide``, by seat
                card = (follow if trick else leads[seat])(sim, seat, card)
        hands[seat] = hand & ~card
        played = sim.played = sim.played | card
        pos = card.bit_length() - 1
        suit = cs if card == unk else SUIT_AT[pos]
        if trick:
            led, best = sim.led, sim.best
            if suit != led:
                voids[seat] |= SUIT_MASK[led]
        else:
            sim.leader = seat
            led = sim.led = suit
            if led == cs and sim.called_led < 0:
                sim.called_led = sim.trick_no
            best = sim.best = sim.best_seat = -1
        trick.append(card)
        sim.trick_points += POINTS_AT[pos]
        if card != unk and pos > best and (pos >= 18 or suit == led):
            if (
                best >= 0
                and not sim.revealed
                and sim.best_seat == picker
                and seat != second
                and shows_defender(best, led, played & ~unk)
            ):
                sim._shown_defender(seat)
            sim.best, sim.best_seat = pos, seat
        if card == called:
            sim.called_by = seat
            if not sim.revealed:
                sim.revealed, sim.rel = True, sim.rel_full
        if len(trick) < n:
            sim.turn = seat + 1 if seat + 1 < n else 0
        else:
            sim._end_trick(led)
    if sim.trick_no == last:
        sim.finish()


def choose(sim: SimHand) -> int:
    """The card (a bit) the seat to act plays."""
    legal = sim.legal()
    if legal & (legal - 1) == 0:
        return legal
    return _decide(sim, legal)


def _decide(sim: SimHand, legal: int) -> int:
    """``choose`` where there is a choice (``legal`` has two cards or more)."""
    me = sim.turn
    if sim.leaster:
        return _leaster(sim, me, legal)
    if not sim.trick:
        if sim.side >> me & 1:
            return _picker_side_lead(sim, me, legal)
        return _defender_lead(sim, me, legal)
    return _follow(sim, me, legal)


# Counting -----------------------------------------------------------------------


def _out(sim: SimHand, me: int) -> int:
    """The cards this seat cannot place: not its own, not played, not its own bury."""
    out = ~sim.played & ~sim.hands[me] & 0xFFFFFFFF
    return out & ~sim.bury if me == sim.picker else out


def _later_mask(sim: SimHand, me: int, out: int) -> int:
    """What the seats still to play may hold and play on this trick (``could_beat``)."""
    n = sim.n
    first = len(sim.trick) + 1
    if first >= n:
        return 0  # the last to play
    called = sim.called
    picker = sim.picker
    holder = me if sim.hands[me] & called else sim.called_by
    first_called = sim.led == sim.cs and sim.called_led == sim.trick_no
    voids = sim.voids
    mask = 0
    for i in range(first, n):
        seat = (sim.leader + i) % n
        m = out & ~voids[seat]
        if called and ((holder >= 0 and holder != seat) or seat == picker):
            m &= ~called
        if sim.ten_call and seat != picker:
            m &= ~FAIL_ACES  # a ten call shows the picker holds all three aces
        if first_called:
            if seat == picker and sim.unk:
                continue  # the picker must play the face-down card, which never wins
            if seat in (picker, holder):
                m &= ~TRUMPS  # must follow the first round of the called suit
        mask |= m
    return mask


def _is_boss(out: int, card: int) -> bool:
    b = card.bit_length() - 1
    if b >= 18:
        return not ABOVE[b] & out
    return not (ABOVE[b] & SUIT_MASK[b // 6] & out) and not out & TRUMPS


def _lowest(sim: SimHand, me: int, cards: int) -> int:
    """The cheapest card to throw away (``discard_cost``)."""
    hand = sim.hands[me]
    best, best_key = 0, 1 << 30
    while cards:
        card = cards & -cards
        b = card.bit_length() - 1
        key = _DISCARD[b] if b >= 18 else _DISCARD[b] + (hand & SUIT_MASK[b // 6]).bit_count() * 320
        if key < best_key:
            best, best_key = card, key
        cards ^= card
    return best


def _max_by(cards: int, key: tuple[int, ...]) -> int:
    best, best_key = 0, -(1 << 30)
    while cards:
        card = cards & -cards
        k = key[card.bit_length() - 1]
        if k > best_key:
            best, best_key = card, k
        cards ^= card
    return best


def _shortest_ace(sim: SimHand, me: int, aces: int) -> int:
    hand = sim.hands[me]
    best, best_len = 0, 99
    for k in (0, 2, 1):  # ties go to the first in text order: AC, AH, AS
        if aces & ACE_BIT[k]:
            length = (hand & SUIT_MASK[k]).bit_count()
            if length < best_len:
                best, best_len = ACE_BIT[k], length
    return best


#: The cards worth 10 or more (aces and tens), and the trumps among them.
_RICH = sum(1 << b for b in range(32) if POINTS_AT[b] >= 10)
_RICH_TRUMPS = _RICH & TRUMPS


def _cheapest_sure(cards: int) -> int:
    """Of cards sure to take the trick, the cheapest: a fail card before any trump,
    and of the trumps one worth under 10 (a jack before the ace of diamonds: both
    hold, and the ace's 11 points would be spent for nothing)."""
    fails = cards & FAIL
    if fails:
        return low(fails)
    poor = cards & ~_RICH_TRUMPS
    return low(poor) if poor else low(cards)


def _cheapest_winner(cards: int) -> int:
    """A fail card before any trump, then the weakest."""
    fails = cards & FAIL
    return low(fails) if fails else low(cards)


# Leads --------------------------------------------------------------------------


def _picker_side_lead(sim: SimHand, me: int, legal: int) -> int:
    trumps = legal & TRUMPS
    fails = legal & FAIL
    out = _out(sim, me)
    if trumps and (out & TRUMPS or not fails):
        top = high(trumps)
        count = trumps.bit_count()
        if count >= 3 or _is_boss(out, top):
            return top  # QC first when strong: draw the defenders' trumps
        if me != sim.picker:
            return low(trumps)  # a low trump through the defenders, for the picker
        return top if count == 2 and top.bit_length() - 1 >= _JC else low(trumps)
    aces = fails & FAIL_ACES
    if aces:
        return _shortest_ace(sim, me, aces)
    cs = sim.cs
    if me == sim.picker and cs >= 0 and sim.called_led < 0:
        called_suit = fails & SUIT_MASK[cs]
        if called_suit:
            return low(called_suit)
    return _lowest(sim, me, fails or legal)


def _defender_lead(sim: SimHand, me: int, legal: int) -> int:
    fails = legal & FAIL
    if not fails:
        return low(legal)
    cs = sim.cs
    if cs >= 0 and not sim.ten_call and sim.called_led < 0 and sim.partners:
        # Lead the called suit through the picker: the partner must play the ace. Not
        # with a ten or king, nor with no trump, late, or with a long side suit.
        mine = fails & SUIT_MASK[cs]
        if mine and not POINTS_AT[low(mine).bit_length() - 1] and legal & TRUMPS:
            hand = sim.hands[me]
            long_side = any(
                fails & SUIT_MASK[k] and (hand & SUIT_MASK[k]).bit_count() >= 3
                for k in _FAIL_SUITS
                if k != cs
            )
            if sim.trick_no <= 2 and not long_side:
                return low(mine)
    picker_voids = sim.voids[sim.picker]
    aces = fails & FAIL_ACES & ~sim.suits_led & ~picker_voids
    if aces:
        return _shortest_ace(sim, me, aces)
    # A low card of the longest suit, keeping the tens and kings back.
    hand = sim.hands[me]
    best, best_key = 0, 1 << 30
    cards = fails
    while cards:
        card = cards & -cards
        b = card.bit_length() - 1
        pts = POINTS_AT[b]
        length = (hand & SUIT_MASK[b // 6]).bit_count()
        key = ((pts >= 10) * 100000 - length * 1000 + pts * 10 + b % 6) * 32 + _TIE[b]
        if key < best_key:
            best, best_key = card, key
        cards ^= card
    return best


# Follows ------------------------------------------------------------------------


def _follow(sim: SimHand, me: int, legal: int) -> int:
    best, led = sim.best, sim.led
    picker = sim.picker
    # The cards that take the trick as it stands (``_beaters`` of the best card so far).
    if best >= 18:
        beat = ABOVE[best]
    elif best >= 0:
        beat = (ABOVE[best] & SUIT_MASK[led]) | TRUMPS
    else:  # only the face-down unknown so far: any card that follows wins
        beat = SUIT_MASK[led] | TRUMPS
    wins = legal & beat
    points = sim.trick_points
    out = ~sim.played & ~sim.hands[me] & 0xFFFFFFFF  # ``_out``
    unk = sim.unk
    if me == picker:
        wins &= ~unk
        out &= ~sim.bury
    elif unk and unk in sim.trick:
        points -= POINTS_AT[unk.bit_length() - 1]  # a face-down card's points are unseen
    loses = legal & ~wins
    side = sim.rel[me][sim.best_seat] if sim.best_seat >= 0 else 0
    later = _later_mask(sim, me, out)
    sure = best >= 0 and not beat & later
    secure = _secure_winners(later, led, wins)
    if side == 1:
        return _follow_partner(sim, me, wins, loses, secure, sure, points)
    # An opponent, or a seat this one cannot place, is winning.
    if sim.side >> me & 1 and wins:
        return _follow_for_picker(sim, me, legal, wins, loses, secure, out, points)
    return _follow_against(sim, me, legal, wins, loses, secure, out, points)


def _secure_winners(later: int, led: int, wins: int) -> int:
    """The winning cards no seat still to play could beat (``later``: ``_later_mask``):
    a trump above every card in ``later``; a fail card when ``later`` has no trump and
    no higher card of the suit led (``_beaters``). ``wins`` and ``later`` are disjoint."""
    if not later:
        return wins
    top = later.bit_length() - 1
    secure = wins & TRUMPS & ABOVE[top]
    if top < 18:
        suit = later & SUIT_MASK[led]
        secure |= wins & FAIL & (ABOVE[suit.bit_length() - 1] if suit else FAIL)
    return secure


def _follow_partner(
    sim: SimHand, me: int, wins: int, loses: int, secure: int, sure: bool, points: int
) -> int:
    """A known partner is winning the trick."""
    if sure:
        # Schmear a known partner's sure trick; never trump it.
        if loses:
            top = _max_by(loses, _SCHMEAR)
            return top if _SCHMEAR[top.bit_length() - 1] >= 32 else _lowest(sim, me, loses)
        return _cheapest_winner(wins)
    if secure and (points >= 10 or not loses):
        return _cheapest_sure(secure)
    return _lowest(sim, me, loses) if loses else _cheapest_winner(wins)


#: Head counts where the picker's side never banks a sure ace or ten (docs/bots.md).
_NO_WASTE = frozenset({3})


def _follow_for_picker(
    sim: SimHand, me: int, legal: int, wins: int, loses: int, secure: int, out: int, points: int
) -> int:
    """The picker's side can take a trick an opponent (or an unplaced seat) is winning."""
    # The picker's side takes a trick worth 5 with the cheapest card that probably
    # holds, and spends a boss trump on a poorer one only if it is its lowest trump.
    if points >= 5:
        # The top of a suit on its first round, an ace, even when a cheaper card
        # is as sure: banked now, it cannot be trumped later. (Keeping it back
        # cost the picker's side 0.09 game points a hand: docs/bots.md.)
        choice = _likely_winner(sim, me, out, wins, points)
        if sim.n in _NO_WASTE and choice & secure & _RICH:
            # No wasted point card: a cheaper card takes the trick as surely.
            cheapest = _cheapest_sure(secure)
            if POINTS_AT[cheapest.bit_length() - 1] < POINTS_AT[choice.bit_length() - 1]:
                return cheapest
        return choice
    trumps = legal & TRUMPS
    cheap = secure & (FAIL | (low(trumps) if trumps else 0))
    if cheap:
        return _cheapest_sure(cheap)
    if loses:
        lowest = _lowest(sim, me, loses)
        points_lost = POINTS_AT[lowest.bit_length() - 1]
        if me == sim.picker and sim.led != 3 and points_lost and wins & TRUMPS:
            # The picker, void, trumps a poor trick low rather than give a fail
            # king or more away: it takes the lead, which it wants.
            trump = low(wins & TRUMPS)
            if not POINTS_AT[trump.bit_length() - 1]:
                return trump
        if points_lost < 10:
            return lowest
    return _cheapest_winner(wins)


def _follow_against(
    sim: SimHand, me: int, legal: int, wins: int, loses: int, secure: int, out: int, points: int
) -> int:
    """A defender (or a picker's side that cannot win) follows an opponent's trick."""
    if secure:
        choice = _cheapest_sure(secure)
        # A boss trump is spent on a trick only when the trick is worth it.
        trumps = legal & TRUMPS
        if points + POINTS_AT[choice.bit_length() - 1] >= 5 or not choice & TRUMPS:
            return choice
        if choice == low(trumps):
            return choice
    if wins and points >= 10:
        return _defender_winner(sim, out, wins)
    if loses:
        lowest = _lowest(sim, me, loses)
        if POINTS_AT[lowest.bit_length() - 1] >= 10 and wins:
            # Every loser gives the trick 10 points: rather try to win it.
            return _cheapest_winner(wins)
        return lowest
    return _cheapest_winner(wins)


def _defender_winner(sim: SimHand, out: int, wins: int) -> int:
    """The top card of a fail suit on its first round, else the cheapest trump with
    at most one card out above it, else the strongest."""
    led = sim.led
    first_round = led != 3 and not sim.suits_led & SUIT_MASK[led]
    fails = wins & FAIL
    if fails and first_round:
        return high(fails)
    trumps = wins & TRUMPS
    if not trumps:
        return high(wins)
    if first_round:
        return low(trumps)  # others must follow the first round: a low trump usually holds
    t = trumps
    while t:
        card = t & -t
        if (ABOVE[card.bit_length() - 1] & out & TRUMPS).bit_count() <= 1:
            return card
        t ^= card
    return high(trumps)


def _likely_winner(sim: SimHand, me: int, out: int, wins: int, points: int) -> int:
    """The cheapest card that probably holds: the top of a fail suit on its first
    round; else the cheapest with at most one card above it that a later seat may
    hold (none for a trick of 15 or more), two more on a suit's first round."""
    led = sim.led
    first_round = led != 3 and not sim.suits_led & SUIT_MASK[led]
    fails = wins & FAIL
    if fails and first_round:
        return high(fails)
    allowed = (1 if points < 15 else 0) + (2 if first_round else 0)
    holdable = _later_holdable(sim, me, out, led)
    w = wins
    while w:
        card = w & -w
        b = card.bit_length() - 1
        beaters = ABOVE[b] if b >= 18 else (ABOVE[b] & SUIT_MASK[led]) | TRUMPS
        if (beaters & holdable).bit_count() <= allowed:
            return card
        w ^= card
    return high(wins)


def _later_holdable(sim: SimHand, me: int, out: int, led: int) -> int:
    """The cards this seat cannot place that a seat still to play may hold and play
    (``knowledge.later_beaters``)."""
    n = sim.n
    called = sim.called
    holder = me if sim.hands[me] & called else sim.called_by
    first_called = led == sim.cs and sim.called_led == sim.trick_no
    mask = 0
    for i in range(len(sim.trick) + 1, n):
        seat = (sim.leader + i) % n
        m = out & ~sim.voids[seat]
        if called and ((holder >= 0 and holder != seat) or seat == sim.picker):
            m &= ~called
        if sim.ten_call and seat != sim.picker:
            m &= ~FAIL_ACES
        if first_called and (seat == sim.picker or seat == holder):
            m &= ~TRUMPS  # the hold card or the called card must be played
        mask |= m
    return mask


# Leasters -----------------------------------------------------------------------


def _leaster(sim: SimHand, me: int, legal: int) -> int:
    if not sim.trick:
        fails = legal & FAIL
        return _lowest_power(fails) if fails else low(legal)
    best, led = sim.best, sim.led
    if best >= 18:
        wins = legal & ABOVE[best]
    elif best >= 0:
        wins = legal & ((ABOVE[best] & SUIT_MASK[led]) | TRUMPS)
    else:
        wins = legal & (SUIT_MASK[led] | TRUMPS)
    loses = legal & ~wins
    last = len(sim.trick) == sim.n - 1
    if not loses:
        if last:
            return _fewest_points_highest(wins)
        return low(wins)
    if sim.needs_trick and not sim.won_tricks[me] and wins and last:
        points = 0
        for card in sim.trick:
            points += POINTS_AT[card.bit_length() - 1]
        if points <= 3:
            cheap = _fewest_points_lowest(wins)
            last_trick = sim.trick_no == sim.total_tricks - 1 and sim.blind_rule.value == (
                "last-trick"
            )
            if POINTS_AT[cheap.bit_length() - 1] <= 3 and not last_trick:
                return cheap  # a cheap trick makes this seat eligible to win the leaster
    following = loses & SUIT_MASK[led]
    if following:
        return high(following)  # duck with the highest loser
    return _max_by(loses, _DANGER)  # shed a bare ace or a high trump while it is safe


def _lowest_power(fails: int) -> int:
    best, best_power = 0, 1 << 30
    while fails:
        card = fails & -fails
        b = card.bit_length() - 1
        p = b % 6 * 32 + _TIE[b]
        if p < best_power:
            best, best_power = card, p
        fails ^= card
    return best


def _fewest_points_highest(cards: int) -> int:
    best, best_key = 0, 1 << 30
    while cards:
        card = cards & -cards
        b = card.bit_length() - 1
        key = (POINTS_AT[b] * 200 - _power(b)) * 32 + _TIE[b]
        if key < best_key:
            best, best_key = card, key
        cards ^= card
    return best


def _fewest_points_lowest(cards: int) -> int:
    best, best_key = 0, 1 << 30
    while cards:
        card = cards & -cards
        b = card.bit_length() - 1
        key = (POINTS_AT[b] * 1000 + _power(b)) * 32 + _TIE[b]
        if key < best_key:
            best, best_key = card, key
        cards ^= card
    return best
