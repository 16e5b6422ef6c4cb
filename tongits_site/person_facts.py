"""What every page of a signed-in person asks of the database about that person, in one
query: whether a challenge or a friend request waits (the news' count,
games/social/news.py), how many correspondence games wait for their move (the "Your
turn" badge, games/correspondence/context.py) and whether they muted anyone (the chat
drawer's list, read only if so), and the person's profile (is the person a guest, the
name shown in the menu). Four queries before, each built by the ORM at some
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

from accounts.models import Profile
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
    def __init__(self, user) -> None:
        self.user, self.user_id = user, user.pk
        self.facts: Facts | None = None

    def __call__(self) -> Facts:
        if self.facts is None:
            parts = (waiting_sql, waiting_count_sql, muted_any_sql)
            made = [part(self.user_id) for part in parts]
            # With the person's profile (whether a guest, the name shown: the menu asks),
            # kept on the user if it has not been read yet.
            profile = self.user._meta.get_field("profile")
            columns = [f.column for f in Profile._meta.concrete_fields]
            read = not profile.is_cached(self.user)
            sql = "SELECT " + ", ".join(s for s, _ in made)
            if read:
                sql += "".join(f', p."{c}"' for c in columns)
                table = Profile._meta.db_table
                sql += f" FROM (SELECT 1) one LEFT JOIN {table} p ON p.user_id = %s"
            params = [p for _, params in made for p in params] + ([self.user_id] if read else [])
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                row = cursor.fetchone()
            c, a, n, m = row[:4]
            self.facts = Facts(bool(c), bool(a), int(n), bool(m))
            if read:  # None: they have none (the relation raises, as it would)
                kept = None
                if row[4] is not None:
                    names = [f.attname for f in Profile._meta.concrete_fields]
                    kept = Profile.from_db(connection.alias, names, row[4:])
                    Profile._meta.get_field("user").set_cached_value(kept, self.user)
                profile.set_cached_value(self.user, kept)
        return self.facts


def facts_of(request: HttpRequest) -> _Lazy | None:
    """The request's person's facts, read on first call (None for a visitor)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    kept = getattr(request, "person_facts", None)
    if kept is None or kept.user_id != user.pk:
        kept = request.person_facts = _Lazy(getattr(user, "_wrapped", user))
    return kept


def person(request: HttpRequest) -> dict:
    facts = facts_of(request)
    if facts is None:
        return {}
    return {
        "news": News(facts.user_id, waiting=lambda: (facts().challenged, facts().asked)),
        "your_turn": Waiting(facts.user_id, count=lambda: facts().your_turn),
    }
