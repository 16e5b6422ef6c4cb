"""Filters for history, replays and the dashboard: words and numbers, not rules."""

from __future__ import annotations

from datetime import timedelta

from django import template
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.history import charts
from games.history.stats import ENDS

register = template.Library()

RESULTS = {
    "won": _("Won"),
    "lost": _("Lost"),
    "aborted": _("Aborted"),
    "burned": pgettext_lazy("result", "burned"),
}


@register.filter
def signed(n: int | None) -> str:
    """Chips as a gain or a loss: +9, 0, −4."""
    return "" if n is None else charts.signed(n)


@register.filter
def end_label(end: str) -> str:
    return ENDS.get(end, end or "")


@register.filter
def result_label(result: str) -> str:
    return RESULTS.get(result, result)


@register.filter
def percent(rate: float | None) -> str:
    return "–" if rate is None else f"{rate:.0%}"


@register.filter
def minutes(duration: timedelta | None) -> str:
    if duration is None:
        return "–"
    return gettext("%(n)s min") % {"n": f"{duration.total_seconds() / 60:.1f}"}


@register.filter
def one_decimal(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"
