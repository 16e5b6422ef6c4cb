"""Middleware of the whole site."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest

from games.text import storable

NOT_TEXT = (
    "This request held characters that are not text (a NUL byte), so nothing was done. "
    "Go back and check what you typed."
)


class RefuseUnstorableText:
    """Answer 400 to a query string or form that holds a NUL, before any view runs.

    PostgreSQL refuses a NUL in a text column, even in a query's parameters, so such a
    value would reach a view only to fail as a 500 (an admin filter, a login, a token).
    No field of this site can hold one. Form data cannot carry a lone surrogate (Django
    decodes bad UTF-8 to U+FFFD), but the same check covers it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not (_all_storable(request.GET) and _all_storable(request.POST)):
            return HttpResponseBadRequest(NOT_TEXT, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def _all_storable(data) -> bool:
    return all(
        storable(key) and all(storable(value) for value in values) for key, values in data.lists()
    )
