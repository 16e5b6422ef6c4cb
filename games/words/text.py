"""Text from outside (a form, a socket frame, an uploaded record) that a database can store.

JSON may carry a lone UTF-16 surrogate (``"\\ud800"``), which Python decodes into a str
that has no UTF-8 form: SQLite and PostgreSQL both fail on it, even in a query. PostgreSQL
also refuses a NUL in a text column. Such text is refused with a message before any query.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _

NOT_TEXT = _("This holds characters that are not text (a NUL or a lone surrogate).")


def lazy_message(make: Callable[[], str]) -> Promise:
    """A message with values in it, put into words when it is read, not when it is made:
    ``lazy_message(lambda: gettext("…%(n)s…") % {"n": n})``. Services make their messages
    in threads with no request; each reader (a page, a socket) reads it in its own
    language. (``gettext_lazy(…) % …`` would translate at once.)"""
    return lazy(make, str)()


def encodable(text: str) -> bool:
    """Whether ``text`` has a UTF-8 form (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def storable(text: str) -> bool:
    """Whether a database can store ``text`` and compare it in a query."""
    return "\x00" not in text and encodable(text)


def all_encodable(data: object) -> bool:
    """Whether every string in a parsed JSON value (keys included) is encodable."""
    return encodable(json.dumps(data, ensure_ascii=False))


def validate_storable(value: str) -> None:
    """A form field validator."""
    if not storable(value):
        raise ValidationError(NOT_TEXT, code="not_text")
