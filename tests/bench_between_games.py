"""A table's CPU between games, in one process: not a test of the suite (its name does
not start with test_), a measurement that prints figures.

    DATABASE_URL=postgres://… python -m pytest tests/bench_between_games.py -s -p no:cacheprovider

An arena pairs ``TABLES`` + 1 tables; the first warms the process up. For each other
table it loads the table page of each of its three seats (the Django test client) and
opens each seat's socket until its first board (channels' WebsocketCommunicator), and
prints the process's CPU (time.process_time, all threads) a table for each half, the
page's queries and the sizes. ``PROFILE=pages`` or ``PROFILE=sockets`` prints that
half's cProfile too (the sockets' database threads are not in it), sorted by ``SORT``.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import time

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Seat
from games.tournaments import services
from tests.table.support import session_headers, socket
from tests.test_tournaments import _arena, _people

pytestmark = pytest.mark.django_db(transaction=True)
TABLES = int(os.environ.get("TABLES", "20"))
PROFILE = os.environ.get("PROFILE", "")


def _tables():
    t = _arena()
    people = _people(3 * TABLES + 3)
    for p in people:
        services.join(t.pk, p)
    by_user = {p.pk: p for p in people}
    tables, clients, headers = [], {}, {}
    for game in services.pair(t.pk):
        seats = sorted(Seat.objects.filter(game=game), key=lambda s: s.index)
        users = [by_user[s.user_id] for s in seats]
        tables.append((game.pk, users))
        for u in users:
            clients[u.pk] = Client()
            clients[u.pk].force_login(u)
            headers[u.pk] = session_headers(u)
    return tables, clients, headers


def _pages(game_id, users, clients, profile=None):
    if profile:
        profile.enable()
    with CaptureQueriesContext(connection) as queries:
        for u in users:
            page = clients[u.pk].get(f"/games/{game_id}/")
            assert page.status_code == 200
    if profile:
        profile.disable()
    return len(queries.captured_queries), len(page.content)


async def _sockets(game_id, users, headers, profile=None):
    sizes, open_ = [], []
    if profile:
        profile.enable()
    for u in users:
        s = socket(game_id, headers[u.pk])
        connected, _ = await s.connect()
        assert connected
        sizes.append(len(await s.receive_from(timeout=5)))
        open_.append(s)
    if profile:
        profile.disable()
    for s in open_:
        await s.disconnect()
    return sizes


async def test_a_tables_cpu_between_games():
    tables, clients, headers = await sync_to_async(_tables)()
    first, *measured = tables
    await sync_to_async(_pages)(*first, clients)
    await _sockets(*first, headers)
    pages_prof = cProfile.Profile() if PROFILE == "pages" else None
    sockets_prof = cProfile.Profile() if PROFILE == "sockets" else None
    pages_cpu = sockets_cpu = 0.0
    for game_id, users in measured:
        start = time.process_time()
        queries, size = await sync_to_async(_pages)(game_id, users, clients, pages_prof)
        middle = time.process_time()
        sizes = await _sockets(game_id, users, headers, sockets_prof)
        pages_cpu += middle - start
        sockets_cpu += time.process_time() - middle
    n = len(measured)
    print(
        f"\n{n} tables: three pages {pages_cpu / n * 1000:.1f} ms of CPU a table "
        f"({queries} queries, {size} bytes a page); three sockets to their first board "
        f"{sockets_cpu / n * 1000:.1f} ms (and closing them; first frames {sizes} bytes); "
        f"together {(pages_cpu + sockets_cpu) / n * 1000:.1f} ms a table"
    )
    if pages_prof or sockets_prof:
        stats = pstats.Stats(pages_prof or sockets_prof)
        stats.sort_stats(os.environ.get("SORT", "cumulative")).print_stats(40)
