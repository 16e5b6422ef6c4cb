"""News for one person: the challenges and friend requests waiting for their answer.

Shown on every page (templates/social/news.html, static/js/news.js) as a count on the
Menu button and the Friends link and as toasts at the bottom of the screen, with Accept
one tap away; sent again, whole, over the person's sockets when it changes (their lobby
socket or, on a page without one, its news-only kind, and their table sockets), so a
page keeps what is shown and adds or removes toasts by their keys.

A person playing a game that is not over cannot start another, so a challenge's toast
says so and offers Accept once the game is over: the table's socket sends the news
again when its game ends. Nothing here carries a card: a name, a challenge's terms, and
at most the number of the person's own table.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from functools import cached_property

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.models import CORRESPONDENCE_SECONDS, Game, Seat
from games.social import services
from games.social.models import Block, Challenge, Friendship


def waiting_sql(user_id: int) -> tuple[str, list]:
    """Whether a challenge, and whether a friend request, waits for ``user_id``'s answer:
    two SQL booleans, for a select list (every page of a signed-in person asks them, with
    the other facts of its person: tongits_site/person_facts.py). The same as
    ``services.challenges_for`` and ``services.requests_for`` (fresh, pending, from nobody
    the person blocked), written out: the ORM's building of those two took a page some
    2 ms of CPU, more than the query itself."""
    now = timezone.now()
    days = settings.TONGITS_CORRESPONDENCE_ANSWER_DAYS
    blocked = (
        f"NOT EXISTS (SELECT 1 FROM {Block._meta.db_table} b"
        " WHERE b.blocker_id = {t}.to_user_id AND b.blocked_id = {t}.from_user_id)"
    )
    sql = (
        f"EXISTS (SELECT 1 FROM {Challenge._meta.db_table} c WHERE c.to_user_id = %s"
        " AND c.status = %s AND c.created_at >= CASE WHEN c.turn_seconds >= %s THEN %s ELSE %s END"
        f" AND {blocked.format(t='c')}), "
        f"EXISTS (SELECT 1 FROM {Friendship._meta.db_table} f WHERE f.to_user_id = %s"
        f" AND f.accepted_at IS NULL AND {blocked.format(t='f')})"
    )
    params = [
        user_id, Challenge.Status.PENDING.value, CORRESPONDENCE_SECONDS,
        now - timedelta(days=days), now - services.CHALLENGE_TTL, user_id,
    ]  # fmt: skip
    return sql, params


class News:
    """What waits for ``user_id``, read on first use (a page that shows no count reads
    nothing) and at most once: whether anything waits (one query), then the challenges'
    and the requests' only if some wait, and whether the person is playing only when a
    challenge waits."""

    def __init__(
        self,
        user_id: int,
        go: int | None = None,
        waiting: Callable[[], tuple[bool, bool]] | None = None,
    ) -> None:
        self.user_id = user_id
        self.go = go  # a challenge of theirs was accepted: the new table's game
        self._waiting = waiting  # a page's: read with its person's other facts

    @cached_property
    def waiting(self) -> tuple[bool, bool]:
        """Whether any challenge, and any friend request, waits: one query for both (on a
        page, the one query of its person's facts), and on most pages of most people the
        only one (nothing waits)."""
        if self._waiting is not None:
            return self._waiting()
        sql, params = waiting_sql(self.user_id)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {sql}", params)
            row = cursor.fetchone()
        return bool(row[0]), bool(row[1])

    @cached_property
    def challenges(self) -> list[Challenge]:
        if not self.waiting[0]:
            return []
        # Each with its expires_at: its toast leaves the screen then.
        return services.with_expiry(services.challenges_for(self.user_id))

    @cached_property
    def requests(self) -> list[Friendship]:
        return list(services.requests_for(self.user_id)) if self.waiting[1] else []

    @property
    def count(self) -> int:
        return len(self.challenges) + len(self.requests)

    @cached_property
    def playing(self) -> int | None:
        """The game this person is playing (dealt, not over), if any: accepting a
        challenge waits for its end."""
        if not self.challenges and not self.go:
            return None
        seats = Seat.objects.filter(
            user_id=self.user_id, game__status=Game.Status.PLAYING,
            game__turn_seconds__lt=CORRESPONDENCE_SECONDS,  # those wait: not in the way
        )  # fmt: skip
        if self.go is not None:  # the table the challenge just dealt is not in the way
            seats = seats.exclude(game_id=self.go)
        return seats.order_by("-game_id").values_list("game_id", flat=True).first()
