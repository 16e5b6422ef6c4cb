"""The page's CSRF token made once, for every form of the page.

Django's own ``csrf`` context processor gives templates a lazy string that masks the
secret afresh each time it is shown (32 random characters, one ``urandom`` call each):
a table page shows it in the page's htmx headers, the logout form, three language
switches and the Leave form. Any masked token checks against the same secret, so one
is enough; this processor, listed after the built-in one, puts one in its place, made
on first use (a page that shows no form makes none) and kept on the request, so parts
rendered apart (a tag's own template, rendered with the request) show the same one.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.functional import SimpleLazyObject


def csrf_once(request: HttpRequest) -> dict:
    kept = getattr(request, "csrf_once", None)
    if kept is None:

        def token() -> str:
            made = get_token(request)
            return "NOTPROVIDED" if made is None else str(made)

        kept = request.csrf_once = SimpleLazyObject(token)
    return {"csrf_token": kept}
