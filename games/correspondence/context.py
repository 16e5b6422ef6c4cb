"""The badge on every page: how many correspondence games wait for the person's move,
read only when the page shows it (one query)."""

from __future__ import annotations

from functools import cached_property

from django.http import HttpRequest

from . import listing


class Waiting:
    def __init__(self, user_id: int) -> None:
        self.user_id = user_id

    @cached_property
    def count(self) -> int:
        return listing.waiting_count(self.user_id)


def correspondence(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"your_turn": Waiting(user.pk)}
