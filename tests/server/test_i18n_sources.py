"""Templates and scripts carry no text outside the catalogs: every word a player reads
is a message of ``locale/`` (``docs/i18n.md``), so that each language gets all of it."""

from __future__ import annotations

import re
import warnings
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import nodes

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "sheepshead" / "server"


#: Template text that is not words to translate: the game's name and a code's format.
TEMPLATE_TEXT_ALLOWED = {"Sheepshead", "XXXX-XXXX-XXXX", "width=device-width, initial-scale=1"}


class TemplateText(HTMLParser):
    SKIP = frozenset({"script", "style", "code"})
    SHOWN = frozenset({"alt", "title", "aria-label", "placeholder", "content"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skipping += 1
        for name, value in attrs:
            text = (value or "").replace("\0", " ").strip()
            words = re.search(r"[A-Za-z]{2,}", text)
            if name in self.SHOWN and words and text not in TEMPLATE_TEXT_ALLOWED:
                self.found.append(f"{name}={text!r}")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.replace("\0", " ").split())
        words = re.search(r"[A-Za-z]{2,}", text)
        if not self.skipping and words and text not in TEMPLATE_TEXT_ALLOWED:
            self.found.append(text)


def template_leftovers(source: str) -> list[str]:
    """Text of a template outside _(), {% trans %} and the other gettext calls."""
    env = jinja2.Environment(extensions=["jinja2.ext.i18n"])
    tree = env.parse(source)
    parts: list[str] = []
    strings: list[str] = []

    def walk(node: nodes.Node, in_gettext: bool = False) -> None:
        if isinstance(node, nodes.Block) and node.name == "body_class":
            return  # a class attribute's value
        if isinstance(node, nodes.Call) and isinstance(node.node, nodes.Name):
            in_gettext = in_gettext or node.node.name in {"_", "gettext", "ngettext", "pgettext"}
        if isinstance(node, nodes.Output):
            for child in node.nodes:
                if isinstance(child, nodes.TemplateData):
                    parts.append(child.data)
                else:
                    parts.append("\0")
                    walk(child, in_gettext)
            return
        if isinstance(node, nodes.Const) and isinstance(node.value, str) and not in_gettext:
            value = node.value
            if re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}|^[A-Z][a-z]+", value):
                strings.append(value)
        for inner in node.iter_child_nodes():
            walk(inner, in_gettext)

    walk(tree)
    parser = TemplateText()
    parser.feed("".join(parts))
    return parser.found + [f"string {s!r}" for s in strings]


def test_templates_have_no_text_outside_the_catalogs() -> None:
    templates = sorted((SERVER / "templates").rglob("*.html"))
    assert len(templates) > 20
    leftovers = {
        str(path.relative_to(SERVER)): found
        for path in templates
        if (found := template_leftovers(path.read_text("utf-8")))
    }
    assert not leftovers, leftovers


def test_the_template_check_finds_a_forgotten_word() -> None:
    assert template_leftovers('<p class="x">Pick up the blind</p>') == ["Pick up the blind"]
    assert template_leftovers('<a aria-label="Your cards" href="/">x</a>')
    assert template_leftovers('{% set x = ["Leads the card"] %}')
    assert not template_leftovers("<p>{% trans %}Pick up the blind{% endtrans %}</p>")
    assert not template_leftovers("<p aria-label=\"{{ _('Your cards') }}\">{{ n | num }}</p>")


#: Script literals that are not words for a reader: CSS classes, key names, the
#: trumps' card codes, action texts sent to the server, and the engine's English
#: wording that words.js reads refusal reasons from.
SCRIPT_TEXT_ALLOWED = {
    '"QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D"',
    '"dlg dlg-wide guide-rule"',
    '"act primary"',
    "`badge badge-${kind}`",
    "`call ${store.calling} unknown ${text}`",
    "`call ${store.calling} unknown ${card}`",
    '"Escape"',
    '"(?:seat \\\\d+|the picker)"',
    "`translate(${sx - tx}px, ${sy - ty}px) scale(0.7)`",
    "`translate(${wx - x}px, ${wy - y}px) scale(0.4)`",
}
#: Calls whose string arguments are code, never shown: patterns and selectors.
SCRIPT_CODE_CALLS = {"RegExp", "matchMedia", "querySelector", "querySelectorAll", "closest"}


def _without_substitutions(body: str) -> str:
    out, depth, i = [], 0, 0
    while i < len(body):
        if depth == 0 and body.startswith("${", i):
            depth, i = 1, i + 2
            out.append(" ")
        elif depth:
            depth += {"{": 1, "}": -1}.get(body[i], 0)
            i += 1
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


def looks_like_words(literal: str) -> bool:
    body = re.sub(r"<[^>]*>", " ", _without_substitutions(literal[1:-1]))
    return bool(
        re.search(r"[A-Za-z]{2,}[ ,;:]+[A-Za-z]{2,}", body)
        or re.fullmatch(r"\s*[A-Z][a-z]{2,}[.!?…]?\s*", body)
        or re.search(r"[A-Za-z]{2,}[.!?…]\s*$", body)
    )


def script_leftovers(source: str) -> list[str]:
    """String literals of a script that read like words but are not in t() or tn()."""
    from babel.messages.jslexer import tokenize

    found: list[str] = []
    calls: list[str | None] = []
    previous: Any = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tokens = list(tokenize(source, jsx=False, template_string=True))
    for token in tokens:
        if token.type == "operator" and token.value == "(":
            name = previous.value if previous is not None and previous.type == "name" else None
            calls.append(name.split(".")[-1] if name else None)
        elif token.type == "operator" and token.value == ")":
            if calls:
                calls.pop()
        elif token.type == "template_string" and re.search(r"\$\{[^}]*\btn?\(", token.value):
            # The extractor reads a template literal as one string: a message in it is lost.
            found.append(f"line {token.lineno}: t() inside a template literal: {token.value}")
        elif token.type in ("string", "template_string"):
            inside = bool(calls) and (calls[-1] in {"t", "tn"} or calls[-1] in SCRIPT_CODE_CALLS)
            allowed = inside or token.value in SCRIPT_TEXT_ALLOWED
            if not allowed and looks_like_words(token.value):
                found.append(f"line {token.lineno}: {token.value}")
        previous = token
    return found


def test_scripts_have_no_words_outside_the_catalogs() -> None:
    scripts = sorted((SERVER / "static" / "js").glob("*.js"))
    assert len(scripts) > 10
    leftovers = {
        path.name: found for path in scripts if (found := script_leftovers(path.read_text("utf-8")))
    }
    assert not leftovers, leftovers


def test_the_script_check_finds_a_forgotten_word() -> None:
    assert script_leftovers('el("p", {}, "No trick has been taken yet.");')
    assert script_leftovers("x.textContent = `Trick ${n} of ${m}`;")
    assert script_leftovers('button("Pass", {});')
    assert script_leftovers('x = `${t("Why?")} ${words}`;')
    assert not script_leftovers('el("p", {}, t("No trick has been taken yet."));')
    assert not script_leftovers('x.textContent = t("Trick {n} of {m}", { n, m });')
    assert not script_leftovers('node.querySelector(".card.live"); el("span", { class: "who" });')
