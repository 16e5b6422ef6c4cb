"""Card markup: one face-up card, the same everywhere it appears, and rows of example
cards for the How to play page."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.engine.cards import parse_card, short
from games.table.rendering import Face
from games.words.card_names import FACE_DOWN as FACE_DOWN_NAME
from games.words.card_names import name_in

register = template.Library()


@register.simple_tag
def card(face: Face, size: str = "") -> SafeString:
    """A face-up card: its code in ``data-card``, its name in the reader's language ("10
    of diamonds") for screen readers, and "10♦" on screen (the rank and the suit apart,
    so that a meld's overlapping cards can show them one above the other)."""
    return _card(face, size, get_language())


def card_in(face: Face, size: str, lang: str | None) -> SafeString:
    """``card`` in ``lang``, the active language, for callers that have it already."""
    return _card(face, size, lang)


@lru_cache(maxsize=52 * 4 * 2)  # a card looks the same on every board: made once per size
def _card(face: Face, size: str, lang: str | None) -> SafeString:
    return format_html(
        '<span class="card suit-{}{}" data-card="{}" role="img" aria-label="{}">'
        '<span class="card-face" aria-hidden="true"><span class="card-rank">{}</span>'
        '<span class="card-suit">{}</span></span></span>',
        face.suit,
        f" card-{size}" if size else "",
        face.code,
        name_in(face.card, lang),
        face.rank,
        face.symbol,
    )


# A card code in an example that stands for a face-down card (a secret set, the stock).
FACE_DOWN = "--"


@register.simple_tag
def cards(codes: str, name: str = "") -> SafeString:
    """A row of small example cards from their codes (``"7H 7S 7D"``; ``--`` is a card
    face down), for the How to play page. ``name`` is what a screen reader hears for
    the row, before the cards' own names."""
    items = codes.split()
    lang = get_language()
    spoken = ", ".join(
        str(FACE_DOWN_NAME) if c == FACE_DOWN else name_in(parse_card(c), lang) for c in items
    )
    inner = format_html_join("", "{}", ((_example_card(c),) for c in items))
    return format_html(
        '<span class="example-cards" role="img" aria-label="{}">{}</span>',
        f"{name}: {spoken}" if name else spoken,
        inner,
    )


def _example_card(code: str) -> SafeString:
    if code == FACE_DOWN:
        return mark_safe('<span class="card back card-small" aria-hidden="true"></span>')
    return format_html(
        '<span class="card card-small suit-{}" aria-hidden="true">'
        '<span class="card-face">{}</span></span>',
        code[1].lower(),
        short(parse_card(code)),
    )


@register.simple_tag(takes_context=True)
def board_part(context, part: str) -> SafeString:
    """One of the board's parts made in Python (games/table/board_html.py), from the page's
    context: the same HTML the socket sends."""
    from games.table import board_html

    return SafeString(board_html.BUILDERS[part](context) or "")


@register.simple_tag
def board_clock(panel, now: str) -> SafeString:
    """A seat's turn clock (games/table/board_html.py)."""
    from games.table import board_html

    return SafeString(board_html.clock(panel, now))
