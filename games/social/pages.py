"""What the Friends page, the lobby's friends box, a profile and the badge show one
person; shared by the views and the lobby's socket (which re-renders them live)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext, pgettext

from accounts.models import display_name_for
from games import bots
from games.forms import TURN_CHOICES
from games.series.models import Series
from games.social import presence, services
from games.social.models import Block, Friendship
from games.social.presence import Status

# The challenge form's choices: what to play.
ONE_HAND = "hand"


@dataclass(frozen=True)
class FriendLine:
    user_id: int
    username: str
    name: str
    status: Status

    @property
    def watch_url(self) -> str:
        if self.status.kind == presence.PLAYING and self.status.watchable:
            return reverse("table", args=[self.status.game_id])
        return ""


def friend_lines(user_id: int) -> list[FriendLine]:
    ids = services.friend_ids(user_id)
    people = get_user_model().objects.filter(pk__in=ids).select_related("profile")
    seen = presence.statuses(ids)
    order = {presence.PLAYING: 0, presence.ONLINE: 0, presence.AWAY: 1, presence.OFFLINE: 2}
    lines = [FriendLine(p.pk, p.get_username(), display_name_for(p), seen[p.pk]) for p in people]
    return sorted(lines, key=lambda f: (order[f.status.kind], f.name.lower()))


def friends_context(user: AbstractBaseUser) -> dict[str, Any]:
    blocked = Block.objects.filter(blocker=user).select_related("blocked__profile")
    return {
        "friends": friend_lines(user.pk),
        "requests": list(services.requests_for(user.pk)),
        "sent": list(services.requests_sent(user.pk)),
        "challenges": list(services.challenges_for(user.pk)),
        "challenges_sent": services.with_expiry(services.challenges_sent(user.pk)),
        "blocked": [b.blocked for b in blocked],
        "hidden": presence.is_hidden(user.pk),
        "antes": Series.ANTES,
        "levels": bots.LEVELS,
        "one_hand": ONE_HAND,
        "turn_choices": TURN_CHOICES,
    }


def lobby_friends_context(user: AbstractBaseUser) -> dict[str, Any]:
    """The lobby's box: friends who are here, and challenges to answer."""
    here = [f for f in friend_lines(user.pk) if f.status.kind != presence.OFFLINE]
    return {
        "friends_here": here,
        "challenges": list(services.challenges_for(user.pk)),
    }


def presence_html(user_id: int, status: Status) -> str:
    """One friend's presence, swapped in place wherever the page shows it: the markup of
    parts.html's "presence" as an f-string, since a crowd's sockets make thousands a
    second (tests/test_social.py checks the two agree)."""
    kind = status.kind if status.kind in WORDS else presence.OFFLINE
    words = pgettext("presence", WORDS[kind])
    if kind == presence.PLAYING and status.watchable and status.game_id is not None:
        url = reverse("table", args=[int(status.game_id)])
        words += f' · <a href="{url}">{escape(gettext("Watch"))}</a>'
    return (
        f'<span id="presence-{int(user_id)}" class="presence presence-{kind}" '
        f'hx-swap-oob="true"><span class="presence-dot" aria-hidden="true"></span>'
        f"{words}</span>"
    )


# parts.html's words for each status (translated there with the context "presence").
WORDS = {
    presence.ONLINE: "Online",
    presence.PLAYING: "Playing",
    presence.AWAY: "Away",
    presence.OFFLINE: "Offline",
}


def relations(viewer_id: int, other_ids: list[int]) -> dict[int, str]:
    """``services.relation`` for several people at once, in one query whatever their number
    (a table page asks it of the other two people seated): the viewer's blocks of them and
    the friendships between them, as one list."""
    others = [o for o in other_ids if o != viewer_id]
    found = {o: "self" for o in other_ids if o == viewer_id}
    if not others:
        return found
    # Written out (the ORM's building of this union took a table page some 1.5 ms).
    listed = ", ".join(["%s"] * len(others))
    sql = (
        f"SELECT 0, blocker_id, blocked_id, false FROM {Block._meta.db_table}"
        f" WHERE blocker_id = %s AND blocked_id IN ({listed})"
        " UNION ALL SELECT id, from_user_id, to_user_id, accepted_at IS NOT NULL"
        f" FROM {Friendship._meta.db_table} WHERE (from_user_id = %s AND to_user_id IN ({listed}))"
        f" OR (to_user_id = %s AND from_user_id IN ({listed}))"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [viewer_id, *others, viewer_id, *others, viewer_id, *others])
        rows = cursor.fetchall()
    blocked: set[int] = set()
    by_other: dict[int, tuple[int, bool]] = {}
    for pk, a, b, accepted in sorted(rows):
        if pk == 0:  # a block (a friendship's pk is never 0)
            blocked.add(b)
        else:  # the first friendship between them, as services.relation reads it
            by_other.setdefault(b if a == viewer_id else a, (a, accepted))
    for other in others:
        if other in blocked:
            found[other] = "blocked"
        elif other not in by_other:
            found[other] = "none"
        elif by_other[other][1]:
            found[other] = "friends"
        else:
            found[other] = "asked" if by_other[other][0] == viewer_id else "asks_you"
    return found
