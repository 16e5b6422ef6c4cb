"""What a worker's moves wait for, second by second, behind ``TONGITS_LAG_LOG=1`` (off by
default: then nothing here runs but one environment lookup at import).

On, the worker logs every second: the event loop's longest lag (a task that asks to wake
every 10 ms, and how late it woke); the process's CPU and the loop thread's own, in % of a
core; how long the loop thread waited, runnable, for a core (the kernel's schedstat); for
each pool of database threads (games/play/live/db.py) how many calls it ran and the 99th
percentile and longest wait of a call for a free thread; and the garbage collector's runs
by generation (how many, the longest, the sum, and the CPU time their thread spent in
them). It says whether a slow second's moves waited for a thread, for the interpreter, for
a core or for a collection
(docs/scaling.md, Lab notes of 7 December 2026, evening)."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
import threading
import time

log = logging.getLogger(__name__)
ON = os.environ.get("TONGITS_LAG_LOG", "") not in ("", "0")
_waits: dict[str, list[float]] = {}
_lock = threading.Lock()
_started = False


def queued(pool: str, since: float) -> None:
    """A call of ``pool`` began, having been submitted at ``since`` (time.perf_counter)."""
    wait = time.perf_counter() - since
    with _lock:
        _waits.setdefault(pool, []).append(wait)


_gc: dict[int, list[float]] = {}
_gc_cpu: dict[int, float] = {}
_gc_began = (0.0, 0.0)


def _collected(phase: str, info: dict) -> None:
    global _gc_began
    if phase == "start":
        _gc_began = (time.perf_counter(), time.thread_time())
    else:
        took = time.perf_counter() - _gc_began[0]
        cpu = time.thread_time() - _gc_began[1]
        with _lock:
            _gc.setdefault(info["generation"], []).append(took)
            _gc_cpu[info["generation"]] = _gc_cpu.get(info["generation"], 0.0) + cpu


def start() -> None:
    """Start the logging task on the running loop, once a process."""
    global _started
    if not ON or _started:
        return
    _started = True
    gc.callbacks.append(_collected)
    asyncio.get_running_loop().create_task(_watch())


async def _watch() -> None:
    step = 0.01
    second = time.monotonic()
    cpu, main, queued_s = time.process_time(), time.thread_time(), _queued()
    log.warning("switch interval %.4f s", sys.getswitchinterval())
    worst = 0.0
    while True:
        before = time.perf_counter()
        await asyncio.sleep(step)
        worst = max(worst, time.perf_counter() - before - step)
        if time.monotonic() - second >= 1.0:
            second = time.monotonic()
            with _lock:
                waits = {k: sorted(v) for k, v in _waits.items()}
                _waits.clear()
                collected = " ".join(
                    f"gen{g}:{len(v)}/{1000 * max(v):.0f}/{1000 * sum(v):.0f}"
                    f"/{1000 * _gc_cpu.get(g, 0.0):.0f}"
                    for g, v in sorted(_gc.items())
                )
                _gc.clear()
                _gc_cpu.clear()
            pools = " ".join(
                f"{k}:{len(v)}/{1000 * v[int(0.99 * (len(v) - 1))]:.0f}/{1000 * v[-1]:.0f}"
                for k, v in sorted(waits.items())
            )
            now_cpu, now_main, now_queued = time.process_time(), time.thread_time(), _queued()
            log.warning(
                "lag %.0f ms; cpu %.0f%%, loop %.0f%%, loop waited for a core %.0f ms; "
                "pools (calls/p99/max ms) %s; gc (n/max/sum/cpu ms) %s",
                1000 * worst, 100 * (now_cpu - cpu), 100 * (now_main - main),
                1000 * (now_queued - queued_s), pools, collected,
            )  # fmt: skip
            cpu, main, queued_s = now_cpu, now_main, now_queued
            worst = 0.0


def _queued() -> float:
    """Seconds this thread has waited, runnable, for a core (the kernel's schedstat)."""
    try:
        with open("/proc/thread-self/schedstat") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0
