"""An arena's next game comes to the table's open socket (issue 26): when the pairing deals
a person's next game, a socket still at their last game of the tournament leaves it for
the new one and sends its whole board, with the new game's address for the page, so that
between games nobody loads a page or opens a socket. Real sockets, the real channel layer
(Redis with REDIS_URL) and database."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection, transaction

from games import bots
from games.engine import seat_view
from games.models import Game, Seat
from games.play import moves
from games.play.live import watch
from games.play.live.db import in_db_thread, thread_pool
from games.play.telling import person_tables_group
from games.tournaments import services
from games.tournaments.models import Tournament
from tests.fast_games import prepare_last_move
from tests.table.leaks import hidden_cards, leaks
from tests.table.support import fields, first_legal, frame, session_headers, socket
from tests.test_tournament_crowd import _rev
from tests.test_tournaments import _arena, _end_game, _people

pytestmark = pytest.mark.django_db(transaction=True)

NEXT = re.compile(
    r'<div id="next-game" hidden data-game="(\d+)" hx-swap-oob="true" data-url="([^"]+)"'
)


async def _frames_until(ws, pattern: str, timeout: float = 5.0) -> list[str]:
    """Frames received until one holds ``pattern`` (that one last)."""
    got = []
    while True:
        got.append(await ws.receive_from(timeout=timeout))
        if pattern in got[-1]:
            return got


def _seated(game_id: int) -> dict[int, int]:
    return dict(Game.objects.get(pk=game_id).seats.values_list("user_id", "index"))


async def test_the_next_game_comes_to_each_persons_open_socket_and_plays_there(alice, bob, carol):
    people = [alice, bob, carol]
    t = await sync_to_async(_arena)()
    for person in people:
        await sync_to_async(services.join)(t.pk, person)
    [first] = await sync_to_async(services.pair)(t.pk)
    headers = {p.pk: await sync_to_async(session_headers)(p) for p in people}
    sockets = {}
    for p in people:
        ws = socket(first.pk, headers[p.pk])
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)  # the first game's board
        sockets[p.pk] = ws

    # The first game ends; its end pairs the three again at once (after the commit).
    await sync_to_async(_end_game)(first.pk)
    frames = {}
    for p in people:
        frames[p.pk] = await _frames_until(sockets[p.pk], 'id="next-game"')
    nexts = {p.pk: NEXT.search(frames[p.pk][-1]) for p in people}
    for p in people:  # then the new game's talk: none yet
        assert 'id="chat-log"' in await sockets[p.pk].receive_from(timeout=5)
    assert all(nexts.values()), "every socket was sent its next game"
    second = int(nexts[alice.pk].group(1))
    assert second != first.pk and {int(m.group(1)) for m in nexts.values()} == {second}
    assert nexts[alice.pk].group(2) == f"/games/{second}/"
    game = await sync_to_async(Game.objects.get)(pk=second)
    assert game.status == Game.Status.PLAYING
    seats = await sync_to_async(_seated)(second)
    state = await sync_to_async(moves.game_state)(game)
    for p in people:
        board = frames[p.pk][-1]
        # The whole board of the new game, as that seat sees it: its own hand, and not a
        # card of anyone else's, nor the stock, nor the seed.
        assert 'id="my-hand"' in board
        assert not leaks(board, hidden_cards(state, seats[p.pk]), game.seed)
        # The menu's part about who sits here is asked for only when the menu opens.
        assert f'hx-get="/games/{second}/about/"' in board

    # The seat to move plays over the very socket it had: the move is the new game's.
    index, move = await sync_to_async(first_legal)(game)
    rev = game.rev
    mover = next(p for p in people if seats[p.pk] == index)
    await sockets[mover.pk].send_to(text_data=frame(fields(move, seq=str(game.seq))))
    await _frames_until(sockets[mover.pk], f'data-seq="{game.seq + 1}"')
    await sync_to_async(game.refresh_from_db)()
    assert game.rev > rev
    for ws in sockets.values():
        await ws.disconnect()


async def test_a_socket_at_another_game_stays_where_it_is(alice, bob, carol):
    t = await sync_to_async(_arena)()
    for person in (alice, bob, carol):
        await sync_to_async(services.join)(t.pk, person)
    [game] = await sync_to_async(services.pair)(t.pk)
    ws = socket(game.pk, await sync_to_async(session_headers)(alice))
    assert (await ws.connect())[0]
    await ws.receive_from(timeout=5)
    # A next game that follows some other game of Alice's: this socket is not at it.
    event = {"type": "arena.next", "after": game.pk + 1000, "game": game.pk + 1}
    await get_channel_layer().group_send(person_tables_group(alice.pk), event)
    assert await ws.receive_nothing(timeout=0.5)
    await ws.disconnect()


def test_the_menus_part_about_the_table_is_served_alone_to_a_seat_and_refused_elsewhere(
    client, alice, bob, carol, django_user_model
):
    t = _arena()
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [game] = services.pair(t.pk)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/about/")
    assert page.status_code == 200
    text = page.content.decode()
    assert text.strip().startswith('<div id="table-about">')
    assert "bob" in text and "carol" in text  # the others at the table, by name
    assert "Rated table" in text
    # No hidden card in it, nor the seed.
    assert not leaks(
        text,
        hidden_cards(moves.game_state(game), 0) | hidden_cards(moves.game_state(game), 1),
        game.seed,
    )


async def test_a_socket_left_at_the_last_game_goes_on_at_the_next_check(alice, bob, carol):
    """Its event was lost, or the page was opened after the pairing: the sockets' check
    (every few seconds) finds the person's next game and the socket goes on to it."""
    people = [alice, bob, carol]
    t = await sync_to_async(_arena)()
    for person in people:
        await sync_to_async(services.join)(t.pk, person)
    [first] = await sync_to_async(services.pair)(t.pk)
    await sync_to_async(_end_game)(first.pk)  # paired again, with no socket to hear it
    second = await sync_to_async(lambda: Game.objects.latest("pk").pk)()
    assert second != first.pk
    ws = socket(first.pk, await sync_to_async(session_headers)(alice))
    assert (await ws.connect())[0]
    assert "table-result" in await ws.receive_from(timeout=5)  # the finished game
    await watch.check(now=True)
    got = await _frames_until(ws, 'id="next-game"')
    assert NEXT.search(got[-1]).group(1) == str(second)
    # A second check finds it at a game being played: nothing more.
    await ws.receive_from(timeout=5)  # the new game's (empty) talk
    await watch.check(now=True)
    assert await ws.receive_nothing(timeout=0.5)
    await ws.disconnect()


def _last_move_ready(game_id: int):
    """Every move but the last stored; the move that ends the game, as its seat's greedy
    choice (tests/fast_games.py), for that seat to send itself."""
    prepare_last_move(game_id)
    Seat.objects.filter(game_id=game_id).update(away=False)
    moves.forget_cached_states()
    game = Game.objects.get(pk=game_id)
    state = moves.game_state(game)
    rng = random.Random(bots.bot_seed(game.seed, game.seq, state.turn))
    return game, state.turn, bots.choose("greedy", seat_view(state, state.turn), rng)


def _hold_the_tournament(t_pk: int, held: threading.Event, release: threading.Event) -> None:
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=t_pk)  # as a pairing holds it
        held.set()
        release.wait(10)
    connection.close()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a row lock held beside the test")
async def test_a_games_last_move_is_answered_while_the_next_pairing_waits_for_the_tournament(
    alice, bob, carol
):
    """A game's end pairs its people again under the tournament's lock, which another
    table's pairing may hold: the last move's board (the result) does not wait for it,
    nor do the moves of other tables, and the next game follows once the lock is free."""
    people = [alice, bob, carol]
    t = await sync_to_async(_arena)()
    for person in people:
        await sync_to_async(services.join)(t.pk, person)
    [first] = await sync_to_async(services.pair)(t.pk)
    game, turn, move = await sync_to_async(_last_move_ready)(first.pk)
    seats = await sync_to_async(_seated)(first.pk)
    sockets = {}
    for p in people:
        ws = socket(first.pk, await sync_to_async(session_headers)(p))
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)
        sockets[p.pk] = ws
    mover = next(p for p in people if seats[p.pk] == turn)
    held, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_the_tournament, args=(t.pk, held, release))
    holder.start()
    try:
        assert await asyncio.to_thread(held.wait, 5)
        await sockets[mover.pk].send_to(text_data=frame(fields(move, seq=str(game.seq))))
        for p in people:  # the result, while the pairing waits
            await _frames_until(sockets[p.pk], "table-result", timeout=3)
        assert await sockets[mover.pk].receive_nothing(timeout=0.3)
    finally:
        release.set()
        await asyncio.to_thread(holder.join, 5)
    for p in people:  # and then the next game
        await _frames_until(sockets[p.pk], 'id="next-game"')
    for ws in sockets.values():
        await ws.disconnect()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="games ended on the server's threads")
async def test_games_that_end_before_their_pairing_begins_are_paired_together(caplog):
    """When a round of an arena's games ends together, the pairings after their ends
    queue on the worker's one thread for work after a move: the first to run seats the
    people of every game that ended before it began, and no other is queued for them (one
    pairing under the tournament's lock, one change of its standings for the watchers)."""
    caplog.set_level(logging.INFO, logger="games.tournaments.services")
    t = await sync_to_async(_arena)()
    people = await sync_to_async(_people)(6)
    for person in people:
        await sync_to_async(services.join)(t.pk, person)
    games = await sync_to_async(services.pair)(t.pk)
    assert len(games) == 2
    rev = await sync_to_async(_rev)(t)
    caplog.clear()
    release = threading.Event()
    busy = thread_pool("afterwards", 1).submit(release.wait, 10)  # the thread, busy
    try:
        for game in games:  # each on a moves' thread, as a last move is made
            await in_db_thread(_end_game)(game.pk)
        assert not await sync_to_async(_playing)(t.pk)
    finally:
        release.set()
    await asyncio.wrap_future(busy)
    await asyncio.sleep(services.GATHER.total_seconds() + 0.3)  # its pairing is queued then
    await asyncio.wrap_future(thread_pool("afterwards", 1).submit(lambda: None))  # drained
    made = [r.getMessage() for r in caplog.records if "games made" in r.getMessage()]
    assert len(made) == 1 and made[0].startswith(f"Tournament {t.pk}: 2 games made")
    assert sorted(await sync_to_async(_playing)(t.pk)) == sorted(p.pk for p in people)
    assert await sync_to_async(_rev)(t) == rev + 1


def _playing(t_pk: int) -> list[int]:
    return list(
        Seat.objects.filter(
            game__tournament_game__tournament_id=t_pk, game__status=Game.Status.PLAYING
        ).values_list("user_id", flat=True)
    )
