"""Cards: the 32-card Sheepshead deck, its text form, trump order and card points.

A card is written with two characters, rank then suit: ``QC``, ``TD``, ``7H``.
Readers also accept ``10D`` for ``TD``; writers always write ``TD``.

There are exactly 32 ``Card`` objects: ``Card(Rank.QUEEN, Suit.CLUBS)`` and
``Card.parse("QC")`` return the same object, so cards compare by identity and
the engine can keep per-card facts (points, trump strength) as plain slots.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any, ClassVar, NoReturn


class Suit(StrEnum):
    CLUBS = "C"
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"

    @property
    def word(self) -> str:
        """The suit's name in words, singular: "club", "heart"."""
        return _SUIT_WORDS[self]

    @property
    def plural(self) -> str:
        return _SUIT_WORDS[self] + "s"


class Rank(StrEnum):
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def word(self) -> str:
        return _RANK_WORDS[self]


_SUIT_WORDS = {
    Suit.CLUBS: "club",
    Suit.SPADES: "spade",
    Suit.HEARTS: "heart",
    Suit.DIAMONDS: "diamond",
}
_RANK_WORDS = {
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
    Rank.ACE: "ace",
}

#: The fail suits, in the order the rule sheet names them.
FAIL_SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS)

#: Card points by rank: ace 11, ten 10, king 4, queen 3, jack 2, the rest 0.
POINTS: dict[Rank, int] = {
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.NINE: 0,
    Rank.EIGHT: 0,
    Rank.SEVEN: 0,
}

#: Fail suits rank A 10 K 9 8 7, high to low (no queens or jacks: those are trump).
FAIL_RANKS: tuple[Rank, ...] = (Rank.ACE, Rank.TEN, Rank.KING, Rank.NINE, Rank.EIGHT, Rank.SEVEN)

_TRUMP_TEXT = ["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D", "7D"]


class Card:
    """One of the 32 cards. Immutable and interned: compare with ``==`` or ``is``."""

    __slots__ = ("bit", "fail_suit", "index", "is_trump", "points", "power", "rank", "suit", "text")

    rank: Rank
    suit: Suit
    text: str
    #: Position in the canonical deck order (clubs, spades, hearts, diamonds; 7 to A).
    index: int
    points: int
    is_trump: bool
    #: The fail suit this card follows as, or None for a trump (trumps are one suit).
    fail_suit: Suit | None
    #: Trick-taking strength: any trump (101..114) beats any fail card (1..6);
    #: fail cards compare only within the suit led.
    power: int
    #: The card as a one-bit mask, the rules kernel's form (``kernel.py`` has the layout):
    #: within a suit a higher bit is a stronger card, and every trump is above every fail card.
    bit: int

    _all: ClassVar[dict[tuple[Rank, Suit], Card]] = {}
    _by_text: ClassVar[dict[str, Card]] = {}

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        try:
            return cls._all[(Rank(rank), Suit(suit))]
        except (KeyError, ValueError):
            raise ValueError(f"no such card: {rank!r} of {suit!r}") from None

    @classmethod
    def _make(cls, rank: Rank, suit: Suit, index: int) -> Card:
        card = object.__new__(cls)
        text = f"{rank.value}{suit.value}"
        trump = text in _TRUMP_TEXT
        power = 114 - _TRUMP_TEXT.index(text) if trump else 6 - FAIL_RANKS.index(rank)
        # Fail suits take bits 0-5 (clubs), 6-11 (spades), 12-17 (hearts); trumps 18-31.
        position = 17 + power - 100 if trump else 6 * FAIL_SUITS.index(suit) + power - 1
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("text", text),
            ("index", index),
            ("points", POINTS[rank]),
            ("is_trump", trump),
            ("fail_suit", None if trump else suit),
            ("power", power),
            ("bit", 1 << position),
        ):
            object.__setattr__(card, name, value)
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``QC``, ``TD`` or ``10D`` (case-insensitive). Raises ValueError."""
        card = cls._by_text.get(text)
        if card is not None:
            return card
        if not isinstance(text, str):
            raise ValueError(f"a card is written as text such as 'QC', not {text!r}")
        norm = text.strip().upper()
        if norm.startswith("10"):
            norm = "T" + norm[2:]
        card = cls._by_text.get(norm)
        if card is None:
            raise ValueError(f"not a card: {text!r} (write rank then suit, such as QC, TD or 10D)")
        return card

    @property
    def name(self) -> str:
        """The card in words: "queen of clubs"."""
        return f"{self.rank.word} of {self.suit.plural}"

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Card.parse, (self.text,))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"


def _build_deck() -> tuple[Card, ...]:
    deck: list[Card] = []
    for suit in Suit:
        for rank in Rank:
            card = Card._make(rank, suit, len(deck))
            Card._all[(rank, suit)] = card
            Card._by_text[card.text] = card
            deck.append(card)
    return tuple(deck)


#: The 32 cards in canonical order: 7C 8C 9C TC JC QC KC AC 7S ... AD.
#: The seeded shuffle (see ``deal.py``) starts from this order.
DECK: tuple[Card, ...] = _build_deck()

#: The 14 trumps, high to low: QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D.
TRUMPS: tuple[Card, ...] = tuple(Card.parse(t) for t in _TRUMP_TEXT)


def ace_of(suit: Suit) -> Card:
    return Card(Rank.ACE, suit)


def ten_of(suit: Suit) -> Card:
    return Card(Rank.TEN, suit)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read cards from ``"QC TD 7H"`` or an iterable of card strings."""
    items = text.split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(item) for item in items)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card.text for card in cards)


def card_points(cards: Iterable[Card]) -> int:
    return sum(card.points for card in cards)


def sort_key(card: Card) -> tuple[int, int, int]:
    """Display order for a seat's cards: trump first, high to low, then each fail suit."""
    if card.is_trump:
        return (0, 0, -card.power)
    return (1, FAIL_SUITS.index(card.suit), -card.power)


def sorted_for_display(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=sort_key))


def text_key(card: Card) -> str:
    """Byte order of the text form, used where records list cards (a bury)."""
    return card.text
