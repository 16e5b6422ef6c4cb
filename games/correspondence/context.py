"""The badge on every page: how many correspondence games wait for the person's move,
read only when the page shows it (on a page, with its person's other facts in one query:
tongits_site/person_facts.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from . import listing


class Waiting:
    def __init__(self, user_id: int, count: Callable[[], int] | None = None) -> None:
        self.user_id = user_id
        self._count = count  # a page's: read with its person's other facts

    @cached_property
    def count(self) -> int:
        if self._count is not None:
            return self._count()
        return listing.waiting_count(self.user_id)
