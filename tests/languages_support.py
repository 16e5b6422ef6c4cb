"""Helpers of the language tests: a page's visible text, and a template's unmarked text."""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser

# Attributes whose values people read (or hear): the rest are not text of the page.
READ_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")
LETTER = re.compile(r"[^\W\d_]")


class _Text(HTMLParser):
    def __init__(self, attributes: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.attributes = attributes
        self.skip = 0
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        if self.attributes:
            for name, value in attrs:
                if name in READ_ATTRIBUTES and value:
                    self.add(value)

    def handle_startendtag(self, tag, attrs) -> None:
        if self.attributes:
            for name, value in attrs:
                if name in READ_ATTRIBUTES and value:
                    self.add(value)

    def handle_endtag(self, tag) -> None:
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data) -> None:
        if not self.skip:
            self.add(data)

    def add(self, text: str) -> None:
        text = " ".join(text.split())
        if text:
            self.found.append(text)


def text_nodes(html: str, *, attributes: bool = False) -> list[str]:
    """The page's text nodes (whitespace folded), without scripts and styles; with
    ``attributes``, the values of the attributes people read too."""
    parser = _Text(attributes)
    parser.feed(html)
    parser.close()
    return parser.found


def has_letters(text: str) -> bool:
    return bool(LETTER.search(text))


# --- Templates: text outside {% translate %} and {% blocktranslate %} ----------------------

_MARKED_OR_SYNTAX = [
    re.compile(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S),
    re.compile(r"\{#.*?#\}", re.S),
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"<script\b.*?</script>", re.S | re.I),
    re.compile(r"<style\b.*?</style>", re.S | re.I),
    re.compile(r"\{%\s*blocktrans(?:late)?\b.*?\{%\s*endblocktrans(?:late)?\s*%\}", re.S),
    re.compile(r"\{%.*?%\}", re.S),
    re.compile(r"\{\{.*?\}\}", re.S),
]


def unmarked_text(source: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The pieces of a template's text that a person would read and that no translation
    tag holds: text nodes and the values of READ_ATTRIBUTES, after the template's own
    syntax, comments, scripts and styles are taken out. Pieces without a letter
    (punctuation, numbers, "·") and those in ``allowed`` (names) do not count."""
    for pattern in _MARKED_OR_SYNTAX:
        source = pattern.sub(" ", source)
    return [
        piece
        for piece in text_nodes(source, attributes=True)
        if has_letters(piece) and piece.strip(PUNCTUATION) not in allowed
    ]


PUNCTUATION = " ·:;,.!?()-–—"


def written_text(node: ast.expr, samples: dict[str, str]) -> str | None:
    """A message as the code writes it: a string literal, or an f-string with each value
    filled in from ``samples`` (keyed by the value's source); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if not isinstance(node, ast.JoinedStr):
        return None
    parts = []
    for part in node.values:
        if isinstance(part, ast.Constant):
            parts.append(part.value)
        else:
            value = samples[ast.unparse(part.value)]
            parts.append(repr(value) if part.conversion == ord("r") else value)
    return "".join(parts)
