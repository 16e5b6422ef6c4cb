"""News on every page: what waits for the person's answer (games/social/news.py), read
only if the page shows it."""

from __future__ import annotations

from django.http import HttpRequest

from games.social.news import News


def social(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"news": News(user.pk)}
