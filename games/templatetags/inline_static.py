"""``{% load inline_static %}{% inline_static "css/site.css" %}``: a static file's text, to
put in the page itself (the home page's stylesheets, issue 24: on a slow line the round
trip to fetch them was the longest wait before Play now could be tapped).

The file is read from the project's static files (the finders, as ``collectstatic`` does),
once per process and minified as ``collectstatic`` minifies it (tongits_site/minify.py),
unless DEBUG is on. Only for files of our own without relative
``url()`` references, which would resolve against the page instead of the file.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django import template
from django.conf import settings
from django.contrib.staticfiles import finders
from django.utils.safestring import mark_safe

from tongits_site.minify import is_ours, minified

register = template.Library()


def _read(path: str) -> str:
    found = finders.find(path)
    if not found:
        raise template.TemplateSyntaxError(f"inline_static: no static file {path!r}")
    text = Path(found).read_text(encoding="utf-8")
    if "</style" in text.lower():  # it would end the <style> it is put in
        raise template.TemplateSyntaxError(f"inline_static: {path!r} holds '</style'")
    return text


@lru_cache(maxsize=16)
def _cached(path: str) -> str:
    text = _read(path)
    return minified(path, text) if is_ours(path) else text


@register.simple_tag
def inline_static(path: str) -> str:
    return mark_safe(_read(path) if settings.DEBUG else _cached(path))
