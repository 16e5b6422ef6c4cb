"""Where a form sends its person back to: a path of this site that the form carried
(``next``, ``back``), or a default. Shared by every view that takes one."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def local_path(request: HttpRequest, target: str | None, default: str) -> str:
    """``target`` if it is a path on this site, else ``default`` (a URL of ours).

    A path, not any string Django would accept: ``redirect("abc")`` takes a bare word for
    a view's name and fails (a 500 after the form's change was saved), and an address on
    another host is an open redirect."""
    if (
        target
        and target.startswith("/")
        and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        return target
    return default
