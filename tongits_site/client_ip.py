"""The address of the person making a request, for the log-in lockout (django-axes).

Behind a reverse proxy every request comes from the proxy's address, so a lockout by
address would lock an account for everyone at once. Each proxy appends the address it
received the request from to X-Forwarded-For; with ``TONGITS_TRUSTED_PROXIES`` = N proxies
of our own in front, the client is the N-th address from the right. Anything left of it
was written by the client and could be anything, so it is never used. Without the setting
the header is ignored: a client cannot pick the address it is counted under.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    proxies = settings.TONGITS_TRUSTED_PROXIES
    remote = request.META.get("REMOTE_ADDR")
    if proxies <= 0:
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [a for a in forwarded if a]
    if len(forwarded) < proxies:
        # The request did not pass through all our proxies: only its peer is known.
        return remote
    return forwarded[-proxies]
