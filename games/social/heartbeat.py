"""Presence that heals: which worker counted whose sockets, so that the people of a worker
that dies (killed, out of memory, its machine gone) go offline for their friends within a
minute instead of staying online for ever.

The ``Presence`` rows count a person's open sockets on all workers together. Each worker
also keeps, in Redis, what it added to those counts (a hash of ``s:<user>`` and
``a:<user>`` to its number of open and hidden sockets), and says it is alive with a key
that expires ``LEASE_SECONDS`` after its last beat (every ``BEAT_SECONDS`` while it has
counted sockets). Every beat also looks for workers whose key has expired: the first to
find one claims it (atomically, in Redis), takes its counts off the rows, and the people
whose status changes are pushed to their friends as usual (games/social/presence.py).
So a dead worker's people are offline at most ``LEASE_SECONDS + BEAT_SECONDS`` after its
last beat, as soon as any worker has a socket.

A worker adds to its hash before it adds to a row and takes off a row before its hash,
so a crash between the two leaves the hash at least what the rows hold: the error, if
any, leans to offline, which the person's next socket puts right.

Without Redis (one process, the in-memory channel layer) there is no other worker to die
without its sockets, and nothing is kept.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import uuid
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

BEAT_SECONDS = 15
LEASE_SECONDS = 45  # three beats missed: the worker is gone

# This process's id: a new one at each start, so a restarted worker never inherits the
# counts of the process it replaced (those are reaped like any dead worker's).
worker_id = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
_open = 0  # sockets this process counted and has not yet taken off
_open_lock = threading.Lock()  # the sockets' database threads count at once
_task: asyncio.Task | None = None
_scripts: dict = {}  # Redis's client and the two scripts, made on first use

# Adds each (field, step) pair to the worker's hash, dropping fields that reach none, and
# says the worker is alive (unless it said so already: the beat refreshes the key).
_RECORD = """
redis.call('SET', KEYS[2], '1', 'EX', ARGV[1], 'NX')
redis.call('SADD', KEYS[3], ARGV[2])
for i = 3, #ARGV, 2 do
  if redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) <= 0 then
    redis.call('HDEL', KEYS[1], ARGV[i])
  end
end
"""
# A worker whose key expired: the first caller takes its counts (and only the first).
_CLAIM = """
if redis.call('EXISTS', KEYS[2]) == 1 then return false end
if redis.call('SREM', KEYS[3], ARGV[1]) == 0 then return false end
local counts = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
return counts
"""


def _prefix() -> str:
    # Per database: the counts are of its people (a test's or a bench's database shares
    # the machine's Redis with the site's).
    return f"tongits:presence:{settings.DATABASES['default']['NAME']}:"


def workers_key() -> str:
    """A set of the ids of the workers that counted sockets."""
    return _prefix() + "workers"


def counts_key(worker: str) -> str:
    return f"{_prefix()}counts:{worker}"


def beat_key(worker: str) -> str:
    return f"{_prefix()}alive:{worker}"


def _redis():
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return None
    if _scripts.get("url") != url:
        import redis

        client = redis.Redis.from_url(url)
        _scripts.update(
            url=url, client=client, record=client.register_script(_RECORD),
            claim=client.register_script(_CLAIM),
        )  # fmt: skip
    return _scripts["client"]


def record(user_id: int, sockets: int = 0, away: int = 0) -> None:
    """This worker's sockets of ``user_id`` changed by ``sockets`` (and ``away`` of them
    hidden). Never raises: a socket's presence is not worth its game."""
    global _open
    with _open_lock:
        _open = max(_open + sockets, 0)
    client = _redis()
    if client is None:
        return
    steps = []
    for kind, step in (("s", sockets), ("a", away)):
        if step:
            steps += [f"{kind}:{int(user_id)}", int(step)]
    if not steps:
        return
    keys = (counts_key(worker_id), beat_key(worker_id), workers_key())
    try:
        _scripts["record"](keys=keys, args=(LEASE_SECONDS, worker_id, *steps))
    except Exception as e:  # Redis restarting: the row is still counted
        log.warning("Presence lease of %s not recorded: %s", user_id, e)


# ``forget(user_id, sockets, away)``: take a dead worker's sockets off a person's counts
# (games/social/presence.py's ``forget_sockets``, which tells their friends).
Forget = Callable[[int, int, int], Any]


def beat(forget: Forget) -> int:
    """Say this worker is alive, then reap the workers that are not; how many reaped."""
    client = _redis()
    if client is None:
        return 0
    client.set(beat_key(worker_id), "1", ex=LEASE_SECONDS)
    return reap(forget)


def reap(forget: Forget) -> int:
    """Take the counts of every worker whose key expired off the people they counted
    (``forget``); how many workers."""
    client = _redis()
    if client is None:
        return 0
    reaped = 0
    for raw in client.smembers(workers_key()):
        worker = raw.decode()
        keys = (counts_key(worker), beat_key(worker), workers_key())
        counts = _scripts["claim"](keys=keys, args=(worker,))
        if counts is None:
            continue
        reaped += 1
        people: dict[int, dict[str, int]] = defaultdict(lambda: {"s": 0, "a": 0})
        for field, value in zip(counts[::2], counts[1::2], strict=True):
            kind, user = field.decode().split(":", 1)
            people[int(user)][kind] += int(value)
        for user, took in people.items():
            forget(user, took["s"], took["a"])
        log.warning("Presence: worker %s stopped beating; %d people's sockets taken off.",
                    worker, len(people))  # fmt: skip
    return reaped


def ensure_beating(forget: Forget) -> None:
    """Start this process's beat (on the running loop) if it has counted sockets and is
    not beating already."""
    global _task
    if _redis() is None or _open <= 0:
        return
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_beat_while_counting(forget), name="tongits-presence-beat")


async def _beat_while_counting(forget: Forget) -> None:
    from games.play.live.db import in_db_thread

    while _open > 0:
        try:
            await in_db_thread(beat)(forget)
        except Exception:  # Redis or the database restarting: beat again next time
            log.exception("The presence beat failed.")
        await asyncio.sleep(BEAT_SECONDS)
