"""Card markup: one face-up card, the same everywhere it appears, and rows of example
cards for the How to play page."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.engine.cards import label, parse_card, short
from games.rendering import Face, meld_html, panel_html

register = template.Library()


@register.simple_tag
@lru_cache(maxsize=52 * 4)  # a card looks the same on every board: made once per size
def card(face: Face, size: str = "") -> SafeString:
    """A face-up card: its code in ``data-card``, its name ("10 of diamonds") for screen
    readers, and "10♦" on screen (the rank and the suit apart, so that a meld's
    overlapping cards can show them one above the other)."""
    return format_html(
        '<span class="card suit-{}{}" data-card="{}" role="img" aria-label="{}">'
        '<span class="card-face" aria-hidden="true"><span class="card-rank">{}</span>'
        '<span class="card-suit">{}</span></span></span>',
        face.suit,
        f" card-{size}" if size else "",
        face.code,
        face.label,
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
    spoken = ", ".join(
        "a card face down" if c == FACE_DOWN else label(parse_card(c)) for c in items
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


@register.simple_tag
def seat_panel(panel, now: str) -> SafeString:
    """An opponent's panel (the "seat-panel" partial), made once per distinct panel."""
    return panel_html(panel, now)


@register.simple_tag
def meld(m) -> SafeString:
    """A meld on the table (the "meld" partial), made once per distinct meld."""
    return meld_html(m)
