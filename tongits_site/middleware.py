"""Middleware of the whole site."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.middleware.gzip import GZipMiddleware
from django.utils.translation import gettext_lazy as _

from games.words.text import storable

log = logging.getLogger(__name__)

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


ODD_FILTER = _(
    "This list cannot be filtered that way (a date out of range, or a pattern the database "
    "cannot read): go back to the list and choose its filters again."
)


class RefuseOddAdminFilters:
    """Answer 400 to an admin list whose filters fail while it is made, past the admin's own
    checks: a year 9999 in a date hierarchy (Python's dates end there), a regex the database
    cannot compile, a lookup SQLite lacks. Django's admin lets these through to a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        match = getattr(request, "resolver_match", None)
        if not (
            request.GET
            and isinstance(exception, (ValueError, OverflowError, DatabaseError))
            and match is not None
            and "admin" in match.namespaces
            and (match.url_name or "").endswith("_changelist")
        ):
            return None
        # The filters' names only: a value may be a guess at something.
        log.warning(
            "400 %s %s: an admin list's filters failed (%s): %s",
            request.method,
            request.path,
            type(exception).__name__,
            ", ".join(sorted(request.GET)),
        )
        response = HttpResponseBadRequest(str(ODD_FILTER), content_type="text/plain; charset=utf-8")
        response._has_been_logged = True  # the line above says it; Django's would repeat it
        return response


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
