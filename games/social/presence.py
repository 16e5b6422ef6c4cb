"""Who of a person's friends is here: online, playing (with a link to watch a public
table), away, or offline; pushed to their friends' lobby sockets when it changes, never
polled.

A person is here while any of their lobby or table sockets is open, on any worker: the
sockets count themselves in the ``Presence`` row (``connected`` / ``disconnected``).
Away is said by each page (it was hidden): away while all of them are. The row keeps
the status as friends see it (offline for a person who hides their presence), so a
change is pushed once, by the
worker that saw it, to each friend who is online, as the new status itself: the friends'
sockets render it without a query.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

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


def _ensure_row(user_id: int) -> None:
    try:
        with transaction.atomic():
            Presence.objects.get_or_create(user_id=user_id)
    except IntegrityError:  # made meanwhile by another socket
        pass


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
        # A private table's number is nobody else's business: only a watchable one's.
        public = seat.game.public
        return Status(PLAYING, seat.game_id if public else None, public)
    return Status(AWAY if row.away_sockets >= row.sockets else ONLINE)


def _update(user_id: int, **changes) -> Status:
    """Change the row, and tell friends if what they see changed. Never raises for the
    database: a socket's presence is not worth its game (SQLite's lock, a restart)."""
    try:
        return _change(user_id, changes)
    except DatabaseError as e:
        log.warning("Presence of %s not changed: %s", user_id, e)
        return Status(OFFLINE)


def _change(user_id: int, changes: dict) -> Status:
    _ensure_row(user_id)
    with transaction.atomic():
        # The update first: it takes the row's lock (PostgreSQL) or the database's write
        # lock (SQLite) before anything is read, so two sockets of one person opening and
        # closing at once are counted one after the other and neither's view is stale.
        rows = Presence.objects.filter(user_id=user_id)
        rows.update(changed_at=timezone.now(), **changes)
        row = rows.select_for_update().get()
        now = _seen_as(row)
        if now != Status(row.shown, row.game_id, row.watchable):
            rows.update(shown=now.kind, game_id=now.game_id, watchable=now.watchable)
            tell_friends(user_id, now)
    return now


def connected(user_id: int) -> Status:
    """One more socket of ``user_id`` is open."""
    return _update(user_id, sockets=F("sockets") + 1)


def disconnected(user_id: int, was_away: bool = False) -> Status:
    """One of their sockets closed (``was_away``: its page had said it was hidden)."""
    changes = {"sockets": Greatest(F("sockets") - 1, 0)}
    if was_away:
        changes["away_sockets"] = Greatest(F("away_sockets") - 1, 0)
    return _update(user_id, **changes)


def set_away(user_id: int, away: bool) -> Status:
    """A socket's page was hidden (``away``) or shown again: the person is away while
    every page of theirs is hidden."""
    step = 1 if away else -1
    return _update(user_id, away_sockets=Greatest(F("away_sockets") + step, 0))


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
