"""Path converters for the addresses of rows: ``<id:...>`` and ``<name:...>``.

Django's ``<int:...>`` takes any run of digits, and a number too large for a database
column then fails in the query on SQLite (a 500 where there should be a 404). An id is
at most 18 digits, which every integer column holds; a longer one matches no address.
Its ``<str:...>`` takes a NUL (``%00``), which PostgreSQL refuses in a query (a 500); no
username or token holds one, so ``<name:...>`` does not match it.
Each ``urls.py`` that uses them imports this module; its first import registers them."""

from __future__ import annotations

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class NameConverter:
    regex = "[^/\x00]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IdConverter, "id")
register_converter(NameConverter, "name")
