"""Which accounts share a network address or a device, kept as keyed hashes.

A browser gets a long-lived random device cookie (``tongits_device``) the first time a
signed-in person's request or any form post reaches us without one. When a signed-in
person posts a form (making or joining a table, entering an arena, logging in), the
address the request counts under (``tongits_site.client_ip``: behind our proxies the
client's, an IPv6 client as its /64) and the device cookie are stored as HMAC-SHA256
digests keyed with the site's secret key (``Sighting``): the raw address is never stored,
and a digest is deleted once it has not been seen for ``KEPT``.

``shared(user_ids)`` says which of some accounts share either within the last
``ADDRESS_WINDOW`` (addresses change) or ``DEVICE_WINDOW``; play asks it through its
hooks (``games.play.hooks.shared``: a rated table's notice; ``veto``: an arena's pairing
never seats such accounts together).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from datetime import timedelta
from itertools import combinations

from django.conf import settings
from django.db import connection
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from tongits_site.client_ip import client_ip

from .models import Sighting

COOKIE = "tongits_device"
COOKIE_AGE = 2 * 365 * 24 * 3600  # two years
_COOKIE_VALUE = re.compile(r"[A-Za-z0-9_-]{22,64}")
ADDRESS_WINDOW = timedelta(days=1)
DEVICE_WINDOW = timedelta(days=90)
KEPT = DEVICE_WINDOW  # a digest not seen for this long is deleted
# How often one session writes the same sighting again (its seen_at): once an hour.
RESEEN = timedelta(hours=1)
# The sightings each session wrote lately, kept by this process: (session key, person,
# address and device hashed) -> when. Not in the session itself, as before: saving the
# session again after the post cost the request three statements (its transaction and the
# update) each hour it posted, a Join's 13 among them. A process forgets (a restart,
# another worker): the sighting is written again, an upsert that changes only seen_at.
_written: OrderedDict[tuple[str, str], float] = OrderedDict()
_written_lock = threading.Lock()
WRITTEN_KEPT = 20_000
WHY_ORDER = (Sighting.Kind.ADDRESS, Sighting.Kind.DEVICE)


def digest(kind: str, value: str) -> str:
    """The keyed hash stored for an address or a device id: without the secret key it
    cannot be turned back into the address by trying every one."""
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, f"fairplay:{kind}:{value}".encode(), hashlib.sha256).hexdigest()


def device_of(request: HttpRequest) -> str | None:
    value = request.COOKIES.get(COOKIE, "")
    return value if _COOKIE_VALUE.fullmatch(value) else None


def record(user_id: int, address: str | None, device: str | None) -> None:
    """Store (or refresh) the account's sightings of this address and device: one upsert
    for both (a Join in a crowd's arrival made six statements and three transactions of
    them), and the account's sightings older than ``KEPT`` deleted."""
    now = timezone.now()
    rows = [
        Sighting(user_id=user_id, kind=kind, digest=digest(kind, value), seen_at=now)
        for kind, value in ((Sighting.Kind.ADDRESS, address), (Sighting.Kind.DEVICE, device))
        if value
    ]
    if rows and connection.vendor == "postgresql":
        # One statement in all (six in two transactions before, as the ORM makes them: a
        # Join's fifth of its statements): the old ones deleted, the seen ones upserted.
        # The DELETE leaves the rows the INSERT refreshes, so no row is touched twice.
        table = Sighting._meta.db_table
        seen = ", ".join(["(%s, %s)"] * len(rows))
        values = ", ".join(["(%s, %s, %s, %s)"] * len(rows))
        with connection.cursor() as cursor:
            cursor.execute(
                f"WITH gone AS (DELETE FROM {table} WHERE user_id = %s AND seen_at < %s"
                f" AND (kind, digest) NOT IN ({seen}))"
                f" INSERT INTO {table} (user_id, kind, digest, seen_at) VALUES {values}"
                " ON CONFLICT (user_id, kind, digest) DO UPDATE SET seen_at = EXCLUDED.seen_at",
                [
                    user_id, now - KEPT, *(v for r in rows for v in (r.kind, r.digest)),
                    *(v for r in rows for v in (user_id, r.kind, r.digest, now)),
                ],
            )  # fmt: skip
        return
    if rows:
        Sighting.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["user", "kind", "digest"],
            update_fields=["seen_at"],
        )
    Sighting.objects.filter(user_id=user_id, seen_at__lt=now - KEPT).delete()


def shared(user_ids: Iterable[int]) -> list[tuple[int, int, tuple[str, ...]]]:
    """Each pair of these accounts (lower id first) that shares an address seen within
    ``ADDRESS_WINDOW`` or a device within ``DEVICE_WINDOW``, with what they share. One
    query."""
    ids = sorted({u for u in user_ids if u})
    if len(ids) < 2:
        return []
    now = timezone.now()
    recent = Q(kind=Sighting.Kind.ADDRESS, seen_at__gte=now - ADDRESS_WINDOW) | Q(
        kind=Sighting.Kind.DEVICE, seen_at__gte=now - DEVICE_WINDOW
    )
    holders: dict[tuple[str, str], set[int]] = defaultdict(set)
    for user_id, kind, hashed in Sighting.objects.filter(recent, user_id__in=ids).values_list(
        "user_id", "kind", "digest"
    ):
        holders[(kind, hashed)].add(user_id)
    why: dict[tuple[int, int], set[str]] = defaultdict(set)
    for (kind, _hashed), users in holders.items():
        for a, b in combinations(sorted(users), 2):
            why[(a, b)].add(kind)
    return [
        (a, b, tuple(k for k in WHY_ORDER if k in kinds)) for (a, b), kinds in sorted(why.items())
    ]


class DeviceMiddleware:
    """Gives a browser its device cookie and records a signed-in person's sightings when
    they post a form, before the view runs (the form may seat them at a table), and after
    a log-in (not on every page: a page view costs no query here)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        device = device_of(request)
        fresh = None
        if device is None:
            device = fresh = secrets.token_urlsafe(24)
        before = _signed_in(request)
        if before is not None and request.method == "POST":
            self._seen(request, before, device)
        response = self.get_response(request)
        after = _signed_in(request)
        if after is not None and after != before and request.method == "POST":
            if response.status_code < 400:
                self._seen(request, after, device)  # just logged in
        if fresh is not None and (after is not None or request.method == "POST"):
            response.set_cookie(
                COOKIE, fresh, max_age=COOKIE_AGE, httponly=True, samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )  # fmt: skip
        return response

    @staticmethod
    def _seen(request: HttpRequest, user_id: int, device: str) -> None:
        address = client_ip(request)
        session_key = getattr(getattr(request, "session", None), "session_key", None)
        memo = (session_key, f"{user_id}:{digest('memo', f'{address}|{device}')[:16]}")
        now = time.monotonic()
        if session_key is not None:
            with _written_lock:
                last = _written.get(memo)
            if last is not None and now - last < RESEEN.total_seconds():
                return
        record(user_id, address, device)
        if session_key is not None:
            with _written_lock:
                _written[memo] = now
                _written.move_to_end(memo)
                while len(_written) > WRITTEN_KEPT:
                    _written.popitem(last=False)


def _signed_in(request: HttpRequest) -> int | None:
    user = getattr(request, "user", None)
    return user.pk if user is not None and user.is_authenticated else None
