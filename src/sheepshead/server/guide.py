"""The rules guide: five parts, a hand played through, the glossary, questions and
answers, and where the game comes from. Server-rendered, readable without script.

Each section of a guide page is a Jinja block named ``s_<anchor>`` (hyphens as
underscores) around ``<section id="<anchor>">``, so ``/guide/fragment/<anchor>``
can send that one section, for the table's rule dialog, from the same source as
the page. The figures (trumps, fail suits, scores, the trick demonstration, the
worked hand) are computed here from the engine and the hand records in
``sheepshead/examples``; ``static/js/guide.js`` only draws the cards and animates.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import jinja2
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from sheepshead.actions import Play as PlayAction
from sheepshead.cards import FAIL_SUITS, TRUMPS, Card, Rank, Suit, sorted_for_display
from sheepshead.game import Game
from sheepshead.record import replay
from sheepshead.rules import PRESETS, RESULT_MULTIPLIER, Result, Rules, picker_scores
from sheepshead.server.i18n import N_

router = APIRouter(include_in_schema=False)

#: Guide pages change only with a deployment; a short cache keeps them quick to revisit.
CACHE = "public, max-age=600"


@dataclass(frozen=True, slots=True)
class Page:
    slug: str
    title: str
    #: The <title>, and what a search engine shows under it.
    head_title: str
    description: str
    #: "Part 3" for the five parts of the rule sheet, else "".
    part: str = ""

    @property
    def url(self) -> str:
        return "/guide" if self.slug == "index" else f"/guide/{self.slug}"

    @property
    def template(self) -> str:
        return f"guide/{self.slug}.html"


PAGES: tuple[Page, ...] = (
    Page(
        "index",
        N_("How to play Sheepshead"),
        N_("How to play Sheepshead: the rules guide"),
        N_(
            "Learn Sheepshead, Wisconsin's trick-taking card game: the rules in five short parts, "
            "the cards drawn, a hand played through, a glossary and answers to common questions."
        ),
    ),
    Page(
        "standard",
        N_("The standard game"),
        N_("Sheepshead rules: the standard five-handed game"),
        N_(
            "One hand of five-handed Sheepshead from deal to score: picking the blind, the bury, "
            "calling an ace for a partner, following suit, and 61 card points to win."
        ),
        N_("Part 1"),
    ),
    Page(
        "cards",
        N_("Card ranks and card points"),
        N_("Sheepshead trump order and card points"),
        N_(
            "The fourteen Sheepshead trumps from the queen of clubs down to the seven of "
            "diamonds, the fail suits, and what every card is worth: 120 card points in all."
        ),
        N_("Part 2"),
    ),
    Page(
        "picking",
        N_("Picking, the bury and the partner"),
        N_("Sheepshead picking, burying and calling a partner"),
        N_(
            "Who may pick, what to bury, how the picker calls an ace, the hold card, the unknown "
            "card, the called ten, going alone and the jack of diamonds partner."
        ),
        N_("Part 3"),
    ),
    Page(
        "scoring",
        N_("Scoring a hand"),
        N_("Sheepshead scoring: card points and game points"),
        N_(
            "How a Sheepshead hand is scored: every result from no-trick to schneider with its "
            "game points, double on the bump, going alone, cracks and doubled hands."
        ),
        N_("Part 4"),
    ),
    Page(
        "nobody-picks",
        N_("Nobody picks, and other head counts"),
        N_("Sheepshead when nobody picks: leaster, doubler, forced pick"),
        N_(
            "What happens when every player passes (leaster, doubler or forced pick), cracking, "
            "and how Sheepshead is played by three, four and six players."
        ),
        N_("Part 5"),
    ),
    Page(
        "worked-hand",
        N_("A hand played through"),
        N_("A Sheepshead hand played trick by trick"),
        N_(
            "A complete hand of Sheepshead, trick by trick with a note on each: the pick, the "
            "bury, the called ace, the partner revealed, and the score of a plain win."
        ),
    ),
    Page(
        "glossary",
        N_("Glossary"),
        N_("Sheepshead glossary: picker, blind, bury, schmear, schneider"),
        N_(
            "The words of Sheepshead explained: picker, partner, blind, bury, hold card, unknown, "
            "schmear, schneider, leaster, doubler, crack, fail, trump and more."
        ),
    ),
    Page(
        "questions",
        N_("Questions and answers"),
        N_("Sheepshead questions and answers"),
        N_(
            "Short answers to what newcomers ask about Sheepshead: how to play, what is trump, "
            "how many points win, how many players, what if nobody picks, who is the partner."
        ),
    ),
    Page(
        "history",
        N_("Where the game comes from"),
        N_("Sheepshead history: from Schafkopf to Wisconsin"),
        N_(
            "Where Sheepshead comes from: the German Schafkopf, the old rule books, Milwaukee's "
            "official card game since 1983, the name, and the sources this site's rules follow."
        ),
    ),
)
PAGE_BY_SLUG = {page.slug: page for page in PAGES}

#: Each option of the rules object and the guide section that explains it.
OPTION_SECTIONS: dict[str, str] = {
    "players": "head-counts",
    "partner": "partner-rules",
    "call_unknown": "unknown-card",
    "call_ten": "called-ten",
    "alone": "going-alone",
    "jd_picker_holds": "jack-of-diamonds",
    "second_partner": "second-partner",
    "nobody_picks": "when-all-pass",
    "leaster_blind": "leaster-rules",
    "leaster_needs_trick": "leaster-rules",
    "double_on_the_bump": "multipliers",
    "forced_pick_bump": "forced-pick",
    "cracking": "cracking",
}

#: The glossary, in its order on the page: anchor and term.
GLOSSARY: tuple[tuple[str, str], ...] = (
    ("alone", N_("Alone")),
    ("blind", N_("Blind")),
    ("bury", N_("Bury")),
    ("called-ace", N_("Called ace")),
    ("card-points", N_("Card points")),
    ("crack", N_("Crack")),
    ("dealer", N_("Dealer")),
    ("defender", N_("Defender")),
    ("double-on-the-bump", N_("Double on the bump")),
    ("doubler", N_("Doubler")),
    ("fail", N_("Fail")),
    ("follow-suit", N_("Follow suit")),
    ("forced-pick", N_("Forced pick")),
    ("game-points", N_("Game points")),
    ("hold-card", N_("Hold card")),
    ("lead", N_("Lead")),
    ("leaster", N_("Leaster")),
    ("no-trick", N_("No-trick (schwarz)")),
    ("partner", N_("Partner")),
    ("picker", N_("Picker")),
    ("schmear", N_("Schmear")),
    ("schneider", N_("Schneider")),
    ("trick", N_("Trick")),
    ("trump", N_("Trump")),
    ("unknown", N_("Unknown")),
)

#: The players of the guide's examples, seat 0 first (seat 0 deals).
SEAT_NAMES: tuple[str, ...] = ("Ada", "Ben", "Cora", "Dan", "Eve")

EXAMPLES = ("one-trick", "plain-win")

_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦"}


@dataclass(frozen=True, slots=True)
class CardInfo:
    """What a page needs to show a card without script: its code, index and name."""

    text: str
    index: str
    name: str
    points: int
    red: bool


def card_info(card: Card | str) -> CardInfo:
    card = Card.parse(card) if isinstance(card, str) else card
    rank = "10" if card.rank is Rank.TEN else card.rank.value
    return CardInfo(
        text=card.text,
        index=rank + _SUIT_SYMBOLS[card.suit],
        name=card.name,
        points=card.points,
        red=card.suit in (Suit.HEARTS, Suit.DIAMONDS),
    )


# The examples ------------------------------------------------------------------------


def example_text(name: str) -> str:
    return resources.files("sheepshead").joinpath(f"examples/{name}.json").read_text("utf-8")


@cache
def example_game(name: str) -> Game:
    return replay(json.loads(example_text(name)))


@dataclass(frozen=True, slots=True)
class PlayShown:
    seat: int
    who: str
    card: CardInfo
    wins: bool


@dataclass(frozen=True, slots=True)
class TrickShown:
    number: int
    leader: str
    winner: str
    winner_seat: int
    points: int
    plays: tuple[PlayShown, ...]
    #: The picker's side's card points in tricks so far, and the defenders'.
    side_total: int
    defence_total: int
    #: Whether the picker's side took it.
    for_side: bool


def _tricks(game: Game, side: frozenset[int]) -> tuple[TrickShown, ...]:
    out: list[TrickShown] = []
    side_total = defence_total = 0
    n = game.rules.players
    for number, trick in enumerate(game.tricks, start=1):
        if trick.winner in side:
            side_total += trick.points
        else:
            defence_total += trick.points
        plays = tuple(
            PlayShown(seat, SEAT_NAMES[seat], card_info(card), seat == trick.winner)
            for seat, card in trick.plays(n)
        )
        out.append(
            TrickShown(
                number=number,
                leader=SEAT_NAMES[trick.leader],
                winner=SEAT_NAMES[trick.winner],
                winner_seat=trick.winner,
                points=trick.points,
                plays=plays,
                side_total=side_total,
                defence_total=defence_total,
                for_side=trick.winner in side,
            )
        )
    return tuple(out)


@cache
def demo_trick() -> TrickShown:
    """The one-trick example: 10C led, AC, 7D, KC, 9H; the seven of diamonds wins."""
    game = example_game("one-trick")
    [trick] = _tricks(game, frozenset())
    return trick


@cache
def worked_hand() -> dict[str, Any]:
    """The worked hand's facts, all read from its record and the engine's result."""
    game = example_game("plain-win")
    result = game.result()
    assert result is not None
    assert result.picker is not None
    side = frozenset((result.picker, *result.partners))
    tricks = _tricks(game, side)
    bury_points = sum(c.points for c in game.bury)
    return {
        "dealer": SEAT_NAMES[game.dealer],
        "hands": [
            (SEAT_NAMES[seat], [card_info(c) for c in sorted_for_display(cards)])
            for seat, cards in enumerate(game.dealt)
        ],
        "blind": [card_info(c) for c in game.blind],
        "bury": [card_info(c) for c in game.bury],
        "bury_points": bury_points,
        "picker": SEAT_NAMES[result.picker],
        "partner": SEAT_NAMES[result.partners[0]],
        "called": card_info(game.called) if game.called else None,
        "moves": [str(m) for m in game.moves if not isinstance(m.action, PlayAction)],
        "tricks": tricks,
        "trick_points": tricks[-1].side_total,
        "points": result.points,
        "result": result.result.value,
        "scores": [(SEAT_NAMES[s], score) for s, score in enumerate(result.scores)],
    }


# Tables computed from the engine ----------------------------------------------------


def trump_ladder() -> list[CardInfo]:
    return [card_info(c) for c in TRUMPS]


def fail_suits() -> list[tuple[str, list[CardInfo]]]:
    order = (Rank.ACE, Rank.TEN, Rank.KING, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
    return [
        (suit.plural, [card_info(f"{rank.value}{suit.value}") for rank in order])
        for suit in FAIL_SUITS
    ]


RESULT_WORDS: dict[Result, str] = {
    Result.WIN_NO_TRICK: N_("every trick (no-trick)"),
    Result.WIN_SCHNEIDER: N_("91 to 120, not every trick (schneider)"),
    Result.WIN: N_("61 to 90"),
    Result.LOSS: N_("31 to 60"),
    Result.LOSS_SCHNEIDER: N_("0 to 30, at least one trick (schneidered)"),
    Result.LOSS_NO_TRICK: N_("no trick (no-trick)"),
}


def score_rows() -> list[dict[str, Any]]:
    """Five players: every result's game points, with a partner and alone, and the
    losses again doubled on the bump (the default)."""
    rows: list[dict[str, Any]] = []
    for bump in (False, True):
        for result, words in RESULT_WORDS.items():
            if bump and not result.is_loss:
                continue
            times = 2 if bump else 1
            with_partner = picker_scores(5, 0, frozenset({1}), result, times)
            alone = picker_scores(5, 0, frozenset(), result, times)
            rows.append(
                {
                    "result": result.value,
                    "words": words,
                    "m": RESULT_MULTIPLIER[result],
                    "bump": bump,
                    "picker": with_partner[0],
                    "partner": with_partner[1],
                    "defender": with_partner[2],
                    "alone": alone[0],
                    "against_alone": alone[1],
                }
            )
    return rows


def head_count_rows() -> list[dict[str, Any]]:
    """A plain win's game points at each table (m = 1)."""
    shapes = (
        (N_("3 players: the picker alone against 2"), 3, 0),
        (N_("4 players, no partner: alone against 3"), 4, 0),
        (N_("4 players, called ace: 2 against 2"), 4, 1),
        (N_("5 players, called ace or jack of diamonds: 2 against 3"), 5, 1),
        (N_("5 players, alone against 4"), 5, 0),
        (N_("6 players, jack of diamonds: 2 against 4"), 6, 1),
        (N_("6 players, with a second partner: 3 against 3"), 6, 2),
        (N_("6 players, alone against 5"), 6, 0),
    )
    rows = []
    for words, players, partners in shapes:
        scores = picker_scores(players, 0, frozenset(range(1, partners + 1)), Result.WIN, 1)
        rows.append(
            {
                "words": words,
                "picker": scores[0],
                "partner": scores[1] if partners else None,
                "defender": scores[-1],
            }
        )
    return rows


def preset_rows() -> list[tuple[str, Rules, str]]:
    return [(name, rules, json.dumps(rules.to_record())) for name, rules in PRESETS.items()]


# Rendering ---------------------------------------------------------------------------


def section_url(anchor: str) -> str:
    """The guide address of a section or glossary entry: ``/guide/picking#called-ace``."""
    slug = sections().get(anchor)
    if slug is None:
        if anchor not in dict(GLOSSARY):
            raise KeyError(f"no guide section or glossary entry {anchor!r}")
        slug = "glossary"
    return f"{PAGE_BY_SLUG[slug].url}#{anchor}"


def term_url(anchor: str) -> str:
    if anchor not in dict(GLOSSARY):
        raise KeyError(f"no glossary entry {anchor!r}")
    return f"/guide/glossary#{anchor}"


_SECTIONS: dict[str, str] = {}


def sections() -> dict[str, str]:
    """Every section anchor and the page it is on, read from the templates' blocks."""
    return _SECTIONS


def _load_sections(env: jinja2.Environment) -> None:
    if _SECTIONS:
        return
    found: dict[str, str] = {}
    for page in PAGES:
        for block in env.get_template(page.template).blocks:
            if block.startswith("s_"):
                found[block[2:].replace("_", "-")] = page.slug
    _SECTIONS.update(found)


def _context(request: Request, page: Page) -> dict[str, Any]:
    context: dict[str, Any] = {
        "request": request,
        "page": "guide",
        "guide_page": page,
        "pages": PAGES,
        "ref": section_url,
        "term": term_url,
        "card": card_info,
        "glossary": GLOSSARY,
        "names": SEAT_NAMES,
        "demo": demo_trick(),
        "hand": worked_hand(),
        "trumps": trump_ladder(),
        "fail_suits": fail_suits(),
        "score_rows": score_rows(),
        "head_count_rows": head_count_rows(),
        "presets": preset_rows(),
    }
    # The macros come in the context, not by an import in each page, so that a section
    # rendered alone (a fragment) has them too.
    env: jinja2.Environment = request.app.state.templates.env
    context["g"] = env.get_template("guide/_macros.html").make_module(context)
    return context


def _templates(request: Request) -> Jinja2Templates:
    templates: Jinja2Templates = request.app.state.templates
    _load_sections(templates.env)
    return templates


def _page(request: Request, slug: str) -> HTMLResponse:
    page = PAGE_BY_SLUG[slug]
    templates = _templates(request)
    response = templates.TemplateResponse(request, page.template, _context(request, page))
    response.headers["cache-control"] = CACHE
    return response


@router.get("/guide", response_class=HTMLResponse)
def guide_index(request: Request) -> HTMLResponse:
    return _page(request, "index")


@router.get("/guide/fragment/{anchor}", response_class=HTMLResponse)
def guide_fragment(request: Request, anchor: str) -> HTMLResponse:
    """One section alone (for the table's rule dialog), a glossary entry (a section's
    anchor wins over a term's of the same name), or the trick demonstration."""
    templates = _templates(request)
    if anchor == "trick-demo":
        template = templates.env.get_template("guide/_demo.html")
        html = template.render(_context(request, PAGE_BY_SLUG["index"]))
    else:
        slug = sections().get(anchor)
        term = None
        if slug is None:
            term = dict(GLOSSARY).get(anchor)
            if term is None:
                raise HTTPException(status_code=404, detail=f"no guide section {anchor!r}")
            slug = "glossary"
        page = PAGE_BY_SLUG[slug]
        template = templates.env.get_template(page.template)
        block = template.blocks[("t_" if term else "s_") + anchor.replace("-", "_")]
        body = "".join(block(template.new_context(_context(request, page))))
        html = templates.env.get_template("guide/_fragment.html").render(
            section=Markup(body), page=page, anchor=anchor, term=term
        )
    return HTMLResponse(html, headers={"cache-control": CACHE})


@router.get("/guide/rule/{anchor}")
def guide_rule(request: Request, anchor: str) -> RedirectResponse:
    """A rule's lasting address, as the table links it: the section on its page."""
    _templates(request)
    if anchor not in sections():
        raise HTTPException(status_code=404, detail=f"no guide section {anchor!r}")
    return RedirectResponse(section_url(anchor), status_code=307)


@router.get("/guide/examples/{name}.json")
def guide_example(name: str) -> Response:
    """A hand record of the guide's examples, as ``sheepshead check`` reads it."""
    if name not in EXAMPLES:
        raise HTTPException(status_code=404, detail=f"no example {name!r}")
    return JSONResponse(
        json.loads(example_text(name)),
        headers={
            "cache-control": CACHE,
            "content-disposition": f'inline; filename="sheepshead-{name}.json"',
        },
    )


@router.get("/guide/{slug}", response_class=HTMLResponse)
def guide_page(request: Request, slug: str) -> HTMLResponse:
    if slug not in PAGE_BY_SLUG or slug == "index":
        raise HTTPException(status_code=404, detail=f"no guide page {slug!r}")
    return _page(request, slug)
