"""A table's CPU between games, in one process: not a test of the suite (its name does
not start with test_), a measurement that prints figures.

    DATABASE_URL=postgres://… python -m pytest tests/bench_between_games.py -s -p no:cacheprovider

An arena pairs ``TABLES`` + 1 tables; the first warms the process up. For each other
table it loads the table page of each of its three seats (the Django test client) and
opens each seat's socket until its first board (channels' WebsocketCommunicator), and
prints the process's CPU (time.process_time, all threads) a table for each half, the
page's queries and the sizes. ``PROFILE=pages`` or ``PROFILE=sockets`` prints that
half's cProfile too (the sockets' database threads are not in it), sorted by ``SORT``;
``PROFILE=end`` the last moves' (the game's end with nobody to pair) in the next test, and
``PROFILE=end-queries`` the statements of one such end.

``test_a_tables_cpu_to_its_next_game`` measures the arena's way between games since the
next game comes to the open sockets (games/sockets/table.py): every person's socket is
open at their game; each game's last move is played (the server plays it, as for a seat
away) and its end pairs its three people again at once, whose sockets then receive the
new game's whole board. It prints the CPU from the last move to the three new boards, less
the same for games that end while nobody can be paired (the tournament made to start
later), a table: the pairing of the three, their new table and three first boards.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import time
from contextlib import nullcontext
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, Seat
from games.play import moves, server_moves
from games.tournaments import services
from games.tournaments.models import Tournament
from tests.fast_games import prepare_last_move
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


def _last_moves_ready(game_ids: list[int]) -> None:
    for game_id in game_ids:
        prepare_last_move(game_id)
        game = Game.objects.get(pk=game_id)
        Seat.objects.filter(game_id=game_id).exclude(index=game.turn_seat).update(away=False)
    moves.forget_cached_states()


_END_PROFILE = cProfile.Profile() if PROFILE == "end" else None


_END_QUERIES: list[list[str]] = []


def _last_move(game_id: int) -> None:
    if _END_PROFILE is not None:
        _END_PROFILE.enable()
    # Capturing costs CPU: only when asked for.
    capture = CaptureQueriesContext(connection) if PROFILE == "end-queries" else nullcontext()
    with capture as queries:
        result = server_moves.play_due(game_id, now=timezone.now())
    if queries is not None:
        _END_QUERIES.append([q["sql"] for q in queries.captured_queries])
    if _END_PROFILE is not None:
        _END_PROFILE.disable()
    assert result is not None and result.finished


def _starts(t_pk: int, at) -> None:
    Tournament.objects.filter(pk=t_pk).update(starts_at=at, due_at=at)


async def _until(ws, pattern: str) -> None:
    got = []
    try:
        while pattern not in (text := await ws.receive_from(timeout=10)):
            got.append(text[:300])
    except TimeoutError:
        raise AssertionError(f"{pattern} never came; came: {got}") from None


async def _open_all(tables, headers) -> dict[int, object]:
    sockets = {}
    for game_id, users in tables:
        for u in users:
            s = socket(game_id, headers[u.pk])
            assert (await s.connect())[0]
            await s.receive_from(timeout=5)
            sockets[u.pk] = s
    return sockets


async def test_a_tables_cpu_to_its_next_game():
    tables, _clients, headers = await sync_to_async(_tables)()
    t_pk = await sync_to_async(lambda: Tournament.objects.latest("pk").pk)()
    sockets = await _open_all(tables, headers)
    ids = [game_id for game_id, _ in tables]
    await sync_to_async(_last_moves_ready)(ids)
    # Control: the games end while nobody can be paired (the tournament starts later).
    await sync_to_async(_starts)(t_pk, timezone.now() + timedelta(hours=1))
    control = 0.0
    for i, (game_id, users) in enumerate(tables):
        start = time.process_time()
        await sync_to_async(_last_move)(game_id)
        for u in users:
            await _until(sockets[u.pk], "table-result")
        if i:  # the first warms the process up
            control += time.process_time() - start
    if _END_PROFILE is not None:  # the game's end alone: the move, scores, ratings
        pstats.Stats(_END_PROFILE).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(40)
    if PROFILE == "end-queries":  # the statements of one game's end, shortened
        for sql in _END_QUERIES[1]:
            print(sql[:160])
    # They are all paired again at once (not measured), and each new game ends as above,
    # this time pairing its three again, whose sockets go on to the next game.
    await sync_to_async(_starts)(t_pk, timezone.now() - timedelta(minutes=1))
    made = await sync_to_async(services.pair)(t_pk)
    assert len(made) == len(tables)
    for _game_id, users in tables:
        for u in users:
            await _until(sockets[u.pk], 'id="chat-log"')
    people = {u.pk: u for _, users in tables for u in users}
    seats = await sync_to_async(
        lambda: list(Seat.objects.filter(game__in=made, user__isnull=False).order_by("game_id"))
    )()
    by_game: dict[int, list] = {}
    for seat in seats:  # the pairing seats people with others than last time
        by_game.setdefault(seat.game_id, []).append(people[seat.user_id])
    tables = list(by_game.items())
    await sync_to_async(_last_moves_ready)([game_id for game_id, _ in tables])
    measured = 0.0
    for i, (game_id, users) in enumerate(tables):
        start = time.process_time()
        await sync_to_async(_last_move)(game_id)
        for u in users:
            await _until(sockets[u.pk], 'id="chat-log"')  # the next game's, after its board
        if i:
            measured += time.process_time() - start
    for s in sockets.values():
        await s.disconnect()
    n = len(tables) - 1
    print(
        f"\n{n} tables: a game's last move to its three people's next boards "
        f"{measured / n * 1000:.1f} ms of CPU a table; the same move with no pairing "
        f"{control / n * 1000:.1f} ms; between games "
        f"{(measured - control) / n * 1000:.1f} ms a table (pairing, new table, three "
        f"first boards over the open sockets)"
    )
