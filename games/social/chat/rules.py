"""Who may say what at a table.

Presets (phrases and emotes) anywhere, by anyone with an account. Free text only at a
private, unrated table whose people are all friends of one another, the barkada case: at
rated and public tables free text between two seats is how colluders pass cards, and a
preset carries none. Watchers (no seat) send presets only.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings

from games.models import Game
from games.social.services import friend_ids


def seats_are_friends(user_ids: Iterable[int]) -> bool:
    """Whether every one of these people is a friend of every other (the friends app,
    games.social, says who is whose friend)."""
    people = sorted(set(user_ids))
    return all(b in set(friend_ids(a)) for i, a in enumerate(people) for b in people[i + 1 :])


def free_text_allowed(game: Game, user_id: int | None) -> bool:
    """Whether ``user_id`` may send free text at ``game``: seated at a private, unrated
    table whose people (two or more; bots say nothing) are all friends of one another."""
    if game.public or game.rated or game.imported or user_id is None:
        return False
    people = [s.user_id for s in game.seats.all() if s.user_id is not None and not s.bot_kind]
    if user_id not in people or len(people) < 2:
        return False
    return seats_are_friends(people)


def max_length() -> int:
    return settings.TONGITS_CHAT_MAX_LENGTH


def per_ten_seconds() -> int:
    return settings.TONGITS_CHAT_PER_10_SECONDS
