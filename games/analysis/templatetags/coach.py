"""The coach's marks on the replay page: ``{% mark_badge verdict %}``, ``verdicts|at:seq``."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import pgettext_lazy

register = template.Library()
CLOSE_CALL = pgettext_lazy("coach", "Close call")


@register.simple_tag
def mark_badge(verdict) -> SafeString:
    if verdict is not None and getattr(verdict, "close", False):
        return format_html('<span class="badge coach-mark mark-close">{}</span>', CLOSE_CALL)
    if verdict is None or not verdict.mark:
        return SafeString("")
    return format_html(
        '<span class="badge coach-mark mark-{}">{}</span>', verdict.mark, verdict.mark_name
    )


@register.inclusion_tag("games/analysis/close_call.html")
def close_call(verdict) -> dict:
    """A close call: its badge, and on tap (a ``<details>``) the figures that kept the mark
    off."""
    return {"v": verdict}


@register.filter
def at(mapping, key):
    """``report.verdicts|at:line.seq``: the verdict on that move, or None."""
    return mapping.get(key) if mapping else None
