"""Why a flagged decision was worse, in a player's words.

The coach names the pattern (a code and its params); the words are catalog messages,
said in the reader's language where they are shown (``MESSAGES``, extracted by
``pybabel``; see docs/i18n.md). Each pattern reads only the seat's view at that
moment and the options' values: what the player could have seen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheepshead.actions import Action, Alone, Bury, Call, Crack, NoCrack, Pass, Pick, Play

# Version 4 of the bots' play, frozen, whatever the live version (coach/worlds.py).
from sheepshead.bots.frozen.v4.knowledge import Knowledge, beats, read_view
from sheepshead.cards import Card
from sheepshead.coach.judge import Evaluation
from sheepshead.view import SeatView

__all__ = ["HINT_MESSAGES", "MESSAGES", "Reason", "reason_for", "words"]


def N_(message: str) -> str:
    """Marks a message for the catalog; translated where it is shown."""
    return message


#: Every reason's English words; ``{card}``, ``{best}`` are card or action texts.
MESSAGES: dict[str, str] = {
    "schmear-to-opponent": N_(
        "You schmeared {card} to a trick an opponent was sure to win; {best} gave away less."
    ),
    "schmear-to-unknown": N_(
        "You gave {card} to a trick you could not place; {best} kept the points."
    ),
    "defender-trump-lead": N_("A defender holding fail should not lead trump; {best} was better."),
    "trumped-partner": N_("You trumped your partner's sure winner; {best} was enough."),
    "missed-schmear": N_(
        "Your partner was sure to win this trick: {best} would have added points."
    ),
    "lead-called-suit": N_("As a defender, lead the called suit through the picker: {best}."),
    "cheaper-winner": N_("{best} takes this trick as surely and costs less."),
    "should-take": N_("This trick was worth taking: {best}."),
    "better-card": N_("{best} was better here."),
    "should-pick": N_("This hand was strong enough to pick."),
    "should-pass": N_("This hand was too weak to pick in this seat."),
    "better-bury": N_("A better bury: {best}."),
    "better-call": N_("A better call: {best}."),
    "should-go-alone": N_("This hand was strong enough to go alone."),
    "should-call": N_("Going alone was too risky; {best} was better."),
    "should-crack": N_("Your hand was strong enough to crack."),
    "should-not-crack": N_("Cracking doubled a loss here; not cracking was better."),
    "better-choice": N_("{best} was better."),
}


#: The same reasons for a hint, said before the play: why the expert's choice (``{best}``)
#: beats the next best (``{card}``, when that is a card); ``best-in-playouts`` when no
#: pattern names it.
HINT_MESSAGES: dict[str, str] = {
    "schmear-to-opponent": N_("Keep {card}: an opponent is sure to win this trick."),
    "schmear-to-unknown": N_("Keep {card}: you cannot tell who will win this trick."),
    "defender-trump-lead": N_("A defender holding fail should not lead trump."),
    "trumped-partner": N_("Your partner is sure to win this trick: no need to trump it."),
    "missed-schmear": N_("Your partner is sure to win this trick: schmear {best}."),
    "lead-called-suit": N_("As a defender, lead the called suit through the picker."),
    "cheaper-winner": N_("{best} takes this trick as surely and costs less."),
    "should-take": N_("This trick is worth taking."),
    "better-card": N_("It does best when the hand is played out."),
    "should-pick": N_("This hand is strong enough to pick."),
    "should-pass": N_("This hand is too weak to pick in this seat."),
    "better-bury": N_("It does best when the hand is played out."),
    "better-call": N_("It does best when the hand is played out."),
    "should-go-alone": N_("This hand is strong enough to go alone."),
    "should-call": N_("Going alone is too risky here."),
    "should-crack": N_("Your hand is strong enough to crack."),
    "should-not-crack": N_("Cracking would double a likely loss."),
    "better-choice": N_("It does best when the hand is played out."),
    "best-in-playouts": N_("It does best when the hand is played out."),
}


@dataclass(frozen=True, slots=True)
class Reason:
    code: str
    params: dict[str, str] = field(default_factory=dict)


def words(reason: Reason, gettext: object = None, hint: bool = False) -> str:
    """The reason in English, or through ``gettext`` (a callable) when given; ``hint``:
    in the words of a hint (before the play)."""
    template = (HINT_MESSAGES if hint else MESSAGES)[reason.code]
    if callable(gettext):
        template = str(gettext(template))
    return template.format(**reason.params)


def _text(action: Action) -> str:
    match action:
        case Play(card):
            return card.text
        case Bury(cards):
            return " ".join(c.text for c in cards)
        case _:
            return str(action)


def reason_for(view: SeatView, ev: Evaluation) -> Reason | None:
    """The reason of a decision with a loss, None for one without."""
    played, best = ev.played, ev.best
    if played is None or played == best or (ev.loss <= 0 and ev.card_points_loss < 8):
        return None
    params = {"best": _text(best)}
    if isinstance(played, Play) and isinstance(best, Play):
        params["card"] = played.card.text
        return Reason(_card_code(read_view(view), played.card, best.card), params)
    return Reason(_decision_code(played, best), params)


def _decision_code(played: Action, best: Action) -> str:
    match played, best:
        case Pick(), Pass():
            return "should-pass"
        case Pass(), Pick():
            return "should-pick"
        case Bury(), Bury():
            return "better-bury"
        case Call(), Alone():
            return "should-go-alone"
        case Alone(), Call():
            return "should-call"
        case Call(), Call():
            return "better-call"
        case NoCrack(), Crack():
            return "should-crack"
        case Crack(), NoCrack():
            return "should-not-crack"
    return "better-choice"


def _card_code(k: Knowledge, card: Card, best: Card) -> str:
    if k.leading:
        return _lead_code(k, card, best)
    winner = k.winner
    side = 0 if winner is None else k.side_of(winner)
    sure = k.winner_is_sure()
    takes = k.best is not None and beats(card, k.best, k.led)
    if not takes and card.points >= 10 and card.points > best.points:
        if side == -1 and sure:
            return "schmear-to-opponent"
        if side == 0:
            return "schmear-to-unknown"
    if takes and side == 1 and sure and winner != k.seat:
        return "trumped-partner"
    if side == 1 and sure and not takes and best.points > card.points:
        return "missed-schmear"
    best_takes = k.best is not None and beats(best, k.best, k.led)
    if takes and best_takes and best.points + best.power / 100 < card.points + card.power / 100:
        return "cheaper-winner"
    if best_takes and not takes:
        return "should-take"
    return "better-card"


def _lead_code(k: Knowledge, card: Card, best: Card) -> str:
    if k.leaster:
        return "better-card"
    holds_fail = any(not c.is_trump for c in k.hand)
    if not k.on_picker_side and card.is_trump and holds_fail and not best.is_trump:
        return "defender-trump-lead"
    if (
        not k.on_picker_side
        and k.called_suit is not None
        and best.fail_suit is k.called_suit
        and card.fail_suit is not k.called_suit
        and not k.called_led
    ):
        return "lead-called-suit"
    return "better-card"
