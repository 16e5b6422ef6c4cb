"""``{% fixed "name" [value ...] %}…{% endfixed %}``: a part of a page that is the same
for every reader of a language (and of the values given), rendered once a process and
kept.

A table page is loaded by every person at an arena's start (three a table), and most
of its time went to the chrome around the board: the menu's links, the connection's
words, the sheets' titles, each a ``{% url %}``, a ``{% static %}`` or a
``{% translate %}`` looked up afresh on every page. The parts that say nothing of their
reader are wrapped in this tag: their HTML is kept per name, language and the values
given (a game's number, whether the reader is signed in), so a page renders each at most
once a language in a process.

Only for what the values given decide: never a person's name, a token, a count, a
card or anything of a game but its number. Kept in a dict of at most ``LIMIT`` entries
(emptied when full: a game's number is a value, and games come and go).
"""

from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

register = template.Library()

LIMIT = 20_000
_kept: dict[tuple, str] = {}


class FixedNode(template.Node):
    def __init__(self, name: str, values: list, nodelist: template.NodeList) -> None:
        self.name, self.values, self.nodelist = name, values, nodelist

    def render(self, context: template.Context) -> str:
        key = (self.name, get_language(), *(v.resolve(context) for v in self.values))
        html = _kept.get(key)
        if html is None:
            html = self.nodelist.render(context)
            if len(_kept) >= LIMIT:
                _kept.clear()
            _kept[key] = html
        return mark_safe(html)


@register.tag
def fixed(parser: template.base.Parser, token: template.base.Token) -> FixedNode:
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("{% fixed %} takes a name, then any values")
    name = bits[1].strip("\"'")
    values = [parser.compile_filter(bit) for bit in bits[2:]]
    nodelist = parser.parse(("endfixed",))
    parser.delete_first_token()
    return FixedNode(name, values, nodelist)
