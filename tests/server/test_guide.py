"""The rules guide as a reader and a search engine get it: every page with its title and
description, every option of the rules object explained where the guide says, every
glossary term the table uses with its anchor, no broken link, the examples true to
their hand records, and the rule fragments the table opens in place."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from enum import StrEnum
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sheepshead.record import check, loads
from sheepshead.rules import PRESETS, RULE_FIELDS, Result, Rules
from sheepshead.server import Settings, create_app
from sheepshead.server.guide import (
    GLOSSARY,
    OPTION_SECTIONS,
    PAGES,
    Page,
    example_text,
    sections,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

STATIC = Path(__file__).resolve().parents[2] / "src" / "sheepshead" / "server"


class Parsed(HTMLParser):
    """What a test reads from a page: title, description, ids, links, headings, text."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.title = ""
        self.description: str | None = None
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.h1 = 0
        self.text: list[str] = []
        self._in_title = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"] or "")
        if tag == "a" and a.get("href"):
            self.links.append(a["href"] or "")
        if tag == "meta" and a.get("name") == "description":
            self.description = a.get("content")
        if tag == "title":
            self._in_title = True
        if tag == "h1":
            self.h1 += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        self.text.append(data)

    @property
    def words(self) -> str:
        return re.sub(r"\s+", " ", "".join(self.text))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=tmp_path_factory.mktemp("guide"), dev=True))
    yield TestClient(app, base_url="http://localhost")
    app.state.engine.dispose()


def get(client: TestClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    text: str = response.text
    return text


def fragment(client: TestClient, anchor: str) -> str:
    return get(client, f"/guide/fragment/{anchor}")


# --- pages ---------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.slug)
def test_every_guide_page_has_its_own_title_description_and_heading(
    client: TestClient, page: Page
) -> None:
    response = client.get(page.url)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    parsed = Parsed(response.text)
    assert parsed.title == page.head_title
    assert parsed.description == page.description
    # What a search engine shows: a snippet of a useful length.
    assert 70 <= len(parsed.description or "") <= 170, parsed.description
    assert parsed.h1 == 1


def test_titles_and_descriptions_are_unique() -> None:
    assert len({p.head_title for p in PAGES}) == len(PAGES)
    assert len({p.description for p in PAGES}) == len(PAGES)


def test_the_five_parts_follow_the_rule_sheet(client: TestClient) -> None:
    parts = [p.title for p in PAGES if p.part]
    assert parts == [
        "The standard game",
        "Card ranks and card points",
        "Picking, the bury and the partner",
        "Scoring a hand",
        "Nobody picks, and other head counts",
    ]
    index = Parsed(get(client, "/guide"))
    for page in PAGES:
        assert page.url in index.links


def test_no_link_in_the_guide_or_home_page_is_broken(client: TestClient) -> None:
    urls = [p.url for p in PAGES] + ["/"] + [f"/guide/fragment/{a}" for a in sections()]
    pages = {url: Parsed(get(client, url)) for url in urls}
    checked = 0
    for url, page in pages.items():
        for link in page.links:
            # The language switch's links (same page, ?lang=) would remember a language.
            if not link.startswith("/") or link.startswith("/static/") or "lang=" in link:
                continue
            path, _, anchor = link.partition("#")
            target = pages.get(path) or Parsed(get(client, path))
            if anchor:
                assert anchor in target.ids, f"{url} links to {link}: no such anchor"
            checked += 1
    assert checked > 200


def test_the_guide_reads_without_script(client: TestClient) -> None:
    # Every card is a labelled box with its index in text: the page makes sense with no
    # drawing at all, and guide.js only adds the picture.
    html = get(client, "/guide/cards")
    cards = re.findall(
        r'<span class="gc[^"]*" data-card="(\w\w)" role="img" aria-label="([^"]+)">'
        r'<span class="gc-ix" aria-hidden="true">([^<]+)</span>',
        html,
    )
    assert len(cards) == 14 + 18
    assert cards[0] == ("QC", "queen of clubs", "Q♣")
    assert ("TD", "ten of diamonds", "10♦") in cards
    # Nothing in the body runs before the page's module scripts at its end.
    assert "<script" not in html.split("</head>")[1].split('<script type="module"')[0]


# --- every option, every term ------------------------------------------------------------


@pytest.mark.parametrize("name", RULE_FIELDS)
def test_every_option_of_the_rules_has_a_section_that_names_it(
    client: TestClient, name: str
) -> None:
    anchor = OPTION_SECTIONS[name]
    html = fragment(client, anchor)
    assert f'<section id="{anchor}"' in html
    assert f"<code>{name}</code>" in html, f"{anchor} does not name {name}"
    default = getattr(Rules(), name)
    values: list[str]
    if isinstance(default, StrEnum):
        values = [f'"{v.value}"' for v in type(default)]
    elif isinstance(default, bool):
        values = ["true", "false"]
    else:
        values = ["3", "4", "5", "6"]
    for value in values:
        assert f"<code>{value}</code>" in html, f"{anchor} does not give {name} {value}"
    # And the table of every option, in part 1, links to that section.
    standard = get(client, "/guide/standard")
    row = re.search(rf"<tr><th scope=\"row\"><code>{name}</code></th>.*?</tr>", standard)
    assert row
    assert f"#{anchor}" in row.group(0)


def test_every_section_is_a_fragment_with_its_anchor(client: TestClient) -> None:
    found = sections()
    assert len(found) > 40
    for anchor, slug in found.items():
        html = fragment(client, anchor)
        assert f'<section id="{anchor}"' in html
        assert f'href="/guide/{slug}#{anchor}"' in html or f'href="/guide#{anchor}"' in html


def test_a_rule_links_only_to_rules_that_open_in_place_too(client: TestClient) -> None:
    # In the table's dialog, a link to another section or glossary entry opens that one
    # in place (guide.js), so each must be a fragment of its own.
    anchors = set(sections()) | {a for a, _ in GLOSSARY}
    linked = set()
    for anchor in anchors:
        for link in Parsed(fragment(client, anchor)).links:
            path, _, target = link.partition("#")
            if path.startswith("/guide/") and target:
                linked.add(target)
    assert linked, linked - anchors
    assert linked <= anchors, linked - anchors
    for anchor in linked:
        fragment(client, anchor)


# The table's words for the game, and the glossary entry each needs.
TABLE_VOCABULARY = {
    r"\bpick(er|s|ed)?\b": "picker",
    r"\bpartners?\b": "partner",
    r"\bblind\b": "blind",
    r"\bbur(y|ies|ied)\b": "bury",
    r"\bdeal(er|s)\b": "dealer",
    r"\bdefenders?\b": "defender",
    r"\btrumps?\b": "trump",
    r"\bcrack": "crack",
    r"\balone\b": "alone",
    r"\bleaster\b": "leaster",
    r"\bdoubler\b|thrown in": "doubler",
    r"\bschneider": "schneider",
    r"no trick|no-trick|every trick|schwarz": "no-trick",
    r"\bunknown card": "unknown",
    r"\bhold card": "hold-card",
    r"\bschmear": "schmear",
    r"card points": "card-points",
    r"double on the bump": "double-on-the-bump",
    r"\btricks?\b": "trick",
    r"\blead\b|\bled\b": "lead",
    r"\bfollow\b": "follow-suit",
    r"forced pick": "forced-pick",
    r"\bcall(s|ed)?\b": "called-ace",
    r"\bfail\b": "fail",
}


def test_every_glossary_term_the_table_uses_has_an_anchor(client: TestClient) -> None:
    table = "\n".join(
        (STATIC / rel).read_text()
        for rel in (
            "templates/table.html",
            "static/js/render.js",
            "static/js/dialogs.js",
            "static/js/table.js",
            "static/js/state.js",
        )
    )
    used = {
        anchor for pattern, anchor in TABLE_VOCABULARY.items() if re.search(pattern, table, re.I)
    }
    assert len(used) >= 15, used
    glossary = Parsed(get(client, "/guide/glossary"))
    assert used <= glossary.ids, used - glossary.ids
    assert {a for a, _ in GLOSSARY} <= glossary.ids
    # The terms the issue names, each at /guide/glossary#<term>.
    for anchor in (
        "picker",
        "partner",
        "blind",
        "bury",
        "hold-card",
        "unknown",
        "schmear",
        "schneider",
        "leaster",
        "doubler",
        "crack",
        "fail",
        "trump",
    ):
        assert anchor in glossary.ids


# --- the examples ---------------------------------------------------------------------


def test_the_trick_demonstration_is_built_from_its_hand_record(client: TestClient) -> None:
    game = loads(example_text("one-trick"))
    [trick] = game.tricks
    assert [c.text for c in trick.cards] == ["TC", "AC", "7D", "KC", "9H"]
    assert (trick.winner, trick.points) == (3, 25)
    html = fragment(client, "trick-demo")
    plays = re.findall(r'<li data-seat="(\d)" data-card="(\w\w)"( data-wins="true")?>', html)
    assert plays == [
        ("1", "TC", ""),
        ("2", "AC", ""),
        ("3", "7D", ' data-wins="true"'),
        ("4", "KC", ""),
        ("0", "9H", ""),
    ]
    text = Parsed(html).words
    assert "seven of diamonds wins" in text
    assert "25 card points (10 + 11 + 0 + 4 + 0)" in text
    assert "the lowest trump" in text


def test_the_worked_hand_is_a_legal_plain_win_with_the_bury_counted(client: TestClient) -> None:
    code, result = check(example_text("plain-win"))
    assert code == 0
    assert result["complete"]
    assert result["result"] == Result.WIN.value
    game = loads(example_text("plain-win"))
    bury = sum(c.points for c in game.bury)
    picker, partner = result["picker"], result["partners"][0]
    in_tricks = sum(t["points"] for t in result["tricks"] if t["winner"] in (picker, partner))
    assert bury > 0
    assert in_tricks + bury == result["points"][0]
    assert 61 <= result["points"][0] <= 90
    page = Parsed(get(client, "/guide/worked-hand"))
    text = page.words
    assert f"{in_tricks} + {bury} = {result['points'][0]}" in text
    # One note per trick, each naming who took it.
    html = get(client, "/guide/worked-hand")
    notes = re.findall(
        r'<h3>Trick (\d): (\w+) takes (\d+)</h3>.*?<p class="trick-note">(.*?)</p>', html, re.S
    )
    assert len(notes) == len(result["tricks"]) == 6
    names = ["Ada", "Ben", "Cora", "Dan", "Eve"]
    for (number, winner, points, note), trick in zip(notes, result["tricks"], strict=True):
        assert winner == names[trick["winner"]], number
        assert int(points) == trick["points"], number
        assert winner in note, (number, note)
    # The score as the engine gives it: picker +2, partner +1, defenders -1.
    assert result["scores"][picker] == 2
    assert result["scores"][partner] == 1
    for seat, name in enumerate(names):
        role = "picker" if seat == picker else "partner" if seat == partner else "defender"
        shown = "+2" if role == "picker" else "+1" if role == "partner" else "−1"
        assert f'<th scope="row">{name}</th><td>{role}</td><td class="num">{shown}</td>' in html


def test_the_examples_download_as_hand_records(client: TestClient) -> None:
    for name in ("one-trick", "plain-win"):
        response = client.get(f"/guide/examples/{name}.json")
        assert response.status_code == 200
        assert response.json()["format"] == "sheepshead-hand/1"
        assert check(json.dumps(response.json()))[0] == 0
    assert client.get("/guide/examples/nope.json").status_code == 404


# --- scoring, questions, history, home --------------------------------------------------


def score_row(html: str, result: str, bump: bool) -> list[str]:
    bumped = ' data-bump="true"' if bump else ""
    pattern = rf'<tr data-result="{result}"{bumped}>(.*?)</tr>'
    row = re.search(pattern, html, re.S)
    assert row, (result, bump)
    return [c.strip() for c in re.findall(r'<td class="num">(.*?)</td>', row.group(1))]


def test_the_score_table_gives_every_result_with_and_without_a_partner(client: TestClient) -> None:
    html = get(client, "/guide/scoring")
    # picker, partner, each defender; picker alone, each defender against a lone picker.
    assert score_row(html, "win", False) == ["+2", "+1", "−1", "+4", "−1"]
    assert score_row(html, "win-schneider", False) == ["+4", "+2", "−2", "+8", "−2"]
    assert score_row(html, "win-no-trick", False) == ["+6", "+3", "−3", "+12", "−3"]
    assert score_row(html, "loss", False) == ["−2", "−1", "+1", "−4", "+1"]
    assert score_row(html, "loss", True) == ["−4", "−2", "+2", "−8", "+2"]
    assert score_row(html, "loss-schneider", True) == ["−8", "−4", "+4", "−16", "+4"]
    assert score_row(html, "loss-no-trick", True) == ["−12", "−6", "+6", "−24", "+6"]


QUESTIONS = [
    "How do you play Sheepshead?",
    "What cards are trump?",
    "How many points do you need to win a hand?",
    "How many players do you need?",
    "What happens if nobody picks?",
    "Who is my partner?",
    "What does the daily game count?",
]


#: What players ask once they have played: only the questions page answers these, first.
TABLE_QUESTIONS = [
    "What is schneider?",
    "Why does the score sheet say “lost ×2”?",
    "How do you win a leaster?",
    "What is the unknown card?",
    "What is cracking?",
    "How is the daily game scored?",
    "How do the computer players play?",
    "Are the deals fair?",
]


@pytest.mark.parametrize(
    ("url", "questions"),
    [("/guide/questions", TABLE_QUESTIONS + QUESTIONS), ("/", QUESTIONS)],
)
def test_the_questions_are_answered_in_two_or_three_sentences(
    client: TestClient, url: str, questions: list[str]
) -> None:
    html = get(client, url)
    answers = re.findall(
        r"<summary><h[23]>(.*?)</h[23]></summary>\s*<p>(.*?)<a href=\"(/[^\"]*)\"", html, re.S
    )
    assert [q for q, _, _ in answers] == questions
    for question, answer, link in answers:
        sentences = re.findall(r"[.?!](?:\s|$)", answer.strip())
        assert 2 <= len(sentences) <= 3, (question, answer)
        assert link.startswith(("/guide", "/daily", "/leaderboard", "/verify", "/play"))


def test_the_history_page_tells_the_seeds_account_and_credits_its_sources(
    client: TestClient,
) -> None:
    text = Parsed(get(client, "/guide/history")).words
    for fact in (
        "Schafkopf",
        "Bavaria",
        "four players in fixed partnerships",
        "three, four, six and eight players",
        "three-handed game as the standard",
        "Milwaukee",
        "southern Indiana",
        "1983",
        "tournaments",
        "nine lines",
        "barrels",
        "Eric Bushnell",
        "CC BY-SA 4.0",
        "pagat.com",
        "English Wikipedia",
        "Which examples are ours",
    ):
        assert fact in text, fact


def test_the_home_page_carries_the_guide_below_the_play_button(client: TestClient) -> None:
    html = get(client, "/")
    play = html.index('href="/play"')
    for heading in (
        "How it works",
        "How one trick is won",
        "Who is the partner?",
        "Questions and answers",
    ):
        assert html.index(heading) > play, heading
    assert 'data-demo-src="/guide/fragment/trick-demo"' in html
    assert 'href="/guide"' in html
    assert 'href="/guide/picking"' in html


# --- the table's rule links ---------------------------------------------------------------


def test_a_rule_has_a_lasting_address_and_unknown_ones_are_refused(client: TestClient) -> None:
    response = client.get("/guide/rule/called-ace", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == "/guide/picking#called-ace"
    assert client.get("/guide/rule/nope", follow_redirects=False).status_code == 404
    assert client.get("/guide/fragment/nope").status_code == 404
    assert client.get("/guide/nope").status_code == 404


@pytest.mark.parametrize(
    "anchor",
    [
        "picking-order",
        "forced-pick",
        "burying",
        "called-ace",
        "unknown-card",
        "called-ten",
        "jack-of-diamonds",
        "cracking",
        "leaster-rules",
        "play",
        "partner-duties",
        "duty-cards",
    ],
)
def test_every_rule_the_table_links_to_exists(client: TestClient, anchor: str) -> None:
    # These are the anchors guide.js gives decisions and refusals (ruleForDecision,
    # ruleForRefusal); each must open a section whose heading says what it is about.
    js = (STATIC / "static/js/guide.js").read_text()
    assert f'"{anchor}"' in js
    html = fragment(client, anchor)
    assert re.search(rf'<h2 id="{anchor}-h">[^<]+</h2>', html)


def test_the_presets_table_matches_the_presets(client: TestClient) -> None:
    html = get(client, "/guide/standard")
    for name, rules in PRESETS.items():
        record = json.dumps(rules.to_record())
        assert f"<code>{name}</code></th><td>{rules.players}</td>" in html
        assert record.replace('"', "&#34;") in html or record in html
