"""The coach's marks on the replay page: ``{% mark_badge verdict %}``, ``verdicts|at:seq``."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def mark_badge(verdict) -> SafeString:
    if verdict is None or not verdict.mark:
        return SafeString("")
    return format_html(
        '<span class="badge coach-mark mark-{}">{}</span>', verdict.mark, verdict.mark_name
    )


@register.filter
def at(mapping, key):
    """``report.verdicts|at:line.seq``: the verdict on that move, or None."""
    return mapping.get(key) if mapping else None
