"""Text from outside (a form, a socket frame, an uploaded record) that a database can store.

JSON may carry a lone UTF-16 surrogate (``"\\ud800"``), which Python decodes into a str
that has no UTF-8 form: SQLite and PostgreSQL both fail on it, even in a query. PostgreSQL
also refuses a NUL in a text column. Such text is refused with a message before any query.
"""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError

NOT_TEXT = "This holds characters that are not text (a NUL or a lone surrogate)."


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
