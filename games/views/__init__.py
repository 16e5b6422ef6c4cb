"""Views: each is one service call plus a response (lobby.py, table.py)."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """An HttpRequest as HtmxMiddleware leaves it, for type checkers."""

    htmx: HtmxDetails
