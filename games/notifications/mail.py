"""Notices by email, through Django's mail (whatever backend the site configures), each with
its one-click unsubscribe: a signed link per person and kind, needing no log-in, and the
List-Unsubscribe headers (RFC 2369, and RFC 8058's one-click POST) that mail programs
show as their own Unsubscribe button."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse

from .models import Kind
from .wording import Words, sentence

SALT = "games.notifications.unsubscribe"


def unsubscribe_token(user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=SALT, compress=True)


def read_token(token: str) -> tuple[int, str] | None:
    """The person and kind a link was made for, or None for a forged or mangled one."""
    try:
        data = signing.loads(token, salt=SALT)
        return int(data["u"]), Kind(data["k"]).value
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def site_url(path: str) -> str:
    return settings.TONGITS_SITE_URL.rstrip("/") + path


def unsubscribe_url(user_id: int, kind: str) -> str:
    return site_url(reverse("notifications:unsubscribe", args=[unsubscribe_token(user_id, kind)]))


def message(to: str, user_id: int, kind: str, words: Words) -> EmailMessage:
    """The email of one notice, in the active language."""
    off = unsubscribe_url(user_id, kind)
    context = {
        "sentence": sentence(words),
        "link": site_url(words.path),
        "unsubscribe": off,
        "kind": Kind(kind).label,
        "settings": site_url(reverse("settings")),
    }
    body = render_to_string("notifications/email.txt", context)
    headers = {
        "List-Unsubscribe": f"<{off}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        # Automatic mail: no out-of-office replies back to us.
        "Auto-Submitted": "auto-generated",
    }
    return EmailMessage(
        subject=f"Tongits Online: {words.title}",
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        headers=headers,
    )
