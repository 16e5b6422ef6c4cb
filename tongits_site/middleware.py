"""Middleware of the whole site."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.middleware.gzip import GZipMiddleware
from django.utils.translation import gettext_lazy as _

from games.words.text import storable

NOT_TEXT = _(
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
            return HttpResponseBadRequest(str(NOT_TEXT), content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def _all_storable(data) -> bool:
    return all(
        storable(key) and all(storable(value) for value in values) for key, values in data.lists()
    )


# A language tag "tl" (Tagalog), alone or with a region, in an Accept-Language header.
_TAGALOG = re.compile(r"(?i)(?<![\w-])tl(?=-|;|,|\s|$)")


class TagalogIsFilipino:
    """A browser set to Tagalog ("tl", "tl-PH") is served in Filipino, the standard form of
    Tagalog, which Django knows as "fil". Rewrites the header before LocaleMiddleware reads it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        header = request.META.get("HTTP_ACCEPT_LANGUAGE")
        if header:
            request.META["HTTP_ACCEPT_LANGUAGE"] = _TAGALOG.sub("fil", header)
        return self.get_response(request)


class CompressPages(GZipMiddleware):
    """Gzip the site's HTML pages (WhiteNoise already sends static files compressed, and
    never reaches this: it sits below WhiteNoise). On a phone's slow line a table's page is
    15 KB of markup that gzip makes 4 KB: a fifth of a second at 400 kbps on the way to a
    hand you can play.

    BREACH, which reads a secret from the size of compressed pages that reflect what an
    attacker sends, was weighed (docs/live.md, "Pages and frames on the wire"): the CSRF
    token is masked afresh in every response by Django, so its bytes never repeat from one
    response to the next; Django's middleware adds up to 100 random bytes to each answer
    (Heal the Breach); and the one other secret a page holds, a seat's own hand on its
    table's page, is sent to that seat alone on a page into which nobody else can put text
    of their choosing request by request. Only HTML is compressed: other answers (records,
    the manifest, the service worker) are small or already compressed."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if not response.get("Content-Type", "").startswith("text/html"):
            return response
        return super().process_response(request, response)
