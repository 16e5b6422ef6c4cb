"""What every page of a signed-in person asks of the database about that person, in one
query: whether a challenge or a friend request waits (the news' count,
games/social/news.py), how many correspondence games wait for their move (the "Your
turn" badge, games/correspondence/context.py) and whether they muted anyone (the chat
drawer's list, read only if so). Three queries before, each built by the ORM at some
2 ms of a page's CPU; a table page is loaded by every person at an arena's start.

Read on first use and kept on the request, so a page that shows none of them asks
nothing, and parts rendered apart with the request (a tag's own template) ask again
nothing. Each app writes its own SQL; this context processor, in place of the two
apps' own, only puts them in one select list.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.http import HttpRequest

from games.correspondence.context import Waiting
from games.correspondence.listing import waiting_count_sql
from games.social.chat.services import muted_any_sql
from games.social.news import News, waiting_sql


@dataclass(frozen=True)
class Facts:
    challenged: bool
    asked: bool
    your_turn: int
    muted_any: bool


class _Lazy:
    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.facts: Facts | None = None

    def __call__(self) -> Facts:
        if self.facts is None:
            parts = (waiting_sql, waiting_count_sql, muted_any_sql)
            made = [part(self.user_id) for part in parts]
            sql = "SELECT " + ", ".join(s for s, _ in made)
            with connection.cursor() as cursor:
                cursor.execute(sql, [p for _, params in made for p in params])
                c, a, n, m = cursor.fetchone()
            self.facts = Facts(bool(c), bool(a), int(n), bool(m))
        return self.facts


def facts_of(request: HttpRequest) -> _Lazy | None:
    """The request's person's facts, read on first call (None for a visitor)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    kept = getattr(request, "person_facts", None)
    if kept is None or kept.user_id != user.pk:
        kept = request.person_facts = _Lazy(user.pk)
    return kept


def person(request: HttpRequest) -> dict:
    facts = facts_of(request)
    if facts is None:
        return {}
    return {
        "news": News(facts.user_id, waiting=lambda: (facts().challenged, facts().asked)),
        "your_turn": Waiting(facts.user_id, count=lambda: facts().your_turn),
    }
