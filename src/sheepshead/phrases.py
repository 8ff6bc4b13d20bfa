"""Every sentence the game says to a player, in one catalog: a hand's events by type,
the refusals by code, as English messages with ``{placeholders}``.

The server's English (an event's ``text``, a refusal's ``detail``) is a message of this
catalog filled in (``english``), and the page gets the same messages in its language
(``server/i18n.phrases``: the gettext catalogs translate them, the page fills them in
``static/js/words.js``), so a sentence has one wording, in one place. The page keeps
no English copy of them.

A message is a string, or ``tn(singular, plural)``: a plural chosen by its ``n``
parameter. Both mark the message for ``pybabel extract`` (``N_`` and ``tn``,
``docs/i18n.md``).

The engine's refusals of an action keep their third-person sentence ("seat 3 must
follow hearts", ``ENGINE_REFUSALS``), which the golden records match byte for byte: the
API's English; the page says a card's refusal to the player refused ("You must follow
hearts", ``REFUSALS``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any


#: A message: a sentence, or a (singular, plural) pair chosen by the ``n`` parameter.
Message = str | tuple[str, str]

__all__ = [
    "EVENTS",
    "LESSON",
    "N_",
    "REFUSALS",
    "SCRIPTS",
    "Message",
    "english",
    "english_list",
    "tn",
]


def N_(message: str) -> str:
    """Mark a message for extraction; it is translated where it is shown."""
    return message


def tn(singular: str, plural: str) -> tuple[str, str]:
    """A message with a plural form, chosen by its ``n`` parameter."""
    return (singular, plural)


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def english(message: Message, params: Mapping[str, Any]) -> str:
    """The message in English with its placeholders filled from ``params``. A missing
    parameter is an error, not a blank: the catalog and its callers must agree."""
    if isinstance(message, tuple):
        message = message[0] if params.get("n") == 1 else message[1]
    return _PLACEHOLDER.sub(lambda m: str(params[m.group(1)]), message)


def english_list(items: Sequence[str]) -> str:
    """Items joined as English joins a list: "A", "A and B", "A, B and C"."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


#: A hand's events by type (``table.py``), each said to the seat that reads it: ``you``
#: when that seat acted, ``other`` with the actor's ``{name}``; more variants where the
#: facts differ. ``docs/api.md`` lists each type's facts.
EVENTS: dict[str, dict[str, Message]] = {
    "pass": {
        "you": N_("You pass"),
        "other": N_("{name} passes"),
        "you-leaster": N_("You pass: nobody picked, so this hand is a leaster"),
        "other-leaster": N_("{name} passes: nobody picked, so this hand is a leaster"),
        "you-thrown-in": N_("You pass: nobody picked, so the hand is thrown in"),
        "other-thrown-in": N_("{name} passes: nobody picked, so the hand is thrown in"),
    },
    "pick": {"you": N_("You pick up the blind"), "other": N_("{name} picks")},
    "bury": {
        "you": N_("You bury the {cards}"),
        "other": tn("{name} buries {n} card", "{name} buries {n} cards"),
    },
    "call": {
        "you": N_("You call the {card}"),
        "other": N_("{name} calls the {card}"),
        "you-unknown": N_("You call the {card}, with the {unknown} as the unknown card"),
        "other-unknown": N_("{name} calls the {card}, with an unknown card"),
    },
    "alone": {"you": N_("You go alone"), "other": N_("{name} goes alone")},
    "crack": {
        "you": N_("You crack: the hand counts double"),
        "other": N_("{name} cracks: the hand counts double"),
    },
    "nocrack": {"you": N_("You do not crack"), "other": N_("{name} does not crack")},
    "name": {
        "you": N_("You name trick {n} to take the blind"),
        "other": N_("{name} names trick {n} to take the blind"),
    },
    "play": {
        "you": N_("You play the {card}"),
        "other": N_("{name} plays the {card}"),
        "face-down": N_("{name} plays a card face down"),
    },
    "trick": {
        "you": tn("You take the trick: {n} point", "You take the trick: {n} points"),
        "other": tn("{name} takes the trick: {n} point", "{name} takes the trick: {n} points"),
        "you-face-down": N_("You take the trick, with a face-down card"),
        "other-face-down": N_("{name} takes the trick, with a face-down card"),
    },
    "hand": {
        "doubler": N_("Everyone passed: the hand is thrown in and the next one counts double."),
        "leaster-tie": N_("Leaster: everyone ties, nobody scores."),
        "leaster": tn(
            "Leaster: won by {names}, with {n} card point.",
            "Leaster: won by {names}, with {n} card points.",
        ),
        "side-win": N_("The picker's side ({side}) wins: {points} card points."),
        "side-win-schneider": N_(
            "The picker's side ({side}) wins with schneider: {points} card points."
        ),
        "side-win-no-trick": N_(
            "The picker's side ({side}) wins every trick: {points} card points."
        ),
        "side-loss": N_("The picker's side ({side}) loses: {points} card points."),
        "side-loss-schneider": N_(
            "The picker's side ({side}) loses, schneidered: {points} card points."
        ),
        "side-loss-no-trick": N_(
            "The picker's side ({side}) loses without a trick: {points} card points."
        ),
        "alone-win": N_("The lone picker ({side}) wins: {points} card points."),
        "alone-win-schneider": N_(
            "The lone picker ({side}) wins with schneider: {points} card points."
        ),
        "alone-win-no-trick": N_(
            "The lone picker ({side}) wins every trick: {points} card points."
        ),
        "alone-loss": N_("The lone picker ({side}) loses: {points} card points."),
        "alone-loss-schneider": N_(
            "The lone picker ({side}) loses, schneidered: {points} card points."
        ),
        "alone-loss-no-trick": N_(
            "The lone picker ({side}) loses without a trick: {points} card points."
        ),
        "score": N_("You score {score}."),
    },
}

#: Refusals by code (``docs/api.md``, Refusals), as the page says them to the player
#: refused; variants where the params ask for another sentence. A display name's and a
#: recovery code's are also the server's ``detail``, filled with the server's params.
REFUSALS: dict[str, dict[str, Message]] = {
    # The engine's refusals of a card, said to the seat refused.
    "lead-only-with": {
        "you": N_("You may lead {suits} only with the {card} until {suits} are led")
    },
    "must-follow": {"you": N_("You must follow {suits}"), "trump": N_("You must follow trump")},
    "must-play-on-first-trick": {"you": N_("You must play the {card} on the first {suit} trick")},
    "keep-unknown": {"you": N_("You must keep the unknown card until {suits} are led")},
    "keep-suit": {"you": N_("You must keep a {suit} until {suits} are led")},
    "keep-card": {"you": N_("You must keep the {card} until {suits} are led")},
    "card-refused": {"you": N_("You may not play that card now")},
    # The server's.
    "too-many-requests": {
        "seconds": tn(
            "Too many requests: please wait {n} second and try again.",
            "Too many requests: please wait {n} seconds and try again.",
        ),
        "minutes": tn(
            "Too many requests: please wait {n} minute and try again.",
            "Too many requests: please wait {n} minutes and try again.",
        ),
    },
    "too-many-new-players": {
        "seconds": tn(
            "Too many new players: please wait {n} second and try again. (new players from one network address are limited)",  # noqa: E501
            "Too many new players: please wait {n} seconds and try again. (new players from one network address are limited)",  # noqa: E501
        ),
        "minutes": tn(
            "Too many new players: please wait {n} minute and try again. (new players from one network address are limited)",  # noqa: E501
            "Too many new players: please wait {n} minutes and try again. (new players from one network address are limited)",  # noqa: E501
        ),
    },
    "stale-version": {
        "you": N_("this table is at version {now}, not {sent}: it changed since you saw it")
    },
    "day-players-gone": {
        "you": N_(
            "this day is played against computer players (version {version}) that this "
            "server cannot run; the next day is played with the ones it has"
        )
    },
    # A friends' table's (``server/friends*.py``, the table's conflicts in ``table.py``).
    "no-such-table": {"you": N_("no such table: check the invitation link")},
    "not-seated": {"you": N_("you have no seat at this table")},
    "hints-off": {"you": N_("the host has not allowed the coach's hints here")},
    "not-started": {"you": N_("the host has not started this table yet")},
    "started": {"you": N_("this table has started")},
    "not-your-turn": {
        "you": N_("it is {name}'s turn, not yours"),
        "plain": N_("it is not your turn"),
    },
    "deal-next-hand": {"you": N_("the hand is over: deal the next hand")},
    "hand-not-over": {
        "you": N_("the current hand is not over yet"),
        "remove": N_("a player is removed between hands"),
        "number": N_("hand {number} is not over"),
    },
    "table-full": {"you": N_("every seat at this table is taken")},
    "no-such-seat": {"you": N_("nobody sits in seat {seat}")},
    "not-host": {
        "start": N_("only the host starts the table"),
        "remove": N_("only the host may remove a player"),
    },
    "not-between-hands": {"you": N_("messages wait for the end of the hand")},
    "bad-message": {"you": N_("no message {message}; messages: {messages}")},
    "bad-rules": {"you": N_("rules: {reason}")},
    "bad-level": {"you": N_("level: {reason}")},
    "bad-clock": {"you": N_("the clock is off (null), 15, 30 or 60 seconds")},
    "bad-action": {"you": N_("that action cannot be read")},
    "name-required": {"you": N_("choose a display name to take a seat")},
    "too-many-joins": {
        "seconds": tn(
            "Too many requests: please wait {n} second and try again.",
            "Too many requests: please wait {n} seconds and try again.",
        ),
        "minutes": tn(
            "Too many requests: please wait {n} minute and try again.",
            "Too many requests: please wait {n} minutes and try again.",
        ),
    },
    # A display name's (``names.check_name``): {char} is the refused character, {n} a length.
    "name-not-text": {"you": N_("A name is text.")},
    "name-markup": {"you": N_("A name cannot contain markup: no <, > or &.")},
    "name-too-short": {"you": N_("A name needs at least {n} characters.")},
    "name-too-long": {"you": N_("A name has at most {n} characters.")},
    "name-reserved": {
        "you": N_("That name is reserved: it would pass for the site or a computer player.")
    },
    "name-site": {"you": N_("That name would pass for the site or its staff.")},
    "name-staff": {"you": N_("That name would pass for the site or its staff.")},
    "name-computer": {"you": N_("That name would pass for a computer player.")},
    "name-invisible": {
        "you": N_("A name cannot contain control or invisible characters ({char}).")
    },
    "name-symbol": {
        "you": N_("A name may use letters, digits, spaces and - _ . ' only, not {char}.")
    },
    "name-profile": {"you": N_("A name may use only letters in common use today, not {char}.")},
    "name-mark-alone": {"you": N_("A combining mark must follow a letter.")},
    "name-mark-twice": {"you": N_("A letter cannot carry the same mark twice.")},
    "name-too-many-marks": {"you": N_("Too many accents or marks on one letter.")},
    "name-no-letter": {"you": N_("A name needs at least one letter or digit.")},
    "name-mixed-scripts": {
        "you": N_("A name cannot mix {scripts} letters: mixed scripts make look-alike names."),
        "unnamed": N_(
            "A name cannot mix letters of different scripts: mixed scripts make look-alike names."
        ),
    },
    "name-whole-script": {
        "you": N_(
            "Every letter of that name looks like a letter of another script: "
            "it would pass for a name written in that script."
        )
    },
    "name-taken": {"you": N_("That name, or one that looks like it, is taken.")},
    # A recovery code's.
    "recovery-code-length": {
        "you": N_("A recovery code has {n} letters and digits, like {example}.")
    },
    "recovery-code-symbol": {"you": N_('"{char}" is not in a recovery code.')},
    "no-such-recovery-code": {"you": N_("No player has that recovery code.")},
    # The guided first game's (``lesson.py``): a legal choice that is not the step's.
    "lesson-pick": {
        "you": N_("In this lesson, pick: a hand with this many trumps is worth the blind.")
    },
    "lesson-bury": {
        "you": N_(
            "In this lesson, bury the two cards the step names: "
            "their points are safe in the bury, and you keep a card of the suit you call."
        )
    },
    "lesson-call": {
        "you": N_("In this lesson, call the {card}: you hold a card of its suit, as a call needs.")
    },
    "lesson-lead-trump": {
        "you": N_(
            "In this lesson, lead the {card}: "
            "the picker's side leads trump to draw out the others' trumps."
        )
    },
    "lesson-follow": {"you": N_("In this lesson, play the {card}: you must follow {suits}.")},
    "lesson-follow-trump": {
        "you": N_(
            "In this lesson, play the {card}: "
            "you must play a trump, and this one gives the trick the fewest points you can."
        )
    },
    "lesson-trump-in": {
        "you": N_(
            "In this lesson, trump with the {card}: "
            "a low trump takes this trick and saves your high ones."
        )
    },
    "lesson-schmear": {
        "you": N_(
            "In this lesson, schmear the {card}: "
            "the trick is your side's for sure, so its points are safe there."
        )
    },
}

#: The guided first game's words (``lesson.py``), by the kind of step: ``do``, what to
#: do and why; ``rule``, the rule at hand. ``{card}``, ``{cards}``: the card or cards
#: the step names; ``{suit}``, ``{suits}``: the suit led.
LESSON: dict[str, dict[str, str]] = {
    "pick": {
        "do": N_(
            "Your hand is rich in trumps: pick up the blind, the two cards set aside, "
            "and play against the others with a partner."
        ),
        "rule": N_(
            "Picking: each player in turn may pick up the blind or pass. The picker's side "
            "needs 61 of the 120 card points to win."
        ),
    },
    "bury": {
        "do": N_("The blind is in your hand. Bury the {cards}: choose them, then press Bury."),
        "rule": N_(
            "The bury: the picker lays two cards away face down. "
            "Their points count for the picker's side at the end."
        ),
    },
    "call": {
        "do": N_(
            "Call the {card}: whoever holds it is your partner, "
            "but nobody knows who until it is played."
        ),
        "rule": N_(
            "Calling: the picker calls a fail ace it does not hold, and keeps a card of "
            "that suit until the suit is led."
        ),
    },
    "lead-trump": {
        "do": N_(
            "You lead this trick. Your side has the strong trumps: lead trump, the {card}, "
            "to draw out the others' trumps."
        ),
        "rule": N_(
            "Trumps: the four queens, the four jacks, then the diamonds (ace, ten, king, nine, "
            "eight, seven). Any trump beats any card of a fail suit."
        ),
    },
    "follow": {
        "do": N_(
            "The lead is in {suits} and you hold {suits}: you must follow suit. Play the {card}."
        ),
        "rule": N_(
            "Following suit: play a card of the suit led if you hold one; only a player "
            "who holds none may play any card. The trumps count as one suit."
        ),
    },
    "follow-trump": {
        "do": N_(
            "Trump was led and you hold trumps: you must play one. "
            "This trick is not yours to take, so play the {card}."
        ),
        "rule": N_(
            "Following suit: play a card of the suit led if you hold one; only a player "
            "who holds none may play any card. The trumps count as one suit."
        ),
    },
    "trump-in": {
        "do": N_(
            "The lead is in {suits} and you hold none: you may play any card. "
            "Trump it with the {card} and take the trick."
        ),
        "rule": N_(
            "Trumping: a player who cannot follow suit may play a trump, "
            "and any trump beats any card of a fail suit."
        ),
    },
    "schmear": {
        "do": N_(
            "Your side is sure to take this trick: nobody after you can beat it. "
            "Schmear it: give it your points, the {card}."
        ),
        "rule": N_(
            "Schmearing: putting a card of many points (an ace, 11; a ten, 10) on a trick "
            "your side is sure to win. A trick's card points go to its winner's side."
        ),
    },
}

#: The engine's refusals of an action (``refusals.py``) as the server words them, in the
#: third person ("seat 3 must follow hearts"): the API's English ``detail``/``text``,
#: which the golden records match byte for byte. English only (the page says a card's
#: refusal to the player, from ``REFUSALS``), so not marked for translation. ``{who}`` is
#: "the picker" or "seat 3", ``{suits}`` a suit in the plural or "trump", ``{suit}`` a fail
#: suit's word, ``{expected}`` what the phase asks for, ``{choices}`` the legal calls.
ENGINE_REFUSALS: dict[str, dict[str, str]] = {
    "hand-over": {"server": "the hand is over"},
    "no-seat": {"server": "there is no seat {seat} at a table of {players}"},
    "not-your-turn": {"server": "it is seat {turn}'s turn, not seat {seat}'s"},
    "wrong-phase": {"server": "seat {seat} must {expected} now, not {verb}"},
    "dealer-must-pick": {"server": "everyone else passed: the dealer must pick"},
    "bury-count": {"server": "the picker buries {size} cards, not {count}"},
    "bury-not-held": {"server": "the picker does not hold {card}"},
    "bury-not-allowed": {"server": "that bury is not allowed"},
    "alone-not-allowed": {"server": "going alone is not allowed while a partner can be called"},
    "call-jd-held": {"server": "the picker holds the jack of diamonds and cannot call it"},
    "call-jd-rule": {"server": "under the jack-of-diamonds rule the picker may {choices}"},
    "call-held": {"server": "the picker holds {card} and cannot call it"},
    "call-ten-not-played": {"server": "the called ten is not played under these rules"},
    "call-ten-needs-aces": {
        "server": "a ten may be called only by a picker who holds all three fail aces"
    },
    "call-ten-needs-ace": {
        "server": "{card} cannot be called: the picker must hold that suit's ace in hand"
    },
    "call-not-ace": {"server": "{card} cannot be called: call a fail ace, or a ten"},
    "call-needs-suit": {
        "server": "the picker must hold a {suit} to call {card}",
        "server-unknown-allowed": (
            "the picker must hold a {suit} to call {card} (or call it with an unknown card)"
        ),
    },
    "call-not-now": {"server": "{card} cannot be called now"},
    "unknown-not-played": {"server": "the unknown-card call is not played under these rules"},
    "unknown-has-suit": {
        "server": "the picker holds a {suit}: call {card} without an unknown card"
    },
    "unknown-not-held": {
        "server": "the unknown card must be in the picker's hand, and {unknown} is not"
    },
    "unknown-not-now": {"server": "an unknown card may be called only when no ace can be called"},
    "partner-no-crack": {"server": "the picker's partner may not crack"},
    "name-range": {"server": "name a trick from 1 to {tricks}, not {trick}"},
    "not-now": {"server": "seat {seat} may not {action} now"},
    # A card's refusals, from the rules kernel.
    "not-held": {"server": "seat {seat} does not hold {card}"},
    "lead-only-with": {"server": "{who} may lead {suits} only with {card} until {suits} are led"},
    "must-follow": {"server": "{who} must follow {suits}"},
    "must-play-on-first-trick": {"server": "{who} must play {card} on the first {suit} trick"},
    "keep-unknown": {"server": "{who} must keep the unknown card until {suits} are led"},
    "keep-card": {"server": "{who} must keep {card} until {suits} are led"},
    "keep-suit": {"server": "{who} must keep a {suit} until {suits} are led"},
}

#: The scripts a display name may not mix, as ICU names them ("Cyrillic"), in words.
SCRIPTS: dict[str, str] = {
    "Latin": N_("Latin"),
    "Cyrillic": N_("Cyrillic"),
    "Greek": N_("Greek"),
    "Armenian": N_("Armenian"),
    "Georgian": N_("Georgian"),
    "Hebrew": N_("Hebrew"),
    "Arabic": N_("Arabic"),
    "Bengali": N_("Bengali"),
    "Devanagari": N_("Devanagari"),
    "Thai": N_("Thai"),
    "Han": N_("Han"),
    "Hangul": N_("Hangul"),
    "Hiragana": N_("Hiragana"),
    "Katakana": N_("Katakana"),
}


def refusal_english(code: str, params: Mapping[str, Any], variant: str = "you") -> str:
    """A refusal's sentence in English from its code and params."""
    return english(REFUSALS[code][variant], params)
