"""Hard bots think in other processes, never on a thread of the process serving sockets.

The search bot (``games.bots.search``) spends a few hundred milliseconds of pure Python per
move. On a thread of the web worker it would hold the GIL in turns with the event loop that
serves every socket, and on the clock's one thread it would make every other table's bot
wait behind it. So its moves are worked out in a small pool of processes of their own
(``TONGITS_THINKERS``), which share nothing with the worker but the view they are sent and
the move they send back. A process pool rather than threads, because the work is CPU-bound
Python: threads of the same process would take turns on one GIL with the sockets.

The children start from a fork server, not a fork of the worker (which holds threads, a
database pool and sockets), and import only the engine and the bots: no Django.

Bounded in time twice over: the search's budget counts simulated moves, so a move takes
about the same time on any deal (``bench.search``); and a move that has not come back after
``THINK_TIMEOUT`` seconds (a pool that is flooded or broken) is made by the greedy bot
instead, so a table never waits on a lost process.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import random
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings

from games import bots
from games.engine.moves import Move
from games.engine.view import SeatView

log = logging.getLogger(__name__)

# A move that takes longer than this is made by the greedy bot instead.
THINK_TIMEOUT = 5.0

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def think(kind: str, view: SeatView, seed: int) -> Move:
    """In a pool process: the move of a ``kind`` bot, from its view and a seed."""
    return bots.choose(kind, view, random.Random(seed))


# Thinkers run at a lower priority than the web workers: when the cores are busy, the
# operating system serves the sockets first and a bot's thought waits (a bot is expected
# to take a moment; a person's move is not).
THINKER_NICE = 10


def _lower_priority() -> None:
    try:
        os.nice(THINKER_NICE)
    except OSError:  # not allowed here: think at the same priority
        pass


def pool() -> ProcessPoolExecutor:
    """This process's pool of thinkers, started on first use."""
    global _pool
    with _lock:
        if _pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["games.bots"])
            _pool = ProcessPoolExecutor(
                max_workers=settings.TONGITS_THINKERS,
                mp_context=context,
                initializer=_lower_priority,
            )
        return _pool


def started() -> bool:
    return _pool is not None


def submit(kind: str, view: SeatView, seed: int) -> Future:
    """Start thinking about a move; the future gives the move."""
    global _pool
    try:
        return pool().submit(think, kind, view, seed)
    except BrokenProcessPool:
        # A thinker died (killed for memory, say): start a new pool for the next moves.
        with _lock:
            _pool = None
        return pool().submit(think, kind, view, seed)


def fallback(view: SeatView) -> Move:
    """The move made when thinking failed or took too long: greedy's, which is quick."""
    return bots.choose("greedy", view, random.Random(0))


def choose(kind: str, view: SeatView, seed: int) -> Move:
    """The move of a ``kind`` bot, thought in the pool; the calling thread only waits."""
    try:
        return submit(kind, view, seed).result(timeout=THINK_TIMEOUT)
    except Exception as e:
        # Too slow, a broken pool, or the bot itself failing: as the clock loop does, greedy
        # moves. (A bot that raised was retried with the same seed for ever: stuck.)
        # The error's kind only: a bot's error message may name a card of the hand.
        log.warning(
            "A %s bot's move took too long or failed (%s): greedy moves instead.",
            kind, type(e).__name__,
        )  # fmt: skip
        return fallback(view)


def shutdown() -> None:
    global _pool
    with _lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None
