"""The sockets' database work: off the event loop, and not all queued on one thread.

Channels runs every ``database_sync_to_async`` call of a process on one thread, so one
socket's move waits for every other socket's queries, and a worker does its database
round trips one at a time however many tables it serves. Moves and loads run here on a
small pool of threads instead (each keeping a connection from the pool in
settings.DATABASES, see ``_let_go_if_unfit``); a game's own moves are still serialised
by its row lock.

The hop to a thread is written out rather than taken from asgiref's ``SyncToAsync``, which
a worker pays for at every move: it copies the caller's context variables into the
thread and every change back out again, and shields the call. Here the function runs in a
copy of the caller's context (its language, say) and nothing comes back but its result.
The thread is still marked as working for this event loop, as asgiref's own hop marks it,
so that ``async_to_sync`` in it (a notification sent at commit) runs on this loop.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connections

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
    pool = executor

    @functools.wraps(func)
    async def in_thread(*args: Any, **kwargs: Any) -> Any:
        nonlocal pool
        if pool is None:
            pool = thread_pool("db", settings.TONGITS_DB_THREADS)
        loop = asyncio.get_running_loop()
        call = functools.partial(_run, loop, func, args, kwargs)
        return await loop.run_in_executor(pool, contextvars.copy_context().run, call)

    return in_thread


def _run(loop: asyncio.AbstractEventLoop, func: Callable[..., Any], args, kwargs) -> Any:
    local = SyncToAsync.threadlocal
    local.main_event_loop = loop  # what asgiref's async_to_sync looks for
    local.main_event_loop_pid = os.getpid()
    local.task_context = None
    try:
        return func(*args, **kwargs)
    finally:
        _let_go_if_unfit()


def _let_go_if_unfit() -> None:
    """Keep the thread's connection for its next call, unless it failed or was left in a
    transaction (then it goes back to the pool, which drops a broken one).

    Taking a connection from the pool and giving it back at every call, as
    ``close_old_connections`` does with CONN_MAX_AGE=0, cost a busy worker some of its CPU
    at every move (README, live-play benchmark). So each of these threads holds one of
    the pool's connections for as long as it lives: the pool's size counts them
    (settings.TONGITS_DB_POOL_MAX)."""
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        if conn.errors_occurred or conn.in_atomic_block or not conn.get_autocommit():
            conn.close()
