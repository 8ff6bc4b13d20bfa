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

from typing import Final

from sheepshead import kernel
from sheepshead.bots.cardkeys import (
    BEATERS,
    DANGER,
    DISCARD,
    FAIL_ACES,
    ORDER,
    RICH,
    SCHMEAR,
    TIE,
    cheapest_sure,
    cheapest_winner,
    fewest_points_highest,
    fewest_points_lowest,
    is_boss,
    lowest_power,
    max_by,
)
from sheepshead.bots.sim import SimHand, shows_defender
from sheepshead.bots.simview import partners_of, sim_of, table_of
from sheepshead.kernel import (
    ABOVE,
    ACE_BIT,
    FAIL,
    POINTS_AT,
    SUIT_AT,
    SUIT_MASK,
    TRUMPS,
    high,
    low,
)

__all__ = ["choose", "partners_of", "playout", "sim_of", "table_of"]

_FAIL_SUITS: Final = (0, 1, 2)


#: JC, the weakest card a three-handed picker leads from two trumps (bits: QC 31 ... 7D 18).
_JC: Final = 27


def playout(sim: SimHand) -> None:
    """Play the hand to its end with the policy (the last trick is forced:
    ``SimHand.finish``). The hot loop of search: ``SimHand.legal`` and ``SimHand.play``
    are written out, a trick at a time, over what stays fixed in a hand and in a trick
    (its lists are edited in place); ``tests/bots/test_sim.py`` holds it to ``play``
    and ``choose``."""
    last = sim.total_tricks - 1
    if sim.trick_no < last:
        if sim.trick:
            _trick(sim, False)
        while sim.trick_no < last:
            _trick(sim, True)
    if sim.trick_no == last:
        sim.finish()


def _trick(sim: SimHand, lead: bool) -> None:
    """The trick to its end: its lead (unless ``lead`` is False: the trick is under
    way) and its follows by the policy (``SimHand.play`` and ``_end_trick`` written
    out; each policy called directly, which compiled is a plain C call).
    ``kernel.legal`` is asked only where the called suit or the picker's unknown card
    may bind the seat: for the rest, the cards of the suit led, else any."""
    hands, voids, trick = sim.hands, sim.voids, sim.trick
    picker, called, cs, unk = sim.picker, sim.called, sim.cs, sim.unk
    trick_no, leader, n = sim.trick_no, sim.leader, sim.n
    leaster = sim.leaster
    if lead:  # the seat to lead is the trick's leader
        hand = hands[leader]
        legal = hand
        if cs >= 0 and sim.called_led < 0 and hand & (hand - 1):
            legal = sim.legal()  # the called suit's duties
        card = _lead(sim, leader, legal) if legal & (legal - 1) else legal
        hands[leader] = hand ^ card
        played = sim.played = sim.played | card
        pos = card.bit_length() - 1
        # The face-down card is led as the called suit, and never wins.
        led = sim.led = cs if card == unk else SUIT_AT[pos]
        best = sim.best = -1 if card == unk else pos
        best_seat = sim.best_seat = -1 if card == unk else leader
        if led == cs and sim.called_led < 0:
            sim.called_led = trick_no
        trick.append(card)
        points = sim.trick_points = POINTS_AT[pos]
        if card == called:
            sim.called_out(leader)
    else:
        led, best, best_seat = sim.led, sim.best, sim.best_seat
        points, played = sim.trick_points, sim.played
    called_led = sim.called_led
    led_mask = SUIT_MASK[led]
    pending = cs >= 0 and called_led < 0
    first_called = led == cs and called_led == trick_no
    odd = picker if unk else -1  # the seat that may hold the unknown card
    # The cards that follow suit (the unknown card as the called suit), and those that
    # take the trick as it stands (``kernel.takes``: never the unknown card).
    follows = (led_mask & ~unk) | (unk if led == cs else 0)
    beat = BEATERS[led][best + 1] & ~unk
    for seat in ORDER[n][leader][len(trick) :]:
        hand = hands[seat]
        legal = hand & led_mask
        if first_called or seat == odd or (pending and not legal and seat == picker):
            legal = kernel.legal(
                hand, led, seat == picker, called, cs, unk, sim.ten_call, called_led, trick_no
            )
        elif not legal:
            # Void: any card, but the called card until its suit is led (``kernel._duty``).
            legal = (hand & ~called or hand) if pending else hand
        if legal & (legal - 1):
            # The policy reads the play so far; a forced card needs none of it.
            sim.played, sim.trick_points = played, points
            card = _leaster(sim, seat, legal) if leaster else _follow(sim, seat, legal)
        else:
            card = legal
        hands[seat] = hand ^ card
        played |= card
        pos = card.bit_length() - 1
        if not card & follows:
            voids[seat] |= led_mask
        trick.append(card)
        points += POINTS_AT[pos]
        if card & beat:
            if (
                best_seat == picker
                and best >= 0
                and not sim.revealed
                and seat != sim.second
                and shows_defender(best, led, played & ~unk)
            ):
                sim._shown_defender(seat)
            best = sim.best = pos
            best_seat = sim.best_seat = seat
            beat = BEATERS[led][pos + 1] & ~unk
        if card == called:
            sim.called_out(seat)
    # ``SimHand._end_trick``.
    sim.played = played
    winner = best_seat if best_seat >= 0 else (leader + 1) % n
    sim.won_points[winner] += points
    sim.won_tricks[winner] += 1
    if trick_no == sim.named_trick:
        sim.named_winner = winner
    sim.trick_no = trick_no + 1
    sim.suits_led |= led_mask
    sim.trick = []
    sim.trick_points = 0
    sim.leader = sim.turn = winner


def choose(sim: SimHand) -> int:
    """The card (a bit) the seat to act plays."""
    legal = sim.legal()
    if legal & (legal - 1) == 0:
        return legal
    return _decide(sim, legal)


def _decide(sim: SimHand, legal: int) -> int:
    """``choose`` where there is a choice (``legal`` has two cards or more)."""
    me = sim.turn
    if not sim.trick:
        return _lead(sim, me, legal)
    if sim.leaster:
        return _leaster(sim, me, legal)
    return _follow(sim, me, legal)


def _lead(sim: SimHand, me: int, legal: int) -> int:
    """The lead of seat ``me`` (to lead), ``legal`` holding two cards or more."""
    if sim.leaster:
        return _leaster(sim, me, legal)
    if sim.side >> me & 1:
        return _picker_side_lead(sim, me, legal)
    return _defender_lead(sim, me, legal)


# Counting -----------------------------------------------------------------------


def _out(sim: SimHand, me: int) -> int:
    """The cards this seat cannot place: not its own, not played, not its own bury."""
    out = ~sim.played & ~sim.hands[me] & 0xFFFFFFFF
    return out & ~sim.bury if me == sim.picker else out


def _later_mask(sim: SimHand, me: int, out: int) -> int:
    """What the seats still to play may hold and play on this trick (``could_beat``)."""
    called, picker = sim.called, sim.picker
    holder = me if sim.hands[me] & called else sim.called_by
    first_called = sim.led == sim.cs and sim.called_led == sim.trick_no
    voids = sim.voids
    # What each seat may play, as masks unbounded above (``out`` bounds them): the
    # seats with no duty of their own share one mask, ``plain``, narrowed once.
    plain = duty = 0
    for seat in ORDER[sim.n][sim.leader][len(sim.trick) + 1 :]:
        if seat == picker:
            if not first_called:
                duty |= ~(voids[seat] | called)
            elif not sim.unk:  # with it, the picker plays the face-down card: never wins
                duty |= ~(voids[seat] | called | TRUMPS)  # it must follow the called suit
        elif seat == holder:
            may = ~voids[seat]
            if sim.ten_call:
                may &= ~FAIL_ACES  # a ten call shows the picker holds all three aces
            if first_called:
                may &= ~TRUMPS  # the called card must be played
            duty |= may
        else:
            plain |= ~voids[seat]
    if plain:
        if holder >= 0:
            plain &= ~called
        if sim.ten_call:
            plain &= ~FAIL_ACES
    return out & (plain | duty)


def _lowest(sim: SimHand, me: int, cards: int) -> int:
    """The cheapest card to throw away (``discard_cost``)."""
    if cards & (cards - 1) == 0:
        return cards  # one card: nothing to weigh
    hand = sim.hands[me]
    best, best_key = 0, 1 << 30
    while cards:
        card = cards & -cards
        b = card.bit_length() - 1
        key = DISCARD[b] if b >= 18 else DISCARD[b] + (hand & SUIT_MASK[b // 6]).bit_count() * 320
        if key < best_key:
            best, best_key = card, key
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


# Leads --------------------------------------------------------------------------


def _picker_side_lead(sim: SimHand, me: int, legal: int) -> int:
    trumps = legal & TRUMPS
    fails = legal & FAIL
    out = _out(sim, me)
    if trumps and (out & TRUMPS or not fails):
        top = high(trumps)
        boss = is_boss(out, top)
        if me == sim.picker and sim.n > 3:
            # The picker leads its top trump only when it is the boss; else its lowest,
            # keeping the high ones, and a lone trump that is not the boss is kept for
            # a fail lead (below). Version 5: +0.10 a hand against version 4's top
            # trump first (docs/bots.md). Not three-handed, where the picker alone
            # draws two defenders' trumps: there the expert's search, which plays
            # its own later leads by this policy, lost 0.12 a hand with it.
            if boss:
                return top
            if trumps & (trumps - 1):
                return low(trumps)
        elif trumps.bit_count() >= 3 or boss:
            return top  # QC first when strong: draw the defenders' trumps
        elif me != sim.picker:
            return low(trumps)  # a low trump through the defenders, for the picker
        else:
            return top if trumps.bit_count() == 2 and top.bit_length() - 1 >= _JC else low(trumps)
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
        key = ((pts >= 10) * 100000 - length * 1000 + pts * 10 + b % 6) * 32 + TIE[b]
        if key < best_key:
            best, best_key = card, key
        cards ^= card
    return best


# Follows ------------------------------------------------------------------------


def _follow(sim: SimHand, me: int, legal: int) -> int:
    best, led = sim.best, sim.led
    # The cards that take the trick as it stands (``_beaters`` of the best card so far).
    beat = BEATERS[led][best + 1]
    wins = legal & beat
    points = sim.trick_points
    # ``_out``, with one operation fewer (Python ints are allocated): the seat's own
    # cards are not played.
    out = 0xFFFFFFFF ^ (sim.played | sim.hands[me])
    unk = sim.unk
    if me == sim.picker:
        wins &= ~unk
        out &= ~sim.bury
    elif unk and unk in sim.trick:
        points -= POINTS_AT[unk.bit_length() - 1]  # a face-down card's points are unseen
    loses = legal ^ wins
    best_seat = sim.best_seat
    side = sim.rel[me][best_seat] if best_seat >= 0 else 0
    later = _later_mask(sim, me, out) if len(sim.trick) + 1 < sim.n else 0
    sure = best >= 0 and not beat & later
    # The winning cards no seat still to play could beat: a trump above every card in
    # ``later``; a fail card when ``later`` has no trump and no higher card of the suit
    # led (``_beaters``). ``wins`` and ``later`` are disjoint.
    secure = wins
    if later:
        top = later.bit_length() - 1
        secure &= TRUMPS & ABOVE[top]
        if top < 18:
            suit = later & SUIT_MASK[led]
            secure |= wins & FAIL & (ABOVE[suit.bit_length() - 1] if suit else FAIL)
    if side == 1:
        return _follow_partner(sim, me, wins, loses, secure, sure, points)
    # An opponent, or a seat this one cannot place, is winning.
    if sim.side >> me & 1 and wins:
        return _follow_for_picker(sim, me, legal, wins, loses, secure, out, points)
    return _follow_against(sim, me, legal, wins, loses, secure, out, points)


def _follow_partner(
    sim: SimHand, me: int, wins: int, loses: int, secure: int, sure: bool, points: int
) -> int:
    """A known partner is winning the trick."""
    if sure:
        # Schmear a known partner's sure trick; never trump it.
        if loses:
            top = max_by(loses, SCHMEAR)
            return top if SCHMEAR[top.bit_length() - 1] >= 32 else _lowest(sim, me, loses)
        return cheapest_winner(wins)
    if secure and (points >= 10 or not loses):
        return cheapest_sure(secure)
    return _lowest(sim, me, loses) if loses else cheapest_winner(wins)


#: Head counts where the picker's side never banks a sure ace or ten (docs/bots.md).
_NO_WASTE: Final = frozenset({3})


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
        if sim.n in _NO_WASTE and choice & secure & RICH:
            # No wasted point card: a cheaper card takes the trick as surely.
            cheapest = cheapest_sure(secure)
            if POINTS_AT[cheapest.bit_length() - 1] < POINTS_AT[choice.bit_length() - 1]:
                return cheapest
        return choice
    trumps = legal & TRUMPS
    cheap = secure & (FAIL | (low(trumps) if trumps else 0))
    if cheap:
        return cheapest_sure(cheap)
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
    return cheapest_winner(wins)


def _follow_against(
    sim: SimHand, me: int, legal: int, wins: int, loses: int, secure: int, out: int, points: int
) -> int:
    """A defender (or a picker's side that cannot win) follows an opponent's trick."""
    if secure:
        choice = cheapest_sure(secure)
        # A boss trump is spent on a trick only when the trick is worth it.
        trumps = legal & TRUMPS
        if points + POINTS_AT[choice.bit_length() - 1] >= 5 or not choice & TRUMPS:
            return choice
        if choice == low(trumps):
            return choice
    led = sim.led
    if wins and (points >= 10 or (led != 3 and not legal & SUIT_MASK[led])):
        # A trick of 10 or more; or, void in the fail suit led, any trick: trumping
        # it takes the lead from the picker's side (version 5: +0.022 a hand).
        return _defender_winner(sim, out, wins)
    if loses:
        lowest = _lowest(sim, me, loses)
        if POINTS_AT[lowest.bit_length() - 1] >= 10 and wins:
            # Every loser gives the trick 10 points: rather try to win it.
            return cheapest_winner(wins)
        return lowest
    return cheapest_winner(wins)


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
    hold (none for a trick of 15 or more), three more on a fail suit's first round
    (two until version 5: +0.009 a hand)."""
    led = sim.led
    first_round = led != 3 and not sim.suits_led & SUIT_MASK[led]
    fails = wins & FAIL
    if fails and first_round:
        return high(fails)
    allowed = (1 if points < 15 else 0) + (3 if first_round else 0)
    holdable = _later_holdable(sim, me, out, led)
    w = wins
    while w:
        card = w & -w
        b = card.bit_length() - 1
        if (BEATERS[led][b + 1] & holdable).bit_count() <= allowed:
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
        return lowest_power(fails) if fails else low(legal)
    led = sim.led
    wins = legal & BEATERS[led][sim.best + 1]
    loses = legal & ~wins
    last = len(sim.trick) == sim.n - 1
    if not loses:
        if last:
            return fewest_points_highest(wins)
        return low(wins)
    if sim.needs_trick and not sim.won_tricks[me] and wins:
        last_trick = sim.trick_no == sim.total_tricks - 1 and sim.blind_rule.value == ("last-trick")
        if not last_trick:
            # A trick makes this seat eligible to win the leaster.
            points = 0
            for card in sim.trick:
                points += POINTS_AT[card.bit_length() - 1]
            if sim.n == 3:
                # Three-handed, version 4's rule: last to play, a trick of 3 or less,
                # the cheapest winner (version 5's cost the expert's search there 0.17
                # a leaster hand).
                if last and points <= 3:
                    cheap = fewest_points_lowest(wins)
                    if POINTS_AT[cheap.bit_length() - 1] <= 3:
                        return cheap
            else:
                # With no trick yet, take one that leaves the seat 10 points or less,
                # with the highest such winner, shedding the card most likely to take
                # a dearer trick later. Version 5; before, only last to play, a trick
                # of 3 or less.
                cheap = 0
                w = wins
                while w:
                    card = w & -w
                    if points + POINTS_AT[card.bit_length() - 1] <= 10:
                        cheap |= card
                    w ^= card
                if cheap:
                    return high(cheap)
    following = loses & SUIT_MASK[led]
    if following:
        return high(following)  # duck with the highest loser
    return max_by(loses, DANGER)  # shed a bare ace or a high trump while it is safe
