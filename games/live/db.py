"""The sockets' database work: off the event loop, and not all queued on one thread.

Channels runs every ``database_sync_to_async`` call of a process on one thread, so one
socket's move waits for every other socket's queries, and a worker does its database
round trips one at a time however many tables it serves. Moves and loads run here on a
small pool of threads instead (each with its own connection from the pool in
settings.DATABASES, returned after each call); a game's own moves are still serialised
by its row lock.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.db import DatabaseSyncToAsync
from django.conf import settings

_pools: dict[str, ThreadPoolExecutor] = {}


def thread_pool(name: str, size: int) -> ThreadPoolExecutor:
    """A named pool of threads for this process, made on first use."""
    if name not in _pools:
        _pools[name] = ThreadPoolExecutor(max_workers=size, thread_name_prefix=f"tongits-{name}")
    return _pools[name]


def in_db_thread(
    func: Callable[..., Any], executor: ThreadPoolExecutor | None = None
) -> Callable[..., Any]:
    """``func`` as a coroutine function run on one of the sockets' database threads (or
    on ``executor``), closing or handing back the thread's connection after each call."""
    if executor is None:
        executor = thread_pool("db", settings.TONGITS_DB_THREADS)
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=executor)
