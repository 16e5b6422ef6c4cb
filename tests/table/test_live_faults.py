"""The table's sockets when things go wrong around them: a lost event, a channel layer
(Redis) that goes away, every socket of a worker leaving at once."""

from __future__ import annotations

import asyncio
import logging
import os
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels_redis.core import RedisChannelLayer
from redis.exceptions import MaxConnectionsError

from games import services
from games.live import watch
from games.live.layer import PooledRedisChannelLayer
from games.models import Move as MoveRow
from tests.table.support import first_legal, seq_of, session_headers, socket

pytestmark = pytest.mark.django_db(transaction=True)

REDIS_URL = os.environ.get("REDIS_URL", "")
NOBODY_LISTENS = "redis://127.0.0.1:1/0"  # port 1: the connection is refused at once


@pytest.fixture
def unreachable_layer(settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.live.layer.PooledRedisChannelLayer",
            "CONFIG": {"hosts": [{"address": NOBODY_LISTENS, "max_connections": 4}]},
        }
    }
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


async def test_a_socket_that_missed_an_event_catches_up_at_the_next_check(
    three_people, alice, bob, carol, monkeypatch
):
    headers = [await database_sync_to_async(session_headers)(u) for u in (alice, bob, carol)]
    sockets = [socket(three_people.pk, h) for h in headers]
    for s in sockets:
        assert (await s.connect())[0]
        assert seq_of(await s.receive_from(timeout=3)) == 0
    # The move commits, but its event is lost on the way (Redis restarted in between).
    monkeypatch.setattr(services, "notify_game", lambda game_id, rev: None)
    seat, move = await database_sync_to_async(first_legal)(three_people)
    people = [alice, bob, carol]
    await database_sync_to_async(services.submit_move)(
        three_people.pk, people[seat], move.to_dict()
    )
    assert all([await s.receive_nothing(timeout=0.2) for s in sockets])

    assert await watch.check() == 3

    for s in sockets:
        assert 'data-seq="1"' in await s.receive_from(timeout=3)
        await s.disconnect()


async def test_a_socket_whose_channel_layer_is_down_closes_for_a_reconnect_without_a_traceback(
    three_people, alice, unreachable_layer, caplog
):
    s = socket(three_people.pk, await database_sync_to_async(session_headers)(alice))
    connected, _ = await s.connect()
    assert connected

    closed = await s.receive_output(timeout=10)

    # 1012, "service restart": the page's socket reconnects by itself.
    assert closed == {"type": "websocket.close", "code": 1012}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert any("channel layer" in r.getMessage() for r in caplog.records)


async def test_a_move_is_saved_and_said_once_in_the_log_when_its_event_cannot_be_sent(
    three_people, alice, bob, carol, unreachable_layer, caplog
):
    seat, move = await database_sync_to_async(first_legal)(three_people)
    people = [alice, bob, carol]

    await database_sync_to_async(services.submit_move)(
        three_people.pk, people[seat], move.to_dict()
    )

    assert await database_sync_to_async(MoveRow.objects.filter(game=three_people).count)() == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert [r.getMessage() for r in caplog.records if "Could not tell game" in r.getMessage()]


@pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set (CI sets it)")
async def test_every_socket_of_a_worker_leaving_at_once_waits_for_a_connection_not_an_error():
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    host = {"address": REDIS_URL, "max_connections": 3}
    pooled = PooledRedisChannelLayer(hosts=[{**host, "timeout": 20}], prefix=prefix)
    plain = RedisChannelLayer(hosts=[host], prefix=prefix)  # redis-py's default pool
    names = [f"{prefix}.socket!{i}" for i in range(60)]
    for name in names:
        await pooled.group_add("leavers", name)

    # The hole: with the default pool, a burst beyond its size fails outright ...
    failures = await asyncio.gather(
        *(plain.group_discard("leavers", n) for n in names[:30]), return_exceptions=True
    )
    assert any(isinstance(f, MaxConnectionsError) for f in failures)
    # ... while the blocking pool makes every leave wait its turn, and all succeed.
    await asyncio.gather(*(pooled.group_discard("leavers", n) for n in names))

    connection = pooled.connection(pooled.consistent_hash("leavers"))
    assert await connection.zcard(pooled._group_key("leavers")) == 0
    await pooled.flush()
    await plain.close_pools()
    await pooled.close_pools()
