"""Who of a person's friends is here: online, playing (with a link to watch a public
table), away, or offline; pushed to their friends' lobby sockets when it changes, never
polled.

A person is here while any of their lobby or table sockets is open, on any worker: the
sockets count themselves in the ``Presence`` row (``connected`` / ``disconnected``).
Away is said by each page (it was hidden): away while all of them are. The row keeps
the status as friends see it (offline for a person who hides their presence), so a
change is pushed once, by the worker that saw it, to each friend who is online, as the
new status itself: the friends' sockets render it without a query. For a person with no
friend only the counts are kept (their status is worked out when they make one).

Each worker also says in Redis what it counted (games/social/heartbeat.py): when a
worker dies, another takes its sockets off the counts within a minute, and its people
go offline for their friends.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import DatabaseError, connection, transaction
from django.db.models import F, QuerySet
from django.db.models.functions import Greatest
from django.dispatch import receiver
from django.utils import timezone

from games.models import Game, Seat
from games.play import telling
from games.social import heartbeat
from games.social.models import Friendship, Presence
from games.social.services import friend_ids, friends_made, has_friends, person_group

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


# A change that only takes sockets off: no row is made for it.
FORGET = "_forget"
# What a person with no friend is to their friends.
UNSEEN = Status(OFFLINE)


def _count(user_id: int, changes: dict) -> None:
    """Change the person's counts (one UPDATE, committed at once; the row is made on
    their first socket, not for sockets taken off)."""
    make = not changes.pop(FORGET, False)
    rows = Presence.objects.filter(user_id=user_id)
    if rows.update(changed_at=timezone.now(), **changes) or not make:
        return
    # Made unless another socket made it meanwhile: one statement, no savepoint (a crowd's
    # first sockets made each row in five).
    Presence.objects.bulk_create([Presence(user_id=user_id)], ignore_conflicts=True)
    rows.update(changed_at=timezone.now(), **changes)


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
    if changes:
        _count(user_id, changes)
    if not has_friends(user_id):
        # Nobody sees them: the counts are enough (two queries a socket, not six). The
        # status is looked at again when they make a friend (``_made_friends``).
        return UNSEEN
    return _look_again(user_id)


def _look_again(user_id: int) -> Status:
    with transaction.atomic():
        # The row's lock (PostgreSQL) or the database's write lock (SQLite) before
        # anything is read: two sockets of one person opening and closing at once wait
        # for each other here, and the last one reads both counts, so neither's view is
        # stale (a count waits for the lock too).
        rows = Presence.objects.filter(user_id=user_id)
        if connection.vendor == "sqlite":  # which has no row locks: a write takes its lock
            rows.update(changed_at=timezone.now())
        row = rows.select_for_update().first()
        if row is None:
            return UNSEEN
        now = _seen_as(row)
        if now != Status(row.shown, row.game_id, row.watchable):
            rows.update(shown=now.kind, game_id=now.game_id, watchable=now.watchable)
            tell_friends(user_id, now)
    return now


def connected(user_id: int) -> Status:
    """One more socket of ``user_id`` is open (on this worker: its lease first)."""
    heartbeat.record(user_id, sockets=1)
    if connection.vendor != "postgresql":  # SQLite: a bench's, a developer's
        return _update(user_id, sockets=F("sockets") + 1)
    try:
        if not _arrive(user_id):
            return UNSEEN  # nobody sees them, as in ``_change``
        return _look_again(user_id)
    except DatabaseError as e:
        log.warning("Presence of %s not changed: %s", user_id, e)
        return Status(OFFLINE)


def _arrive(user_id: int) -> bool:
    """``_count`` of one more socket and ``has_friends`` in one statement (every socket's
    arrival, three a table at an arena's start; two ORM-built ones before, four on a
    person's first socket): the row made with its first socket or counted up, and
    whether the person has a friend to be told."""
    table, friends = Presence._meta.db_table, Friendship._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (user_id, sockets, away_sockets, hidden, shown, game_id,"
            " watchable, changed_at) VALUES (%s, 1, 0, false, %s, NULL, false, %s)"
            f" ON CONFLICT (user_id) DO UPDATE SET sockets = {table}.sockets + 1,"
            f" changed_at = EXCLUDED.changed_at RETURNING EXISTS (SELECT 1 FROM {friends}"
            " WHERE (from_user_id = %s OR to_user_id = %s) AND accepted_at IS NOT NULL)",
            [user_id, OFFLINE, timezone.now(), user_id, user_id],
        )
        return bool(cursor.fetchone()[0])


def disconnected(user_id: int, was_away: bool = False) -> Status:
    """One of their sockets closed (``was_away``: its page had said it was hidden)."""
    status = forget_sockets(user_id, 1, 1 if was_away else 0)
    heartbeat.record(user_id, sockets=-1, away=-1 if was_away else 0)
    return status


def forget_sockets(user_id: int, sockets: int, away: int = 0) -> Status:
    """``sockets`` of theirs closed, ``away`` of them hidden (a closed socket, or a dead
    worker's: games/social/heartbeat.py)."""
    changes = {"sockets": Greatest(F("sockets") - sockets, 0), FORGET: True}
    if away:
        changes["away_sockets"] = Greatest(F("away_sockets") - away, 0)
    return _update(user_id, **changes)


def keep_beating() -> None:
    """On the event loop, after a socket is counted: this worker says it is alive, and
    reaps the dead (games/social/heartbeat.py)."""
    heartbeat.ensure_beating(forget_sockets)


def reap() -> int:
    """Take the sockets of workers that stopped beating off their people's counts."""
    return heartbeat.reap(forget_sockets)


def set_away(user_id: int, away: bool) -> Status:
    """A socket's page was hidden (``away``) or shown again: the person is away while
    every page of theirs is hidden."""
    if away:
        heartbeat.record(user_id, away=1)
    status = _update(user_id, away_sockets=Greatest(F("away_sockets") + (1 if away else -1), 0))
    if not away:
        heartbeat.record(user_id, away=-1)
    return status


def set_hidden(user_id: int, hidden: bool) -> Status:
    return _update(user_id, hidden=bool(hidden))


def recheck(user_id: int) -> Status:
    """Look again (a game of theirs started or ended, they made a friend)."""
    return _update(user_id)


def is_hidden(user_id: int) -> bool:
    return Presence.objects.filter(user_id=user_id, hidden=True).exists()


def hiding() -> QuerySet:
    """The people who hide their presence (their user ids, as a subquery). Their tables
    are left off the public list of games to watch as well, where anyone could find them
    playing; a public table still opens to whoever has its link."""
    return Presence.objects.filter(hidden=True).values("user_id")


@receiver(friends_made)
def _made_friends(sender: object, user_ids: tuple[int, ...], **kwargs: object) -> None:
    for user_id in user_ids:
        recheck(user_id)


def tell_friends(user_id: int, status: Status) -> int:
    """Push ``status`` to every friend of ``user_id`` who is online; how many."""
    online = Presence.objects.filter(user_id__in=friend_ids(user_id), sockets__gt=0)
    told = 0
    for friend in online.values_list("user_id", flat=True):
        telling.notify_group(person_group(friend), status.event(user_id))
        told += 1
    return told


def statuses(user_ids: list[int]) -> dict[int, Status]:
    """How these people are seen by their friends now, in one query."""
    rows = Presence.objects.filter(user_id__in=user_ids).values_list(
        "user_id", "shown", "game_id", "watchable"
    )
    found = {uid: Status(kind, game, watch) for uid, kind, game, watch in rows}
    return {uid: found.get(uid, Status(OFFLINE)) for uid in user_ids}
