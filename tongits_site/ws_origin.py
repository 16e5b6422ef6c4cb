"""The WebSocket origin check: a socket may be opened only by our own pages.

Channels' AllowedHostsOriginValidator compares only the origin's host name, so a page at
``http://127.0.0.1:9999`` (another program on the same machine) could open a player's
sockets. This one checks what CSRF checks: the whole origin (scheme, host and port) must
equal the site's own, as the request's Host header names it, or be a trusted origin.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import is_same_domain, split_domain_port, validate_host


class SameOriginValidator:
    """ASGI middleware refusing the handshake of a socket from any other origin."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(_headers(scope), scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


def _headers(scope) -> dict[bytes, str]:
    return {name: value.decode("latin-1") for name, value in scope.get("headers", [])}


def origin_allowed(headers: dict[bytes, str], scope) -> bool:
    origin = headers.get(b"origin", "").lower()
    if not origin or origin == "null":
        return False
    host = headers.get(b"host", "").lower()
    domain, _ = split_domain_port(host)
    if domain and validate_host(domain, settings.ALLOWED_HOSTS):
        if origin == f"{_page_scheme(headers, scope)}://{host}":
            return True
    return _trusted(origin)


def _page_scheme(headers: dict[bytes, str], scope) -> str:
    """The scheme of the page that opened the socket: https for wss, or when the trusted
    proxy says the browser used TLS (SECURE_PROXY_SSL_HEADER, as Django's is_secure())."""
    if scope.get("scheme") in ("wss", "https"):
        return "https"
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        name, secure_value = proxy
        header = name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        if headers.get(header, "").split(",")[0].strip() == secure_value:
            return "https"
    return "http"


def _trusted(origin: str) -> bool:
    """In CSRF_TRUSTED_ORIGINS, exactly or by a "https://*.example.com" wildcard."""
    trusted = [t.lower() for t in settings.CSRF_TRUSTED_ORIGINS]
    if origin in trusted:
        return True
    parts = urlsplit(origin)
    return any(
        t.startswith(f"{parts.scheme}://*.") and is_same_domain(parts.netloc, t.split("*", 1)[1])
        for t in trusted
    )
