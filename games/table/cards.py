"""Card markup: one face-up card, the same everywhere it appears, and rows of example
cards for the How to play page."""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.engine.cards import parse_card, short
from games.table import board_html, board_markup
from games.table.pieces import Face, card_in
from games.words.card_names import FACE_DOWN as FACE_DOWN_NAME
from games.words.card_names import name_in

register = template.Library()


@register.simple_tag
def card(face: Face, size: str = "") -> SafeString:
    """A face-up card: its code in ``data-card``, its name in the reader's language ("10
    of diamonds") for screen readers, and "10♦" on screen (the rank and the suit apart,
    so that a meld's overlapping cards can show them one above the other)."""
    return card_in(face, size, get_language())


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
    context: the same HTML the socket sends. An arena's waiting table has no game yet:
    each part is an empty place of its id, which the first game's board fills."""
    if context.get("arena_wait"):
        return SafeString(board_html.EMPTY[part])
    return SafeString(board_html.BUILDERS[part](context) or "")


@register.simple_tag
def board_clock(panel, now: str) -> SafeString:
    """A seat's turn clock (games/table/board_markup.py)."""
    return SafeString(board_markup.clock(panel, now))
