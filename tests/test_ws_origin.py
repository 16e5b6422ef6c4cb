"""A socket opens only from the site's own pages: the whole origin (scheme, host and port)
must be the one the browser asked for, or a trusted origin, as Django's CSRF check wants.
Otherwise another site (or another program on the same machine) could open a player's
table socket with their cookies and play for them."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tests.table.support import session_headers
from tongits_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def opens(alice, origin: str | None, host: str | None, *extra) -> bool:
    cookie = [h for h in await database_sync_to_async(session_headers)(alice) if h[0] == b"cookie"]
    headers = [*cookie, *extra]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if host is not None:
        headers.append((b"host", host.encode()))
    sock = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await sock.connect(timeout=3)
    await sock.disconnect()
    return connected


@pytest.mark.parametrize(
    "origin, host",
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000"),  # make run
        ("http://localhost", "localhost"),
        ("http://[::1]:8000", "[::1]:8000"),
    ],
)
async def test_a_page_of_the_site_itself_opens_its_socket(alice, origin, host):
    assert await opens(alice, origin, host)


@pytest.mark.parametrize(
    "origin, host",
    [
        ("http://127.0.0.1:9999", "127.0.0.1:8000"),  # another port: another program
        ("https://127.0.0.1:8000", "127.0.0.1:8000"),  # another scheme
        ("http://evil.example", "127.0.0.1:8000"),
        ("http://evil.example", "evil.example"),  # a host that is not ours
        ("null", "127.0.0.1:8000"),  # a sandboxed frame or a file
        (None, "127.0.0.1:8000"),
        ("http://127.0.0.1:8000", None),
    ],
)
async def test_a_socket_from_any_other_origin_is_refused(alice, origin, host):
    assert not await opens(alice, origin, host)


async def test_behind_a_tls_proxy_a_trusted_origin_opens_and_others_do_not(alice, settings):
    settings.ALLOWED_HOSTS = ["tongits.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://tongits.example"]

    assert await opens(alice, "https://tongits.example", "tongits.example")
    assert not await opens(alice, "http://tongits.example:8001", "tongits.example")
    assert not await opens(alice, "https://tongits.example:8443", "tongits.example")


async def test_the_proxys_scheme_header_counts_only_when_settings_trust_it(alice, settings):
    settings.ALLOWED_HOSTS = ["tongits.example"]
    proto = (b"x-forwarded-proto", b"https")

    assert not await opens(alice, "https://tongits.example", "tongits.example", proto)
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert await opens(alice, "https://tongits.example", "tongits.example", proto)
    assert not await opens(alice, "https://tongits.example", "tongits.example")
