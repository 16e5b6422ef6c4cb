"""Admin lists that cannot be asked about a game's secrets.

Django's admin lets staff filter a list by any local field straight from the URL, so
``?seed__startswith=9`` answering "1 result" or "0 results" reads a live game's seed one
digit at a time (and ``?deal__stock__0=…`` its stock). Staff are players too: no lookup
that reaches the seed, the deal or the move log is ever run, on any list that can reach a
game through its relations.
"""

from __future__ import annotations

import logging

from django.contrib import admin
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.translation import gettext

log = logging.getLogger(__name__)

# Any lookup path through one of these names reads a secret: the seed (and the deal made
# from it), or the move log, whose payloads hold a secret set's cards.
SECRET_NAMES = frozenset({"seed", "deal", "moves", "payload"})


def touches_secret(lookup: str) -> bool:
    return not SECRET_NAMES.isdisjoint(lookup.split(LOOKUP_SEP))


class SecretsGuardedAdmin(admin.ModelAdmin):
    """Refuses, with a plain 400 and no traceback, any list URL that filters on a secret."""

    def changelist_view(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        refused = sorted(key for key in request.GET if touches_secret(key))
        if refused:
            # The lookup's name only: its value may be a guess at the secret.
            log.warning(
                "400 %s %s: refused an admin lookup on a secret: %s by %s",
                request.method,
                request.path,
                ", ".join(refused),
                request.user,
            )
            response = HttpResponseBadRequest(
                gettext("This list cannot be filtered by a game's seed, deal or moves."),
                content_type="text/plain",
            )
            # The line above says it all: Django's own "Bad Request" line would be a second
            # for the one refusal. (Django marks the responses it has logged this way.)
            response._has_been_logged = True
            return response
        return super().changelist_view(request, extra_context)

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        # Also here, for any other path into the changelist's filters.
        return not touches_secret(lookup) and super().lookup_allowed(lookup, value, request)
