"""Who of a person's friends is here: online, playing (with a link to watch a public
table), away, or offline; pushed to their friends' lobby sockets when it changes, never
polled.

A person is here while any of their lobby or table sockets is open, on any worker: the
sockets count themselves in the ``Presence`` row (``connected`` / ``disconnected``).
Away is said by their page (it was hidden). The row keeps the status as friends see it
(offline for a person who hides their presence), so a change is pushed once, by the
worker that saw it, to each friend who is online, as the new status itself: the friends'
sockets render it without a query.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Greatest

from games.models import Game, Seat
from games.play import services
from games.social.models import Presence
from games.social.services import friend_ids, person_group

log = logging.getLogger(__name__)

OFFLINE, ONLINE, PLAYING, AWAY = "offline", "online", "playing", "away"


@dataclass(frozen=True)
class Status:
    kind: str
    game_id: int | None = None
    watchable: bool = False

    def event(self, user_id: int) -> dict:
        return {
            "type": "social.presence", "user": user_id, "kind": self.kind,
            "game": self.game_id, "watchable": self.watchable,
        }  # fmt: skip


def _row(user_id: int) -> Presence:
    try:
        with transaction.atomic():
            Presence.objects.get_or_create(user_id=user_id)
    except IntegrityError:  # made meanwhile by another socket
        pass
    return Presence.objects.select_for_update().get(user_id=user_id)


def _seen_as(row: Presence) -> Status:
    """What ``row``'s person's friends see now."""
    if row.hidden or row.sockets == 0:
        return Status(OFFLINE)
    seat = (
        Seat.objects.filter(user_id=row.user_id, game__status=Game.Status.PLAYING, away=False)
        .select_related("game")
        .order_by("-game__started_at")
        .first()
    )
    if seat is not None:
        return Status(PLAYING, seat.game_id, seat.game.public)
    return Status(AWAY if row.away else ONLINE)


def _update(user_id: int, **changes) -> Status:
    """Change the row, and tell friends if what they see changed. Never raises for the
    database: a socket's presence is not worth its game (SQLite's lock, a restart)."""
    try:
        return _change(user_id, changes)
    except DatabaseError as e:
        log.warning("Presence of %s not changed: %s", user_id, e)
        return Status(OFFLINE)


def _change(user_id: int, changes: dict) -> Status:
    with transaction.atomic():
        row = _row(user_id)
        for name, value in changes.items():
            setattr(row, name, value)
        row.save()
        row.refresh_from_db(fields=["sockets"])
        now = _seen_as(row)
        was = Status(row.shown, row.game_id, row.watchable)
        if now != was:
            row.shown, row.game_id, row.watchable = now.kind, now.game_id, now.watchable
            row.save(update_fields=["shown", "game_id", "watchable", "changed_at"])
            tell_friends(user_id, now)
    return now


def connected(user_id: int) -> Status:
    """One more socket of ``user_id`` is open (a page of theirs came back: not away)."""
    return _update(user_id, sockets=F("sockets") + 1, away=False)


def disconnected(user_id: int) -> Status:
    return _update(user_id, sockets=Greatest(F("sockets") - 1, 0))


def set_away(user_id: int, away: bool) -> Status:
    return _update(user_id, away=bool(away))


def set_hidden(user_id: int, hidden: bool) -> Status:
    return _update(user_id, hidden=bool(hidden))


def recheck(user_id: int) -> Status:
    """Look again (a game of theirs started or ended)."""
    return _update(user_id)


def is_hidden(user_id: int) -> bool:
    return Presence.objects.filter(user_id=user_id, hidden=True).exists()


def tell_friends(user_id: int, status: Status) -> int:
    """Push ``status`` to every friend of ``user_id`` who is online; how many."""
    online = Presence.objects.filter(user_id__in=friend_ids(user_id), sockets__gt=0)
    told = 0
    for friend in online.values_list("user_id", flat=True):
        services.notify_group(person_group(friend), status.event(user_id))
        told += 1
    return told


def statuses(user_ids: list[int]) -> dict[int, Status]:
    """How these people are seen by their friends now, in one query."""
    rows = Presence.objects.filter(user_id__in=user_ids).values_list(
        "user_id", "shown", "game_id", "watchable"
    )
    found = {uid: Status(kind, game, watch) for uid, kind, game, watch in rows}
    return {uid: found.get(uid, Status(OFFLINE)) for uid in user_ids}
