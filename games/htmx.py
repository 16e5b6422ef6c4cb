"""The request a view gets once django-htmx's middleware has run, typed for checkers.

Below every page (games.views, history/, the coach's and series' views), so that any of
them may name it without importing another's module."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """An HttpRequest as HtmxMiddleware leaves it, for type checkers."""

    htmx: HtmxDetails
