"""Web Push: the site's VAPID keys, a browser's subscription kept, and one message sent.

pywebpush encrypts the message for the browser's keys (RFC 8291, aes128gcm) and signs the
request with the site's VAPID key (RFC 8292); only that browser can read it, not the push
service that carries it. Without keys in the settings, push is off and email stands in.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from pywebpush import WebPushException, webpush

from .models import PushSubscription

# What a push service's answer means for the subscription (RFC 8030): it is gone for
# good, so it is deleted; any other failure is tried again later.
GONE = (404, 410)
TIMEOUT_SECONDS = 10


def enabled() -> bool:
    return bool(settings.TONGITS_VAPID_PUBLIC_KEY and settings.TONGITS_VAPID_PRIVATE_KEY)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_vapid_keys() -> tuple[str, str]:
    """A new P-256 key pair: (public key, as the browser's ``applicationServerKey`` takes
    it; private key, as pywebpush takes it), both base64url without padding."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64(public), _b64(private)


class BadSubscription(ValueError):
    """What a browser sent is not a push subscription we can use."""


def _text(value, longest: int) -> str:
    if not isinstance(value, str) or not value or len(value) > longest:
        raise BadSubscription("a field is missing or too long")
    return value


def _key(value, length: int) -> str:
    text = _text(value, 200)
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        raise BadSubscription("a key is not base64url") from None
    if len(raw) != length:
        raise BadSubscription("a key has the wrong length")
    return text


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _service(endpoint: str) -> str:
    """The address, if it is a push service's. The worker posts to whatever address a
    browser gave, so an address is taken only at a known push service's host (or a
    subdomain of one), over https: a made-up subscription cannot aim the worker at
    another server. Plain http only at a loopback host listed (a test's own endpoint)."""
    url = urlsplit(endpoint)
    host = (url.hostname or "").lower()
    known = any(host == s or host.endswith("." + s) for s in settings.TONGITS_PUSH_SERVICES)
    secure = url.scheme == "https" or (url.scheme == "http" and host in LOOPBACK)
    if not known or not secure:
        raise BadSubscription("not a push service we send to")
    return endpoint


def keep(user_id: int, data: dict, device: str = "") -> PushSubscription:
    """Store a browser's subscription (``PushSubscription.toJSON()``) for ``user_id``. The
    same address again (a page loaded twice, or another account on the same browser)
    updates its row: a browser's subscription belongs to whoever subscribed it last."""
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise BadSubscription("not a subscription")
    endpoint = _service(_text(data.get("endpoint"), 2000))
    keys = data["keys"]
    fields = {
        "user_id": user_id,
        "p256dh": _key(keys.get("p256dh"), 65),
        "auth": _key(keys.get("auth"), 16),
        "device": device[:120],
    }
    row, _made = PushSubscription.objects.update_or_create(endpoint=endpoint, defaults=fields)
    return row


def forget(user_id: int, endpoint: str) -> bool:
    gone, _n = PushSubscription.objects.filter(user_id=user_id, endpoint=endpoint).delete()
    return bool(gone)


@dataclass(frozen=True)
class Outcome:
    sent: bool
    gone: bool = False  # the subscription is no more: delete it
    error: str = ""
    retry_after: int = 0  # seconds the push service asked us to wait


def send(subscription: PushSubscription, message: dict, ttl_seconds: int) -> Outcome:
    """Encrypt and send ``message`` (JSON) to one browser."""
    claims = {"sub": settings.TONGITS_VAPID_SUBJECT}
    try:
        webpush(
            subscription.info(),
            json.dumps(message, ensure_ascii=False),
            vapid_private_key=settings.TONGITS_VAPID_PRIVATE_KEY,
            vapid_claims=claims,
            ttl=ttl_seconds,
            timeout=TIMEOUT_SECONDS,
            headers={"Urgency": "normal"},
        )
    except WebPushException as e:
        status = e.status_code
        if status in GONE:
            return Outcome(False, gone=True, error=f"HTTP {status}")
        return Outcome(False, error=f"HTTP {status}", retry_after=_seconds(e.retry_after))
    except OSError as e:  # requests' connection errors and timeouts are OSErrors
        return Outcome(False, error=type(e).__name__)
    return Outcome(True)


def _seconds(header: str | None) -> int:
    try:
        return max(0, int(header or 0))
    except ValueError:
        return 0  # an HTTP date: our own backoff stands
