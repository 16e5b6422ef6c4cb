"""The address a request is counted under: by the log-in lockout (django-axes) and by the
limit on Play now's guest accounts.

Behind a reverse proxy every request comes from the proxy's address, so a lockout by
address would lock an account for everyone at once. Each proxy appends the address it
received the request from to X-Forwarded-For; with ``TONGITS_TRUSTED_PROXIES`` = N proxies
of our own in front, the client is the N-th address from the right. Anything left of it
was written by the client and could be anything, so it is never used. Without the setting
the header is ignored: a client cannot pick the address it is counted under.

The entry our proxy wrote is still checked. Some proxies and load balancers write
``203.0.113.7:51234`` or ``[2001:db8::1]:443``: the port is dropped (a bare IPv6 address
is always read as an address, never as one with a port, which would be ambiguous). A
proxy set up wrong may pass on anything at all (a host name, ``unknown``, a whole
header): such a value is logged once, at WARNING, and the request counts under the
address that connected to us (REMOTE_ADDR). Better one shared count for a misconfigured
proxy than a 500 (PostgreSQL's ``inet`` columns refuse the value) or a count the client
chose.

What is counted is not always the bare address:

- an IPv4 address written as IPv6 (``::ffff:203.0.113.7``, what a server listening on
  ``::`` sees of an IPv4 client) counts as the IPv4 address;
- an IPv6 address counts as its /64 network (``2001:db8:1:2::``): one subscriber is
  given a whole /64 and can pick a new address in it for each request.
"""

from __future__ import annotations

import ipaddress
import logging
import re

from django.conf import settings
from django.http import HttpRequest

log = logging.getLogger(__name__)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# An IPv6 customer's usual smallest allocation: addresses in it are one client.
IPV6_CLIENT_PREFIX = 64
# The longest address we read, with brackets, a zone and a port: anything longer is not one.
LONGEST_ADDRESS = 80
# How much of a value that is not an address goes into the log.
LOGGED_CHARS = 60

_V4_WITH_PORT = re.compile(r"(?P<host>\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}")
_BRACKETED_V6 = re.compile(r"\[(?P<host>[^\]]+)\](?::\d{1,5})?")

# Where a request's result is kept, so it is worked out (and any warning logged) once.
_MEMO = "_tongits_client_ip"


def client_ip(request: HttpRequest) -> str | None:
    """The address ``request`` is counted under (see the module's docstring): an IPv4
    address, or the first address of an IPv6 /64; None when not even the connecting
    address is one (a Unix socket)."""
    if hasattr(request, _MEMO):
        return getattr(request, _MEMO)
    address = _client_address(request)
    counted = counted_as(address) if address is not None else None
    setattr(request, _MEMO, counted)
    return counted


def parse_address(text: str) -> IPAddress | None:
    """The IP address ``text`` names (a bare address, ``v4:port``, ``[v6]`` or
    ``[v6]:port``; an IPv6 zone is dropped), or None if it names none."""
    text = text.strip()
    if not text or len(text) > LONGEST_ADDRESS:
        return None
    bracketed = _BRACKETED_V6.fullmatch(text)
    with_port = _V4_WITH_PORT.fullmatch(text)
    if bracketed:
        text = bracketed["host"]
    elif with_port:
        text = with_port["host"]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if bracketed and address.version != 6:
        return None  # "[203.0.113.7]" is no form anyone writes
    if address.version == 6 and address.scope_id:
        # "fe80::1%eth0": the zone names an interface of the sender's, not the client.
        address = ipaddress.IPv6Address(int(address))
    return address


def counted_as(address: IPAddress) -> str:
    """The text ``address`` is counted under: an IPv4 address as itself (also when written
    as IPv6), an IPv6 address as its /64 network's first address."""
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        network = ipaddress.IPv6Network((address, IPV6_CLIENT_PREFIX), strict=False)
        return str(network.network_address)
    return str(address)


def _client_address(request: HttpRequest) -> IPAddress | None:
    remote = parse_address(request.META.get("REMOTE_ADDR") or "")
    proxies = settings.TONGITS_TRUSTED_PROXIES
    if proxies <= 0:
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [a for a in forwarded if a]
    if len(forwarded) < proxies:
        # The request did not pass through all our proxies: only its peer is known.
        return remote
    written = forwarded[-proxies]
    address = parse_address(written)
    if address is None:
        shown = written[:LOGGED_CHARS] + ("…" if len(written) > LOGGED_CHARS else "")
        log.warning(
            "X-Forwarded-For holds %r where our proxy's entry should be an address: "
            "counting %s %s under the connecting address %s",
            shown,
            request.method,
            request.path,
            remote,
        )
        return remote
    return address
