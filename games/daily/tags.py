"""The ``{% load daily %}`` library (named in games/templatetags/): what a profile shows of
a person's daily deals, their duplicate score."""

from __future__ import annotations

from django import template
from django.utils import timezone

from . import services

register = template.Library()


@register.simple_tag
def duplicate_score(user):
    """``user``'s duplicate score over their last 30 days that are over, or None."""
    return services.duplicate_for(user, timezone.now())


@register.filter
def signed_decimal(value: float | None) -> str:
    """A mean of chips with its sign and one decimal: +1.4, 0.0, −2.3."""
    if value is None:
        return "–"
    text = f"{abs(value):.1f}"
    return f"+{text}" if value > 0.05 else (f"−{text}" if value < -0.05 else "0.0")


@register.filter
def signed_median(value: float | None) -> str:
    """A median of chips: whole (−1, +3) or halfway between two (+1.5)."""
    if value is None:
        return "–"
    if value == int(value):
        n = int(value)
        return f"+{n}" if n > 0 else ("0" if n == 0 else f"−{-n}")
    return signed_decimal(value)
