"""The badge on every page: how many challenges wait for the person's answer."""

from __future__ import annotations

from django.http import HttpRequest

from games.social.pages import challenge_count


def social(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"challenge_count": lambda: challenge_count(user)}
