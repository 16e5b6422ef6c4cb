"""Guest accounts: what Play now makes for a visitor, and what becomes of them.

A guest is an ordinary User with a generated name ("Guest 4821"), no password and
``Profile.is_guest`` set. Its games are its own like anyone's: claiming it (a username and a
password of the person's choosing, accounts.views.claim) keeps them. Guests nobody claimed
are removed ``TONGITS_GUEST_DAYS`` after they were made (manage.py remove_guests); the
seats they had in finished games keep their name, so other players' histories still read.
"""

from __future__ import annotations

import secrets
import zlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Profile, display_name_for

# Usernames of this shape are the site's own; nobody may sign up or claim one.
USERNAME_PREFIX = "guest"
# Four digits reads well; when those keep colliding, longer numbers make room.
NUMBER_DIGITS = (4, 4, 4, 6, 6, 8, 8, 10)


class GuestRefused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def make_guest(address: str | None, language: str | None = None) -> AbstractBaseUser:
    """A new guest account made for a visitor at ``address`` (as tongits_site.client_ip
    counts it: an IPv6 visitor's /64), or GuestRefused when that address has made its
    hour's worth already. It speaks ``language`` (by default the
    active one: in a request, the browser's or the switch's)."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    with transaction.atomic():
        _lock_address(address)
        refusal = check_can_make_guest(address)
        if refusal:
            raise GuestRefused(refusal)
        for digits in NUMBER_DIGITS:
            number = str(secrets.randbelow(9 * 10 ** (digits - 1)) + 10 ** (digits - 1))
            try:
                with transaction.atomic():
                    user = get_user_model().objects.create_user(f"{USERNAME_PREFIX}-{number}")
            except IntegrityError:
                continue  # the number is taken: draw another
            Profile.objects.update_or_create(
                user=user,
                defaults={
                    # A name, the same for everyone who reads it, in any language.
                    "display_name": f"Guest {number}",
                    "is_guest": True,
                    "guest_address": address,
                    "language": language,
                },
            )
            return user
    raise GuestRefused(_("We could not make a guest account just now: please try again."))


def check_can_make_guest(address: str | None) -> str | None:
    """Why no guest may be made from ``address`` now, or None."""
    most = settings.TONGITS_GUESTS_PER_ADDRESS_PER_HOUR
    made = Profile.objects.filter(
        is_guest=True,
        guest_address=address,
        user__date_joined__gte=timezone.now() - timedelta(hours=1),
    )
    if made.count() >= most:
        return ngettext(
            "%(count)d guest account was made from your network in the last hour: "
            "sign up, or try again later.",
            "%(count)d guest accounts were made from your network in the last hour: "
            "sign up, or try again later.",
            most,
        ) % {"count": most}
    return None


def _lock_address(address: str | None) -> None:
    # Two requests from one address at once must not both pass the count: they take
    # turns on a transaction-scoped lock named after the address. (SQLite, for local
    # runs, takes one writer at a time anyway.)
    if connection.vendor != "postgresql":
        return
    key = zlib.crc32(f"guest-address:{address}".encode())
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def is_guest_username(username: str) -> bool:
    """Whether ``username`` has the shape of a generated guest name."""
    return username.lower().startswith(USERNAME_PREFIX)


# --- Removing the guests nobody claimed ---------------------------------------------------


@dataclass(frozen=True)
class Cleanup:
    removed: list[str]  # usernames
    kept_at_tables: list[str]  # old enough, but still seated at an unfinished game or series


def old_guests(now: datetime, days: int) -> QuerySet:
    """Unclaimed guests made more than ``days`` days before ``now``."""
    return (
        get_user_model()
        .objects.filter(profile__is_guest=True, date_joined__lt=now - timedelta(days=days))
        .select_related("profile")
        .order_by("pk")
    )


def remove_old_guests(now: datetime, days: int, *, dry_run: bool = False) -> Cleanup:
    """Delete the old unclaimed guests, except those still seated at an unfinished game
    or in a series not ended (their seat would become one with nobody in it, mid-game or
    at the series' next hand). Each removed guest's seats keep the guest's name for the
    histories of the people they played."""
    from games.models import Game, Seat

    seated = Seat.objects.filter(user=OuterRef("pk"))
    unfinished = seated.filter(
        Q(game__status__in=(Game.Status.WAITING, Game.Status.PLAYING))
        | Q(game__series_hand__isnull=False, game__series_hand__series__ended_at__isnull=True)
    )
    candidates = old_guests(now, days).annotate(seated=Exists(unfinished))
    removed, kept = [], []
    for user in candidates:
        if user.seated:
            kept.append(user.get_username())
            continue
        removed.append(user.get_username())
        if dry_run:
            continue
        with transaction.atomic():
            # Re-checked under the row's lock: claimed or seated since the list was read.
            still = (
                old_guests(now, days)
                .select_for_update(of=("self",))
                .filter(pk=user.pk)
                .filter(~Exists(unfinished))
                .first()
            )
            if still is None:
                removed.pop()
                continue
            Seat.objects.filter(user=still).update(display_name=display_name_for(still))
            still.delete()
    return Cleanup(removed, kept)
