"""Many sockets opening at once (a new game's three seats, the herd after a worker restart):
each is served without waiting behind the others, a game is loaded once for all of a
process's sockets that open together, and none of them misses a move made meanwhile."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from games.play.live import db, snapshots
from tests.table.support import fields, first_legal, frame, seq_of, session_headers, socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def headers(alice, bob, carol) -> list[list[tuple[bytes, bytes]]]:
    return [session_headers(user) for user in (alice, bob, carol)]


@pytest.fixture
def loads(monkeypatch) -> list[int]:
    """Every whole load of a game from the database, by game id."""
    done: list[int] = []
    real = snapshots.load_snapshot

    def counted(game_id: int):
        done.append(game_id)
        return real(game_id)

    monkeypatch.setattr(snapshots, "load_snapshot", counted)
    snapshots.forget()
    return done


async def first_frames(game_id: int, headers) -> list[str]:
    sockets = [socket(game_id, h) for h in headers]
    opened = await asyncio.gather(*(s.connect() for s in sockets))
    assert all(ok for ok, _ in opened)
    frames = [await s.receive_from(timeout=3) for s in sockets]
    for s in sockets:
        await s.disconnect()
    return frames


async def test_a_new_games_three_sockets_opening_together_load_it_once(
    three_people, headers, loads
):
    frames = await first_frames(three_people.pk, headers)

    assert [seq_of(text) for text in frames] == [0, 0, 0]
    assert loads == [three_people.pk]


async def test_a_socket_that_waits_for_anothers_load_still_sees_a_move_made_during_it(
    three_people, alice, bob, carol, monkeypatch
):
    """The second socket joined the game's group after the first socket's load had read
    the game, and a move committed in between: its event went to neither, so the second
    must not take that load's (older) game for its first frame."""
    game = three_people
    people = {0: alice, 1: bob, 2: carol}
    snapshots.forget()
    read, go_on = threading.Event(), threading.Event()
    real = snapshots.load_snapshot

    def slow_first_load(game_id: int):
        snap = real(game_id)
        if not read.is_set():
            read.set()
            go_on.wait(5)
        return snap

    monkeypatch.setattr(snapshots, "load_snapshot", slow_first_load)
    first = asyncio.create_task(snapshots.current(game.pk))
    assert await asyncio.to_thread(read.wait, 5)

    def move() -> None:
        from games.play import moves

        seat, legal = first_legal(game)
        moves.submit_move(game.pk, people[seat], legal.to_dict())

    await database_sync_to_async(move)()
    second = asyncio.create_task(snapshots.current(game.pk))
    await asyncio.sleep(0.05)  # the second is waiting on the first's load
    go_on.set()

    assert (await first).seq == 0  # read before the move
    assert (await second).seq == 1


async def test_a_socket_opens_while_channels_own_database_thread_is_busy(three_people, headers):
    """Logins are looked up on the sockets' database threads: a slow call on Channels'
    one thread for ``database_sync_to_async`` (another page's, another socket's) does not
    hold every opening socket of the process behind it."""
    busy, release = threading.Event(), threading.Event()

    def occupy() -> None:
        busy.set()
        release.wait(10)

    blocker = asyncio.create_task(database_sync_to_async(occupy)())
    assert await asyncio.to_thread(busy.wait, 5)
    try:
        seat = socket(three_people.pk, headers[0])
        connected, _ = await seat.connect(timeout=3)
        assert connected
        text = await seat.receive_from(timeout=3)
        assert seq_of(text) == 0 and 'name="cards"' in text
        await seat.disconnect()
    finally:
        release.set()
        await blocker


async def test_a_move_is_answered_while_arriving_sockets_hold_every_arrival_thread(
    three_people, headers, settings
):
    """A crowd opening its sockets (an arena's start) keeps the arrivals' database threads
    busy with logins, presence and the talk so far: the moves of the tables already
    playing do not wait behind them, and a socket arriving meanwhile has its handshake
    answered at once and waits its turn for its first board. (Its handshake used to wait
    for its login: under overload, past the server's handshake timeout, which dropped
    the connection unanswered, issue 52.)"""
    game = three_people
    sockets = [socket(game.pk, h) for h in headers]
    for s in sockets:
        assert (await s.connect())[0]
        await s.receive_from(timeout=3)
    release = threading.Event()
    arrivals = db.thread_pool("arrivals", settings.TONGITS_ARRIVAL_THREADS)
    held = [arrivals.submit(release.wait, 10) for _ in range(settings.TONGITS_ARRIVAL_THREADS)]
    late = socket(game.pk, headers[0])
    try:
        assert (await late.connect(timeout=3))[0]  # the handshake waits for no thread
        arriving = asyncio.create_task(late.receive_from(timeout=5))  # its first board
        seat, move = await database_sync_to_async(first_legal)(game)
        await sockets[seat].send_to(text_data=frame(fields(move, seq="0")))
        boards = [await s.receive_from(timeout=3) for s in sockets]
        assert [seq_of(text) for text in boards] == [1, 1, 1]
        assert not arriving.done()  # its login waits for an arrival thread
    finally:
        release.set()
    assert seq_of(await arriving) == 1
    for s in [*sockets, late]:
        await s.disconnect()
    assert all(h.result() for h in held)


async def test_a_persons_turn_clock_starts_with_the_first_board_their_socket_sends(
    three_people, alice, bob, headers, settings
):
    """The server never plays a turn for someone whose board has not arrived: the socket
    says when it sent its person's first board, and the turn clock of the person to move
    starts then (games/play/clock.py)."""
    from games.models import Game, Seat

    settings.TONGITS_FIRST_BOARD_GRACE = 30
    # The page took 5 s to load: the turn began that long before the socket opens.
    game = await database_sync_to_async(Game.objects.get)(pk=three_people.pk)
    before = game.turn_started_at - timedelta(seconds=5)
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(turn_started_at=before)
    to_move = game.turn_seat
    opened = socket(game.pk, headers[to_move])
    assert (await opened.connect())[0]
    await opened.receive_from(timeout=3)
    for _ in range(100):  # the socket tells the clock on a database thread, after its frame
        seat = await database_sync_to_async(Seat.objects.get)(game=game, index=to_move)
        if seat.board_at is not None:
            break
        await asyncio.sleep(0.02)
    game = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert seat.board_at is not None and game.turn_started_at == seat.board_at > before
    assert game.due_at == seat.board_at + timedelta(seconds=game.turn_seconds)
    await opened.disconnect()
