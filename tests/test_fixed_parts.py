"""{% fixed %} (tongits_site/fixed.py): a part rendered once per name, language and the
values given, and never shown to a reader of another language or other values."""

from __future__ import annotations

from django.template import engines
from django.utils import translation


def test_a_fixed_part_is_kept_per_language_and_value_and_the_rest_stays_live():
    page = engines["django"].from_string(
        '{% load i18n %}{% fixed "test-part" n %}{% translate "Log in" %} {{ n }} {{ x }}'
        "{% endfixed %} {{ x }}"
    )
    with translation.override("en"):
        assert page.render({"n": 1, "x": "a"}) == "Log in 1 a a"
        assert page.render({"n": 1, "x": "b"}) == "Log in 1 a b"  # kept: x is not a value
        assert page.render({"n": 2, "x": "c"}) == "Log in 2 c c"
    with translation.override("fil"):
        shown = page.render({"n": 1, "x": "d"})
    assert shown == "Mag-log in 1 d d"
