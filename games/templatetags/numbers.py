"""Numbers as the active language writes them: ``{{ chips|number }}`` gives "1,250".

Not USE_THOUSAND_SEPARATOR, which would also group the numbers templates write into
forms and attributes (a move's seq, a game's id) and break them."""

from __future__ import annotations

from django import template
from django.utils import formats

register = template.Library()


@register.filter
def number(value: object) -> str:
    """``value`` grouped and with the decimal mark of the active language; anything not a
    number is left as it is."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    return formats.number_format(value, force_grouping=True)
