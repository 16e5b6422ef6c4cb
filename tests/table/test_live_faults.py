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
from channels_redis.pubsub import RedisPubSubChannelLayer

from games.models import Move as MoveRow
from games.play import moves, tables, telling
from games.play.live import publish, watch
from games.play.live.layer import EchoFreeLayer
from tests.table.support import first_legal, play_to_the_end, seq_of, session_headers, socket

pytestmark = pytest.mark.django_db(transaction=True)

REDIS_URL = os.environ.get("REDIS_URL", "")
NOBODY_LISTENS = "redis://127.0.0.1:1/0"  # port 1: the connection is refused at once


@pytest.fixture
def unreachable_layer(settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": NOBODY_LISTENS}]},
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
    monkeypatch.setattr(telling, "notify_game", lambda *args: None)
    seat, move = await database_sync_to_async(first_legal)(three_people)
    people = [alice, bob, carol]
    await database_sync_to_async(moves.submit_move)(three_people.pk, people[seat], move.to_dict())
    assert all([await s.receive_nothing(timeout=0.2) for s in sockets])

    # The first check to see the new rev leaves the sockets be (an event just sent is on
    # its way, and a busy table is always a move ahead); the next one heals them.
    assert await watch.check() == 0
    assert all([await s.receive_nothing(timeout=0.2) for s in sockets])
    assert await watch.check() == 3

    for s in sockets:
        assert 'data-seq="1"' in await s.receive_from(timeout=3)
        await s.disconnect()


async def test_a_socket_whose_channel_layer_is_down_closes_for_a_reconnect_without_a_traceback(
    three_people, alice, unreachable_layer, caplog
):
    s = socket(three_people.pk, await database_sync_to_async(session_headers)(alice))
    connected, code = await s.connect(timeout=10)
    if connected:  # the layer failed after the handshake
        code = (await s.receive_output(timeout=10)).get("code")

    # 1012, "service restart": the page's socket reconnects by itself (a refused
    # handshake too, as 1006).
    assert code == 1012
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert any("channel layer" in r.getMessage() for r in caplog.records)


async def test_a_move_is_saved_and_said_once_in_the_log_when_its_event_cannot_be_sent(
    three_people, alice, bob, carol, unreachable_layer, caplog
):
    seat, move = await database_sync_to_async(first_legal)(three_people)
    people = [alice, bob, carol]

    await database_sync_to_async(moves.submit_move)(three_people.pk, people[seat], move.to_dict())

    assert await database_sync_to_async(MoveRow.objects.filter(game=three_people).count)() == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert [r.getMessage() for r in caplog.records if "Could not tell game-" in r.getMessage()]


async def test_games_ending_and_tables_made_while_redis_is_down_log_no_traceback(
    three_people, alice, bob, carol, unreachable_layer, caplog
):
    """The lobby hears of tables that start and end; while the layer is down it is not
    told (its page catches up at its next change), and the events not sent are a warning
    line a second at most, not an ERROR with a traceback per game (seen with Redis
    restarted mid-game). (The lobby's events are written as the games' are, so they share
    its warnings.)"""
    await database_sync_to_async(play_to_the_end)(three_people, [alice, bob, carol])
    made = await database_sync_to_async(tables.create_table)(alice, others=("easy", "easy"))
    await asyncio.sleep(0.5)  # the events' sending on the event loop, and its failure

    assert made.status == made.Status.PLAYING
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    told = [r.getMessage() for r in caplog.records if "Could not tell" in r.getMessage()]
    assert 1 <= len(told) <= 2  # the game's events, the game's end and the new table


@pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set (CI sets it)")
async def test_every_socket_of_a_worker_leaving_at_once_leaves_no_channel_behind():
    # The layer of settings.py: one subscription per group per worker, changed under one
    # lock on one connection, so a burst of leaves never runs out of connections.
    layer = RedisPubSubChannelLayer(hosts=[REDIS_URL], prefix=f"test-{uuid.uuid4().hex[:8]}")
    names = [await layer.new_channel() for _ in range(60)]
    for name in names:
        await layer.group_add("leavers", name)
        await layer.group_add(f"leaver-{name[-6:]}", name)

    results = await asyncio.gather(
        *(layer.group_discard(group, name) for name in names
          for group in ("leavers", f"leaver-{name[-6:]}")),
        return_exceptions=True,
    )  # fmt: skip

    assert [r for r in results if r is not None] == []
    loop_layer = layer._get_layer()
    assert loop_layer.groups == {}
    assert all(not shard._subscribed_to - set(names) for shard in loop_layer._shards)
    await layer.flush()


@pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set (CI sets it)")
async def test_a_move_event_published_without_waiting_reaches_the_group_whole_and_in_order():
    # What games/play/live/publish.py writes is what group_send would have sent: the other
    # workers' subscriptions read it as the layer's own.
    layer = RedisPubSubChannelLayer(hosts=[REDIS_URL], prefix=f"test-{uuid.uuid4().hex[:8]}")
    listener = await layer.new_channel()
    await layer.group_add("game-7", listener)
    events = [
        {"type": "game.update", "rev": rev, "news": {"seq": rev, "move": [0, {"type": "draw"}]}}
        for rev in range(1, 41)
    ]

    for event in events:
        assert publish.publish(layer, "game-7", event)

    heard = [await asyncio.wait_for(layer.receive(listener), 5) for _ in events]
    assert heard == events
    await layer.flush()


@pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set (CI sets it)")
async def test_a_worker_does_not_hear_its_own_events_back_and_the_others_hear_them_whole():
    # This process tells its own sockets of its moves (watch.tell); the other workers'
    # subscriptions must still get every event, and this one's must skip them.
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    here = EchoFreeLayer(hosts=[REDIS_URL], prefix=prefix)
    # Another worker of the same site: its own mark, the site's seal.
    elsewhere = EchoFreeLayer(hosts=[REDIS_URL], prefix=prefix, origin="another worker")
    mine, theirs = await here.new_channel(), await elsewhere.new_channel()
    await here.group_add("game-9", mine)
    await elsewhere.group_add("game-9", theirs)
    events = [{"type": "game.update", "rev": rev} for rev in range(1, 6)]

    for event in events:
        assert publish.publish(here, "game-9", event)
    heard = [await asyncio.wait_for(elsewhere.receive(theirs), 5) for _ in events]
    # An event of another worker's reaches this one as ever.
    await elsewhere.group_send("game-9", {"type": "game.update", "rev": 6})

    assert [{k: v for k, v in e.items() if k != "from"} for e in heard] == events
    assert await asyncio.wait_for(here.receive(mine), 5) == {"type": "game.update", "rev": 6}
    await here.flush()
    await elsewhere.flush()


async def test_an_event_that_cannot_be_published_is_dropped_with_a_warning_not_a_traceback(
    caplog,
):
    layer = RedisPubSubChannelLayer(hosts=[{"address": NOBODY_LISTENS}])

    for rev in (1, 2, 3):
        assert publish.publish(layer, "game-8", {"type": "game.update", "rev": rev})
    await asyncio.sleep(0.2)  # the connection is refused meanwhile

    said = [r.getMessage() for r in caplog.records if "Could not tell game-8" in r.getMessage()]
    assert said  # once a second at most, however many events
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_a_layer_other_than_redis_pub_sub_is_left_to_its_own_group_send():
    from channels.layers import InMemoryChannelLayer

    assert publish._address(InMemoryChannelLayer()) is None
    several = RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:1/0", "redis://127.0.0.1:2/0"])
    assert publish._address(several) is None


def test_the_layer_s_receiver_losing_redis_is_one_warning_line_not_a_traceback(caplog):
    # channels_redis logs its receive task's dropped connection with logger.exception and
    # reconnects by itself: a restart of Redis must not read as a crash in the log.
    from redis.exceptions import ConnectionError as RedisConnectionError

    receiver = logging.getLogger("channels_redis.pubsub")
    for error in (RedisConnectionError("Connection closed by server."), ValueError("a bug")):
        try:
            raise error
        except Exception:
            receiver.exception("Unexpected exception in receive task")

    dropped, bug = [r for r in caplog.records if r.name == "channels_redis.pubsub"]
    assert dropped.levelno == logging.WARNING and dropped.exc_info is None
    assert "Connection closed by server." in dropped.getMessage()
    assert bug.levelno == logging.ERROR and bug.exc_info is not None  # anything else stays


@pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set (CI sets it)")
async def test_a_socket_killed_again_while_it_leaves_its_channel_leaves_it_without_a_traceback(
    caplog,
):
    # A consumer whose client left while it was still busy (an overloaded worker's opening)
    # is cancelled by Daphne application_close_timeout after the disconnect, and again
    # every second until it has ended. Its channel's receive unsubscribes while it ends,
    # under the shard's one lock, queued behind the other sockets' (un)subscribes: a second
    # cancel landing there was logged by channels_redis as an ERROR with a traceback
    # ("Unexpected exception while cleaning-up channel") and left the channel subscribed.
    layer = EchoFreeLayer(hosts=[REDIS_URL], prefix=f"test-{uuid.uuid4().hex[:8]}")
    name = await layer.new_channel()
    receiving = asyncio.ensure_future(layer.receive(name))
    await asyncio.sleep(0.05)
    shard = layer._get_layer()._get_shard(name)
    async with shard._lock:  # the other sockets' subscribes and unsubscribes, meanwhile
        receiving.cancel()  # the consumer's end cancels its receive
        await asyncio.sleep(0.05)
        receiving.cancel()  # and Daphne kills the consumer again
        await asyncio.sleep(0.05)
    with pytest.raises(asyncio.CancelledError):
        await receiving
    await asyncio.sleep(0.1)  # the unsubscribe, which goes on to its end

    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert name not in shard._subscribed_to
    await layer.flush()


@pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set (CI sets it)")
async def test_a_crowd_of_sockets_subscribing_at_once_waits_for_a_few_commands_not_one_each():
    # 150 tables' sockets opening at one worker: each socket's channel and its groups are
    # subscribed together, in a few commands, and the leaves likewise; Redis ends up with
    # exactly what the sockets hold, and every socket hears its group.
    import redis.asyncio as aioredis

    prefix = f"test-{uuid.uuid4().hex[:8]}"
    layer = EchoFreeLayer(hosts=[REDIS_URL], prefix=prefix)
    names = await asyncio.gather(*(layer.new_channel() for _ in range(300)))
    shard = layer._get_layer()._shards[0]
    taken = 0
    acquire = shard._lock.acquire

    async def counted():
        nonlocal taken
        taken += 1
        return await acquire()

    shard._lock.acquire = counted
    await asyncio.gather(*(layer.group_add(f"game-{i % 100}", n) for i, n in enumerate(names)))
    assert taken <= 3  # one (or a few) SUBSCRIBE for 100 groups, not a hundred
    other = EchoFreeLayer(hosts=[REDIS_URL], prefix=prefix, origin="another worker")
    await other.group_send("game-7", {"type": "game.update", "rev": 1})
    heard = [names[i] for i in range(7, 300, 100)]
    assert [await asyncio.wait_for(layer.receive(n), 5) for n in heard] == [
        {"type": "game.update", "rev": 1}
    ] * 3

    taken = 0
    await asyncio.gather(*(layer.group_discard(f"game-{i % 100}", n) for i, n in enumerate(names)))
    await asyncio.gather(*(shard.unsubscribe(n) for n in names))
    assert taken <= 4
    client = aioredis.from_url(REDIS_URL)
    try:
        left = await client.pubsub_channels(f"{prefix}*")
    finally:
        await client.aclose()
    assert left == [] and shard._subscribed_to == set()
    await layer.flush()
    await other.flush()
