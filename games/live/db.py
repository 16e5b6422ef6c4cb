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

_executor: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(
            max_workers=settings.TONGITS_DB_THREADS, thread_name_prefix="tongits-db"
        )
    return _executor


def in_db_thread(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` as a coroutine function run on one of the pool's threads."""
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=_pool())
