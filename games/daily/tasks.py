"""Par, worked out in the background: Hard plays the day's deal in the daily seat (a few
seconds of one core), on the coach's queue (django-tasks, database backend, ``manage.py
db_worker``), queued when the day is drawn, a day ahead. Stored once; worked out again
only for a day that has none (``manage.py daily_deal --par``)."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django_tasks import task

from games import bots

from . import par
from .models import Day

log = logging.getLogger(__name__)


@task()
def work_out_par(day_id: int) -> int | None:
    """Par of one day, stored; the chips, or None if the day is gone."""
    return store_par(day_id)


def store_par(day_id: int) -> int | None:
    day = Day.objects.filter(pk=day_id).only("seed", "par").first()
    if day is None:
        return None
    if day.par is not None:
        return day.par
    found = par.play(int(day.seed))  # outside any lock: a few seconds of search
    with transaction.atomic():
        Day.objects.filter(pk=day_id, par__isnull=True).update(
            par=found.chips, par_moves=found.moves, par_at=timezone.now(),
            par_model=bots.model_version(par.PAR_KIND) or "",
        )  # fmt: skip
    log.info("Par of daily deal %s worked out.", day_id)  # never the chips before the day
    return found.chips
