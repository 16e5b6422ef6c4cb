"""Presence heals (issue 27): the people of a worker that dies go offline for their
friends, because another worker takes the dead one's sockets off the counts once its
Redis key has expired (games/social/heartbeat.py). A dead worker is played here by a
worker id whose key is deleted, as its expiry would; nothing waits for a clock."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection

from games.social import heartbeat, presence
from games.social.models import Presence
from tests.test_social import befriend, frame_with, lobby_socket

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not settings.REDIS_URL, reason="workers' leases are kept in Redis"),
]


@pytest.fixture
def redis():
    return heartbeat._redis()


@pytest.fixture
def as_worker(monkeypatch, redis):
    """Run what follows as another worker (``as_worker(name)``); its keys go after. The
    test database's keys of earlier runs go first (their workers are long dead)."""
    for key in redis.scan_iter(match=heartbeat.workers_key().removesuffix("workers") + "*"):
        redis.delete(key)
    names = []

    def become(name: str) -> str:
        name = f"{name}-{uuid.uuid4().hex[:8]}"
        names.append(name)
        monkeypatch.setattr(heartbeat, "worker_id", name)
        return name

    yield become
    for name in names:
        redis.delete(heartbeat.counts_key(name), heartbeat.beat_key(name))
        redis.srem(heartbeat.workers_key(), name)


def counts(redis, worker: str) -> dict[str, int]:
    return {k.decode(): int(v) for k, v in redis.hgetall(heartbeat.counts_key(worker)).items()}


def die(redis, worker: str) -> None:
    """The worker stops beating: its key expires (deleted here rather than waited for)."""
    redis.delete(heartbeat.beat_key(worker))


def test_a_dead_workers_people_go_offline_and_a_live_ones_stay(alice, bob, carol, as_worker, redis):
    befriend(alice, bob)
    befriend(carol, bob)
    dead = as_worker("dead")
    presence.connected(alice.pk)
    presence.connected(alice.pk)
    presence.set_away(alice.pk, True)
    assert counts(redis, dead) == {f"s:{alice.pk}": 2, f"a:{alice.pk}": 1}
    live = as_worker("live")
    presence.connected(carol.pk)
    assert presence.connected(alice.pk).kind == "online"  # a page on a worker that lives

    die(redis, dead)
    as_worker("reaper")
    # The dead one only (the live one's key is there), and only once.
    assert heartbeat.beat(presence.forget_sockets) == 1
    assert heartbeat.beat(presence.forget_sockets) == 0
    assert presence.statuses([alice.pk, carol.pk]) == {
        alice.pk: presence.Status("online"),  # her page on the live worker
        carol.pk: presence.Status("online"),
    }
    row = Presence.objects.get(user=alice)
    assert (row.sockets, row.away_sockets) == (1, 0)
    assert not redis.exists(heartbeat.counts_key(dead))
    assert counts(redis, live) == {f"s:{carol.pk}": 1, f"s:{alice.pk}": 1}

    die(redis, live)
    presence.reap()
    assert presence.statuses([alice.pk, carol.pk])[alice.pk].kind == "offline"
    assert presence.statuses([alice.pk, carol.pk])[carol.pk].kind == "offline"
    assert Presence.objects.get(user=carol).sockets == 0


def test_a_closed_socket_leaves_nothing_behind_and_a_person_with_no_friend_is_counted(
    alice, bob, as_worker, redis, django_capture_on_commit_callbacks
):
    worker = as_worker("clean")
    presence.connected(alice.pk)  # no friend: only counted
    presence.set_away(alice.pk, True)
    assert Presence.objects.get(user=alice).sockets == 1
    presence.disconnected(alice.pk, was_away=True)
    assert counts(redis, worker) == {}
    row = Presence.objects.get(user=alice)
    assert (row.sockets, row.away_sockets) == (0, 0)

    presence.connected(alice.pk)
    with django_capture_on_commit_callbacks(execute=True):
        befriend(alice, bob)  # her status is worked out now that someone sees it
    assert presence.statuses([alice.pk])[alice.pk].kind == "online"


def test_a_dead_worker_of_a_person_never_seen_makes_no_row(alice, as_worker, redis):
    dead = as_worker("dead")
    heartbeat.record(alice.pk, sockets=1)  # counted in Redis, then the worker died
    die(redis, dead)
    as_worker("reaper")
    assert presence.reap() == 1
    assert not Presence.objects.filter(user=alice).exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="sockets write beside the test")
@pytest.mark.django_db(transaction=True)
async def test_a_friend_on_a_dead_worker_is_pushed_as_offline(alice, bob, as_worker, redis):
    await database_sync_to_async(befriend)(alice, bob)
    bobs = await lobby_socket(bob)
    # Bob's socket counts him here after its handshake: on this worker, not the dead one.
    for _ in range(100):
        if await database_sync_to_async(Presence.objects.filter(user=bob, sockets=1).exists)():
            break
        await asyncio.sleep(0.02)
    dead = as_worker("dead")
    await database_sync_to_async(presence.connected)(alice.pk)  # her socket, on the worker
    assert "presence-online" in await frame_with(bobs, f'id="presence-{alice.pk}"')

    die(redis, dead)  # and the worker is gone, without a word
    as_worker("reaper")
    assert await database_sync_to_async(presence.reap)() == 1

    assert "presence-offline" in await frame_with(bobs, f'id="presence-{alice.pk}"')
    await bobs.disconnect()
