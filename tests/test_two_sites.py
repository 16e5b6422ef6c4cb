"""Two sites on one Redis server (issue 46): a staging copy beside production, or a test run
beside a live site. Redis pub/sub ignores the database number in REDIS_URL, so each site
names its channels with its own prefix, and seals every message with its own key: neither
site's sockets hear the other's events, in either direction, and a message published under
this site's names by anything that is not this site is dropped.

Site A is this test run (its settings, sockets and channel layer); site B is a channel
layer configured exactly as the settings of a site with another database and secret key
make it."""

from __future__ import annotations

import ast
import asyncio
import os
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.utils.module_loading import import_string

from games.models import Move as MoveRow
from games.play import moves
from games.play.telling import game_group
from games.social.services import person_group
from tests.table.support import first_legal, frame, seq_of, session_headers, socket
from tests.table.test_unfit_events import draw_never_made, play_to_a_draw
from tests.test_settings import fresh_settings
from tests.test_social import lobby_socket, postgres_only

REDIS_URL = os.environ.get("REDIS_URL", "")
over_redis = pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set (CI sets it)")


def another_sites_layer() -> RedisPubSubChannelLayer:
    """The channel layer of a site on the same Redis server with its own database and
    secret key (a staging copy, say), as that site's settings make it."""
    database = f"postgres://tongits@127.0.0.1:5432/staging_{uuid.uuid4().hex[:8]}"
    made = fresh_settings(
        "CHANNEL_LAYERS['default']",
        DATABASE_URL=database,
        REDIS_URL=REDIS_URL,
        DJANGO_SECRET_KEY=f"staging-{uuid.uuid4().hex}",
    )
    config = ast.literal_eval(made.stdout)
    # Its workers are other processes than this test's: their own mark.
    return import_string(config["BACKEND"])(**config["CONFIG"], origin="site B's worker")


async def heard(layer, channel: str, seconds: float = 0.5) -> list[dict]:
    found = []
    try:
        while True:
            found.append(await asyncio.wait_for(layer.receive(channel), seconds))
    except TimeoutError:
        return found


@postgres_only
@over_redis
@pytest.mark.django_db(transaction=True)
async def test_two_sites_on_one_redis_server_never_hear_each_other(alice, bob, carol, make_game):
    people = [alice, bob, carol]
    game = await database_sync_to_async(make_game)(people, seed=918273645546372819)
    await database_sync_to_async(play_to_a_draw)(game, people)
    site_b = await database_sync_to_async(another_sites_layer)()
    # Site A: the seats' table sockets and alice's lobby socket (her person's group).
    seats: list[WebsocketCommunicator] = []
    for user in people:
        sock = socket(game.pk, await database_sync_to_async(session_headers)(user))
        assert (await sock.connect())[0]
        await sock.receive_from(timeout=3)
        seats.append(sock)
    lobby = await lobby_socket(alice)
    while not await lobby.receive_nothing(timeout=0.3):
        await lobby.receive_from()
    # Site B: a socket of its own game with the same number, and of its alice's number.
    b_listener = await site_b.new_channel()
    await site_b.group_add(game_group(game.pk), b_listener)
    await site_b.group_add(person_group(alice.pk), b_listener)

    # B to A: B's move of its game, a chat line at it, a friend's presence and a challenge
    # accepted (with the way to a table) for its person of the same number.
    fitting = await database_sync_to_async(draw_never_made)(game)
    await site_b.group_send(game_group(game.pk), fitting)
    chat = {
        "type": "chat.message", "id": 1, "room": "players", "seat": 0, "name": "B's alice",
        "user": alice.pk, "kind": "text", "body": "from the other site",
    }  # fmt: skip
    await site_b.group_send(game_group(game.pk), chat)
    presence = {"type": "social.presence", "user": bob.pk, "kind": "away", "game": None}
    await site_b.group_send(person_group(alice.pk), presence)
    await site_b.group_send(person_group(alice.pk), {"type": "social.changed", "go": "/x/"})
    # A to B: a real move of A's game, told as A tells its other workers.
    seat, move = await database_sync_to_async(first_legal)(game)
    await database_sync_to_async(moves.submit_move)(game.pk, people[seat], move.to_dict())

    a_heard = [await sock.receive_from(timeout=3) for sock in seats]
    assert [seq_of(text) for text in a_heard] == [game.seq + 1] * 3  # its own move only
    assert all([await sock.receive_nothing(timeout=0.5) for sock in seats])
    assert await lobby.receive_nothing(timeout=0.2)
    b_heard = await heard(site_b, b_listener)
    assert b_heard[:4] == [fitting, chat, presence, {"type": "social.changed", "go": "/x/"}]
    assert len(b_heard) == 4  # B hears itself, and nothing of A's move
    for sock in [*seats, lobby]:
        await sock.disconnect()
    await site_b.flush()


@over_redis
@pytest.mark.django_db(transaction=True)
async def test_a_message_under_this_sites_names_not_sealed_by_it_is_dropped(
    alice, bob, carol, make_game
):
    # Anything that can publish on the Redis server and knows the site's prefix (a second
    # site given the same TONGITS_CHANNEL_PREFIX): a draw that fits the game in every way
    # but was never made, a chat line, a frame for every seat. None of it is heard.
    people = [alice, bob, carol]
    game = await database_sync_to_async(make_game)(people, seed=918273645546372819)
    await database_sync_to_async(play_to_a_draw)(game, people)
    prefix = get_channel_layer()._kwargs["prefix"]
    assert prefix.startswith(settings.TONGITS_CHANNEL_PREFIX)
    outsider = RedisPubSubChannelLayer(hosts=[REDIS_URL], prefix=prefix)
    seats = []
    for user in people:
        sock = socket(game.pk, await database_sync_to_async(session_headers)(user))
        assert (await sock.connect())[0]
        assert seq_of(await sock.receive_from(timeout=3)) == game.seq
        seats.append(sock)

    group = game_group(game.pk)
    await outsider.group_send(group, await database_sync_to_async(draw_never_made)(game))
    await outsider.group_send(group, {"type": "websocket.receive", "text": frame({"x": 1})})
    await outsider.group_send(
        group,
        {
            "type": "chat.message", "id": 1, "room": "players", "seat": 0, "name": "alice",
            "user": alice.pk, "kind": "text", "body": "not said here",
        },
    )  # fmt: skip

    assert all([await sock.receive_nothing(timeout=0.5) for sock in seats])
    assert get_channel_layer().dropped >= 3
    assert await MoveRow.objects.filter(game=game).acount() == game.seq
    seat, move = await database_sync_to_async(first_legal)(game)
    await database_sync_to_async(moves.submit_move)(game.pk, people[seat], move.to_dict())
    assert [seq_of(await s.receive_from(timeout=3)) for s in seats] == [game.seq + 1] * 3
    for sock in seats:
        await sock.disconnect()
    await outsider.flush()


def test_the_default_prefix_is_the_sites_own_database_and_secret():
    def prefix(database: str, secret: str) -> str:
        env = {"DATABASE_URL": database, "DJANGO_SECRET_KEY": secret}
        return ast.literal_eval(fresh_settings("TONGITS_CHANNEL_PREFIX", **env).stdout)

    production = prefix("postgres://t@127.0.0.1:5432/tongits", "production secret")
    staging = prefix("postgres://t@127.0.0.1:5432/tongits_staging", "production secret")
    elsewhere = prefix("postgres://t@127.0.0.1:5432/tongits", "another machine's secret")

    assert production == prefix("postgres://t@127.0.0.1:5432/tongits", "production secret")
    assert len({production, staging, elsewhere}) == 3
    assert "secret" not in production and "tongits" in production
    chosen = fresh_settings("TONGITS_CHANNEL_PREFIX", TONGITS_CHANNEL_PREFIX="mysite-")
    assert ast.literal_eval(chosen.stdout) == "mysite-"
