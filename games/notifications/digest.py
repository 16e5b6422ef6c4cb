"""The daily digest ("3 games wait for you"), and the notices a dead worker left behind;
both run by ``manage.py notify_hourly`` (cron, every hour).

A person gets a digest the first hour at or after ``TONGITS_DIGEST_HOUR`` in their own
time zone (UTC when unknown) on a day when games wait for them; its event key is that
local date, so running the command again, or twice in the hour, tells nobody twice.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Max, Q
from django.utils import timezone

from games.models import Game, Seat

from . import delivery, quiet
from .events import WAITING_TURN
from .models import Kind, Notice, Preferences
from .notices import tell

# A notice still queued this long after it was due, with no delivery touched meanwhile,
# lost its task (a worker died holding it): it is queued again.
LOST_AFTER = timedelta(minutes=15)


def waiting_games() -> dict[int, list[int]]:
    """For each person, the games at tables that wait where it is their turn."""
    rows = Seat.objects.filter(
        game__status=Game.Status.PLAYING,
        game__turn_seconds__gte=WAITING_TURN.total_seconds(),
        index=F("game__turn_seat"),
        user__isnull=False,
        away=False,
    ).values_list("user_id", "game_id")
    found: dict[int, list[int]] = defaultdict(list)
    for user_id, game_id in rows.order_by("game_id"):
        found[user_id].append(game_id)
    return found


def send_digests(now: datetime | None = None) -> int:
    """Tell each person whose morning has come of the games waiting for them; how many."""
    now = now or timezone.now()
    waiting = waiting_games()
    zones = dict(
        Preferences.objects.filter(user_id__in=waiting).values_list("user_id", "time_zone")
    )
    told = 0
    for user_id, games in waiting.items():
        local = quiet.local_now(now, zones.get(user_id, "")) or now
        if local.hour < settings.TONGITS_DIGEST_HOUR:
            continue
        key = f"digest:{local.date().isoformat()}"
        tell(user_id, Kind.DIGEST, key, count=len(games), tables=games[:20])
        told += 1
    return told


def requeue_lost(now: datetime | None = None) -> int:
    """Queue again the notices whose task was lost; running one twice sends nothing twice."""
    now = now or timezone.now()
    since = now - LOST_AFTER
    lost = (
        Notice.objects.filter(status=Notice.Status.QUEUED, created_at__lt=since)
        .filter(Q(deliver_after__isnull=True) | Q(deliver_after__lt=since))
        .annotate(touched=Max("deliveries__updated_at"))
        .filter(Q(touched__isnull=True) | Q(touched__lt=since))
        .values_list("pk", flat=True)
    )
    ids = list(lost[:1000])
    for notice_id in ids:
        delivery.deliver.enqueue(notice_id)
    return len(ids)
