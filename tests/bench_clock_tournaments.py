"""A server clock tick's cost with many idle tournaments, in one process: not a test of
the suite (its name does not start with test_), a measurement that prints figures.

    DATABASE_URL=postgres://… python -m pytest tests/bench_clock_tournaments.py -s \
        -p no:cacheprovider

For each count of running private tournaments nobody has entered (what one account could
make in seconds before issue 46), it ticks the clock until each has been looked at once,
then times ``TICKS`` more ticks (wall time and queries a tick, the clock's own work on its
own thread: the same thread makes the bots' moves and the turn time-outs). It uses only
``clock.tick`` and ``Tournament.objects.create``, so it runs on the code before the
change too, for the figure it replaces.
"""

from __future__ import annotations

import os
import statistics
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.play import clock
from games.tournaments.models import Tournament

# COUNTS=1,300 for the code before the change: it asked each of 3,000 at every tick.
COUNTS = tuple(int(n) for n in os.environ.get("COUNTS", "1,300,3000").split(","))
TICKS = 40


def _idle(n: int) -> None:
    now = timezone.now()
    for i in range(n):
        Tournament.objects.create(name=f"Idle {i}", starts_at=now, minutes=120)


@pytest.mark.django_db
def test_a_clock_ticks_cost_with_idle_tournaments():
    now = timezone.now() + timedelta(seconds=1)
    made = 0
    for count in COUNTS:
        _idle(count - made)
        made = count
        for _ in range(count // 10 + 2):  # every one looked at once (a tick looks at 20)
            clock.tick(now)
        times, queries = [], []

        def count_it(execute, sql, params, many, context, queries=queries):
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count_it):
            for _ in range(TICKS):
                started = time.perf_counter()
                clock.tick(now)
                times.append(1000 * (time.perf_counter() - started))
        print(
            f"{count} idle tournaments: a tick {statistics.median(times):.2f} ms "
            f"(p90 {statistics.quantiles(times, n=10)[-1]:.2f} ms), "
            f"{len(queries) / TICKS:.0f} queries"
        )
