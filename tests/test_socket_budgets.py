"""Every socket that takes frames shares the table socket's budget (issue 46): the lobby's
too, whose "away" frames each touched the database and pushed to every online friend. An
"away" that changes nothing touches nothing; and the lobby's events, like the table's, are
checked before anything in them is shown (a way to a table that leads off the site is not)."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.security.websocket import WebsocketDenier

from games.routing import websocket_urlpatterns
from games.social.models import Presence
from games.social.services import person_group
from games.sockets.guard import GuardedSocket
from tests.test_social import befriend, frame_with, lobby_socket, postgres_only

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_socket_that_takes_frames_counts_them_against_the_budget():
    consumers = [getattr(route.callback, "consumer_class", None) for route in websocket_urlpatterns]
    taking = [
        c
        for c in consumers
        if c is not None and issubclass(c, AsyncWebsocketConsumer) and c is not WebsocketDenier
    ]

    # The table's, the arena's waiting table's (a table's until its first game) and the
    # lobby's (the denier refuses handshakes).
    assert len(taking) == 3
    assert all(issubclass(c, GuardedSocket) for c in taking)


@pytest.fixture
def tight(settings):
    settings.TONGITS_SOCKET_FRAMES_PER_SECOND = 0.001
    settings.TONGITS_SOCKET_FRAME_BURST = 3
    settings.TONGITS_SOCKET_FRAMES_DROPPED_MAX = 5


async def drained(sock) -> None:
    while not await sock.receive_nothing(timeout=0.3):
        await sock.receive_from()


async def presences_of(sock, user_id: int, seconds: float) -> list[str]:
    """The presence frames of ``user_id`` that ``sock`` is sent in the next ``seconds``."""
    found = []
    try:
        async with asyncio.timeout(seconds):
            while True:
                text = await sock.receive_from(timeout=seconds)
                if f'id="presence-{user_id}"' in text:
                    found.append(text)
    except TimeoutError:
        return found


@postgres_only
async def test_a_lobby_socket_flooding_away_frames_is_closed_with_4429_and_its_friends_hear_little(
    tight, alice, bob
):
    await database_sync_to_async(befriend)(alice, bob)
    bobs = await lobby_socket(bob)
    alices = await lobby_socket(alice)
    await drained(alices)
    assert "presence-online" in await frame_with(bobs, f'id="presence-{alice.pk}"')

    for n in range(400):
        await alices.send_to(text_data=f'{{"away": {"true" if n % 2 == 0 else "false"}}}')
    while (closed := await alices.receive_output(timeout=3))["type"] != "websocket.close":
        pass
    await alices.disconnect()  # (what the browser does on a close)
    told = await presences_of(bobs, alice.pk, 2.0)  # longer than the settle (a second)

    assert closed == {"type": "websocket.close", "code": 4429}
    # The three frames the budget let in came to "away" (hidden, shown, hidden): one change
    # at most, then offline as the socket closed.
    assert len(told) <= 2 and "presence-offline" in told[-1]
    row = await Presence.objects.aget(user=alice)
    assert row.sockets == 0 and row.away_sockets == 0
    await bobs.disconnect()


@postgres_only
async def test_an_away_undone_within_a_second_touches_no_row_and_tells_no_friend(alice, bob):
    await database_sync_to_async(befriend)(alice, bob)
    bobs = await lobby_socket(bob)
    alices = await lobby_socket(alice)
    await frame_with(bobs, f'id="presence-{alice.pk}"')
    await drained(bobs)
    before = await Presence.objects.aget(user=alice)

    for away in ("true", "false", "true", "false", "false"):
        await alices.send_to(text_data=f'{{"away": {away}}}')
    told = await presences_of(bobs, alice.pk, 2.0)  # longer than the settle (a second)

    after = await Presence.objects.aget(user=alice)
    assert told == []
    assert after.changed_at == before.changed_at and after.away_sockets == 0
    await alices.send_to(text_data='{"away": true}')  # and one that stays is told
    assert "presence-away" in await frame_with(bobs, f'id="presence-{alice.pk}"')
    assert (await Presence.objects.aget(user=alice)).away_sockets == 1
    await alices.disconnect()
    assert "presence-offline" in await frame_with(bobs, f'id="presence-{alice.pk}"')
    assert (await Presence.objects.aget(user=alice)).away_sockets == 0
    await bobs.disconnect()


@postgres_only
async def test_the_lobby_socket_shows_nothing_of_an_event_that_does_not_fit_and_stays_open(
    alice, bob
):
    await database_sync_to_async(befriend)(alice, bob)
    alices = await lobby_socket(alice, "friends")
    await drained(alices)
    layer = get_channel_layer()

    for event in (
        {"type": "social.changed", "go": "https://elsewhere.example/games/1/"},
        {"type": "social.changed", "go": "/\\elsewhere.example/"},
        {"type": "social.presence", "user": "x", "kind": "away"},
        {"type": "social.presence", "user": bob.pk, "kind": "playing", "game": "1/../x"},
        {"type": "social.nonsense"},
        {"type": "websocket.receive", "text": '{"away": true}'},
    ):
        await layer.group_send(person_group(alice.pk), event)
    frames = []
    while not await alices.receive_nothing(timeout=0.5):
        frames.append(await alices.receive_from())

    assert not [f for f in frames if "elsewhere" in f or "data-go" in f]
    assert not [f for f in frames if "presence-away" in f or "presence-playing" in f]
    assert (await Presence.objects.aget(user=alice)).away_sockets == 0
    await layer.group_send(person_group(alice.pk), {"type": "social.changed", "go": 7})
    assert 'data-go="/games/7/"' in await frame_with(alices, "data-go")  # still open
    await alices.disconnect()
