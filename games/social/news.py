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

from functools import cached_property

from django.contrib.auth import get_user_model
from django.db.models import Exists

from games.models import CORRESPONDENCE_SECONDS, Game, Seat
from games.social import services
from games.social.models import Challenge, Friendship


class News:
    """What waits for ``user_id``, read on first use (a page that shows no count reads
    nothing) and at most once: whether anything waits (one query), then the challenges'
    and the requests' only if some wait, and whether the person is playing only when a
    challenge waits."""

    def __init__(self, user_id: int, go: int | None = None) -> None:
        self.user_id = user_id
        self.go = go  # a challenge of theirs was accepted: the new table's game

    @cached_property
    def waiting(self) -> tuple[bool, bool]:
        """Whether any challenge, and any friend request, waits: one query for both, and
        on most pages of most people the only one (nothing waits)."""
        row = (
            get_user_model()
            .objects.filter(pk=self.user_id)
            .annotate(
                challenged=Exists(services.challenges_for(self.user_id).order_by()),
                asked=Exists(services.requests_for(self.user_id).order_by()),
            )
            .values_list("challenged", "asked")
            .first()
        )
        return (bool(row[0]), bool(row[1])) if row is not None else (False, False)

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
