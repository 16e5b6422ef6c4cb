"""Card markup for the table: one face-up card, the same everywhere it appears."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.rendering import Face

register = template.Library()


@register.simple_tag
@lru_cache(maxsize=52 * 4)  # a card looks the same on every board: made once per size
def card(face: Face, size: str = "") -> SafeString:
    """A face-up card: its code in ``data-card``, its name ("10 of diamonds") for screen
    readers, and "10♦" on screen."""
    return format_html(
        '<span class="card suit-{}{}" data-card="{}" role="img" aria-label="{}">'
        '<span class="card-face" aria-hidden="true">{}</span></span>',
        face.suit,
        f" card-{size}" if size else "",
        face.code,
        face.label,
        face.short,
    )
