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
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connections

from games.play.live import lag

log = logging.getLogger(__name__)
_pools: dict[str, ThreadPoolExecutor] = {}


def thread_pool(name: str, size: int) -> ThreadPoolExecutor:
    """A named pool of threads for this process, made on first use."""
    if name not in _pools:
        _pools[name] = ThreadPoolExecutor(max_workers=size, thread_name_prefix=f"tongits-{name}")
    return _pools[name]


def in_db_thread(
    func: Callable[..., Any], executor: ThreadPoolExecutor | None = None, *, pool: str = "db"
) -> Callable[..., Any]:
    """``func`` as a coroutine function run on one of the sockets' database threads (or
    on ``executor``, or on the named ``pool``), closing or handing back the thread's
    connection after each call."""
    threads = executor

    @functools.wraps(func)
    async def in_thread(*args: Any, **kwargs: Any) -> Any:
        nonlocal threads
        if threads is None:
            threads = thread_pool(pool, _SIZES[pool]())
        loop = asyncio.get_running_loop()
        call = functools.partial(_run, loop, func, args, kwargs)
        if lag.ON:
            name = getattr(threads, "_thread_name_prefix", pool).removeprefix("tongits-")
            call = functools.partial(_timed, name, time.perf_counter(), call)
        return await loop.run_in_executor(threads, contextvars.copy_context().run, call)

    return in_thread


_SIZES = {
    "db": lambda: settings.TONGITS_DB_THREADS,
    "arrivals": lambda: settings.TONGITS_ARRIVAL_THREADS,
}


def on_arrival(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` as ``in_db_thread`` makes it, on the threads of people arriving and leaving
    (a socket's login, its person's presence, the table's talk so far), not on the threads
    of the moves.

    A thread pool serves its calls in the order they came. At an arena's start 999 sockets
    open within seconds, each with four such calls: queued with the moves, they held up
    every move of the tables already playing (hundreds of milliseconds at the start, in
    the arena benchmark). Here they queue among themselves; the moves' threads stay free
    for the moves."""
    return in_db_thread(func, pool="arrivals")


def afterwards(func: Callable[[], Any], delay: float = 0.0) -> None:
    """``func()`` after the work at hand, on this process's one thread for what follows a
    move, when called on one of a running server's database threads (the sockets', the
    clock's); at once anywhere else (a page, a command, a test without a server).
    ``delay``: seconds to wait first, on a server (the event loop times it, no thread
    waits).

    A game's end pairs the arena's people again (games/tournaments/services.py) under the
    tournament's lock. Run on the move's own thread it held the move's answer until the
    pairing was done, and when a round of games ended together (an arena's tables start
    together and end together) the ends queued on that lock with every thread of the
    moves: the other tables' moves waited up to seconds (the arena benchmark). Here the
    pairings of a process follow one another on their own thread. Their events reach the
    sockets from the event loop, as a move's do."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    name = threading.current_thread().name
    elsewhere = loop is None or not loop.is_running() or not name.startswith("tongits-")
    if elsewhere or (name.startswith("tongits-afterwards") and not delay):  # (there: in turn)
        func()
        return
    if lag.ON:
        func = functools.partial(_timed, "afterwards", time.perf_counter() + delay, func)
    submit = functools.partial(thread_pool("afterwards", 1).submit, _run_logged, loop, func)
    if delay:
        loop.call_soon_threadsafe(loop.call_later, delay, submit)
    else:
        submit()


def _timed(pool: str, since: float, call: Callable[[], Any]) -> Any:
    lag.queued(pool, since)
    return call()


def _run_logged(loop: asyncio.AbstractEventLoop, func: Callable[[], Any]) -> None:
    try:
        _run(loop, func, (), {})
    except Exception:
        log.exception("Work after a move failed")


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
    at every move (docs/performance.md, Lab notes). So each of these threads holds one of
    the pool's connections for as long as it lives: the pool's size counts them
    (settings.TONGITS_DB_POOL_MAX)."""
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        if conn.errors_occurred or conn.in_atomic_block or not conn.get_autocommit():
            conn.close()
