"""An arena's waiting table (issue 52): Join leads to the arena's table with no game yet,
whose socket listens on the person's tables group; the pairing tells it of the first game,
and the socket goes on to it as it goes on to every next game, with only its own seat's
board. No table page and no socket handshake at the start. Real sockets, the real channel
layer (Redis with REDIS_URL) and database."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from games.models import Game, Seat
from games.play import moves, telling
from games.play.live import watch
from games.play.telling import person_tables_group
from games.tournaments import services
from games.tournaments.models import Entry
from tests.table.leaks import hidden_cards, leaks
from tests.table.support import fields, first_legal, frame, session_headers
from tests.test_arena_next_game import NEXT, _frames_until
from tests.test_tournaments import _arena
from tongits_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

PARTS = ("table-status", "seats", "table-piles", "table-melds", "my-hand", "table-result",
         "moves-head", "moves-tail", "next-game", "messages")  # fmt: skip
WAITING_SOCKET = re.compile(r'ws-connect="/ws/arena/(\d+)/"')


def waiting_socket(tournament_id: int, user) -> WebsocketCommunicator:
    headers = [*session_headers(user), (b"host", b"localhost")]
    return WebsocketCommunicator(application, f"/ws/arena/{tournament_id}/", headers=headers)


def _join_from_the_page(user, tournament_id: int) -> tuple[str, str]:
    """Join posted as the tournament's page does: (where it leads, that page's HTML)."""
    client = Client()
    client.force_login(user)
    joined = client.post(reverse("tournament_join", args=[tournament_id]))
    assert joined.status_code == 302
    page = client.get(joined.url)
    return joined.url, page.content.decode() if page.status_code == 200 else ""


async def _waiting(t_pk: int, people) -> dict[int, WebsocketCommunicator]:
    sockets = {}
    for person in people:
        ws = await sync_to_async(waiting_socket)(t_pk, person)
        connected, _code = await ws.connect()
        assert connected
        # The page asks for the table's talk at each open: none before a game.
        await ws.send_to(text_data=json.dumps({"chat_history": "1"}))
        assert 'id="chat-log"' in await ws.receive_from(timeout=5)
        sockets[person.pk] = ws
    return sockets


def _state_and_seats(game_id: int):
    game = Game.objects.get(pk=game_id)
    seats = dict(game.seats.values_list("user_id", "index"))
    return game, moves.game_state(game), seats


async def test_join_leads_to_the_waiting_table_and_the_first_game_comes_over_its_socket(
    alice, bob, carol
):
    people = [alice, bob, carol]
    # Unrated: a rated arena keeps apart accounts seen at one address, as the test's are.
    t = await sync_to_async(_arena)(rated=False)
    for person in people:
        url, page = await sync_to_async(_join_from_the_page)(person, t.pk)
        assert url == f"/tournaments/{t.pk}/table/"
        # The arena's table with no game: its socket is the waiting table's, and every
        # part the first board fills has its place.
        assert WAITING_SOCKET.search(page).group(1) == str(t.pk)
        for part in PARTS:
            assert f'id="{part}"' in page, part
        assert "You are in: you play as soon as two others wait." in page  # Join's message
    sockets = await _waiting(t.pk, people)
    for ws in sockets.values():
        assert await ws.receive_nothing(timeout=0.3)  # nothing of any game before the pairing

    [game] = await sync_to_async(services.pair)(t.pk)
    frames = {p.pk: await _frames_until(sockets[p.pk], 'id="next-game"') for p in people}
    game, state, seats = await sync_to_async(_state_and_seats)(game.pk)
    for p in people:
        found = NEXT.search(frames[p.pk][-1])
        assert found and found.group(1) == str(game.pk) and found.group(2) == f"/games/{game.pk}/"
        board = frames[p.pk][-1]
        assert 'id="my-hand"' in board and 'class="card' in board
        # Only this seat's own cards: not a card of anyone else's, nor the stock, nor the seed.
        assert not leaks("".join(frames[p.pk]), hidden_cards(state, seats[p.pk]), game.seed)
        assert 'id="chat-log"' in await sockets[p.pk].receive_from(timeout=5)  # no talk yet
    # Each person's first board is recorded: their turn clock runs from it.
    boarded = await sync_to_async(
        lambda: list(Seat.objects.filter(game=game, user__isnull=False, board_at__isnull=False))
    )()
    assert len(boarded) == 3

    # The seat to move plays over the very socket it waited on.
    index, move = await sync_to_async(first_legal)(game)
    mover = next(p for p in people if seats[p.pk] == index)
    await sockets[mover.pk].send_to(text_data=frame(fields(move, seq=str(game.seq))))
    await _frames_until(sockets[mover.pk], f'data-seq="{game.seq + 1}"')
    for ws in sockets.values():
        await ws.disconnect()


async def test_a_waiting_socket_hears_nothing_of_another_tournament_and_says_what_it_is(alice):
    t = await sync_to_async(_arena)()
    await sync_to_async(services.join)(t.pk, alice)
    [ws] = (await _waiting(t.pk, [alice])).values()
    # Another tournament's game (or a malformed event): this table is not its.
    layer = get_channel_layer()
    group = person_tables_group(alice.pk)
    await layer.group_send(group, {"type": "arena.next", "tournament": t.pk + 1, "game": 1})
    await layer.group_send(group, {"type": "arena.next", "tournament": t.pk, "game": "x"})
    assert await ws.receive_nothing(timeout=0.5)
    # A move sent to a table with no game is answered, and changes nothing.
    await ws.send_to(text_data=json.dumps({"action": "draw"}))
    assert "has not been dealt yet" in await ws.receive_from(timeout=5)
    await ws.disconnect()


async def test_a_waiting_socket_needs_an_entry_in_the_pool(alice, bob):
    t = await sync_to_async(_arena)()
    ws = await sync_to_async(waiting_socket)(t.pk, bob)  # never joined
    assert (await ws.connect())[0]
    assert (await ws.receive_output(timeout=5))["code"] == 4403
    anonymous = WebsocketCommunicator(
        application,
        f"/ws/arena/{t.pk}/",
        headers=[(b"host", b"localhost"), (b"origin", b"http://localhost")],
    )
    assert (await anonymous.connect())[0]
    assert (await anonymous.receive_output(timeout=5))["code"] == 4401


async def test_a_socket_that_opens_after_the_pairing_goes_to_the_game_and_the_page_sends_there(
    alice, bob, carol
):
    """A reconnect, or a page loaded late: the game is found at once. Without a socket the
    page itself sends its person to the table."""
    people = [alice, bob, carol]
    t = await sync_to_async(_arena)()
    for person in people:
        await sync_to_async(services.join)(t.pk, person)
    [game] = await sync_to_async(services.pair)(t.pk)
    ws = await sync_to_async(waiting_socket)(t.pk, alice)
    assert (await ws.connect())[0]
    got = await _frames_until(ws, 'id="next-game"')
    assert NEXT.search(got[-1]).group(1) == str(game.pk)
    _g, state, seats = await sync_to_async(_state_and_seats)(game.pk)
    assert not leaks("".join(got), hidden_cards(state, seats[alice.pk]), game.seed)
    await ws.disconnect()

    def page() -> str:
        client = Client()
        client.force_login(bob)
        response = client.get(reverse("tournament_table", args=[t.pk]))
        assert response.status_code == 302
        return response.url

    assert await sync_to_async(page)() == f"/games/{game.pk}/"


async def test_a_waiting_socket_whose_event_was_lost_goes_on_at_the_next_check(
    alice, bob, carol, monkeypatch
):
    people = [alice, bob, carol]
    t = await sync_to_async(_arena)()
    for person in people:
        await sync_to_async(services.join)(t.pk, person)
    sockets = await _waiting(t.pk, people)
    monkeypatch.setattr(telling, "notify_group", lambda group, message: None)  # lost in Redis
    [game] = await sync_to_async(services.pair)(t.pk)
    assert await sockets[alice.pk].receive_nothing(timeout=0.5)
    await watch.check(now=True)
    for p in people:
        got = await _frames_until(sockets[p.pk], 'id="next-game"')
        assert NEXT.search(got[-1]).group(1) == str(game.pk)
    for ws in sockets.values():
        await ws.disconnect()


def test_a_paused_person_or_a_stranger_is_sent_to_the_tournaments_page(client, alice):
    t = _arena()
    client.force_login(alice)
    page = reverse("tournament", args=[t.pk])
    assert client.get(reverse("tournament_table", args=[t.pk])).url == page  # not entered
    services.join(t.pk, alice)
    services.pause(t.pk, alice)
    assert Entry.objects.get(user=alice).state == Entry.State.PAUSED
    assert client.get(reverse("tournament_table", args=[t.pk])).url == page
