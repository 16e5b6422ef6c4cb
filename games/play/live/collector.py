"""The garbage collector's runs, made on the event loop's thread (a worker served by
``tongits_site.serve``, whose loop thread the kernel favours).

Python collects when a thread allocates past a generation's threshold, in whichever
thread that is, and holds every thread of the process meanwhile. In the arena benchmark's
game-end seconds those were mostly the database and page threads, at the worker's plain
nice value on two busy cores: a young generation's collection of some 5 ms of CPU took
100 to 300 ms of wall time, a middle one 400 ms, and a full one 1.4 s, while the kernel
gave the collecting thread's core to other processes and the loop waited for the
interpreter (docs/scaling.md, Lab notes of 7 December 2026, night). Here the automatic
collections are off, and a task of the loop makes the same ones, by the same thresholds
(``gc.get_threshold``), checked every ``CHECK_SECONDS`` (10 ms): a collection then runs
on the favoured thread and takes about its CPU time. A full collection waits, as Python's, until
the oldest generation has grown by a quarter since the last one; Python counts every
object moved into it since, dead or not, and this its net growth, so full collections
come somewhat less often (none in the benchmark's 3 minutes, one a worker before; they
cost some 0.3-0.4 s of CPU there, and still hold the worker that long when they come).

Off unless the process asks for it (``want``, which the server does before it starts);
``start`` is called on the running loop, once a process.
"""

from __future__ import annotations

import asyncio
import gc
import logging

log = logging.getLogger(__name__)

# Between two looks at the collector's counts. A young collection takes every new object
# since the last look, and a middle one the survivors of ten looks: at 50 ms these were
# 10-13 ms and 50-70 ms of CPU on the loop in a crowd's rounds of ends (its boards waited
# as long, a middle one every half second or so); at 10 ms each covers a fifth as many.
CHECK_SECONDS = 0.01
_wanted = False
_task: asyncio.Task | None = None


def want() -> None:
    """This process's collections are to run on its event loop (``start``)."""
    global _wanted
    _wanted = True


def start() -> bool:
    """On the running loop: turn the automatic collections off and make them from a task
    of this loop. Once a process, and only if wanted; True if it started now."""
    global _task
    if not _wanted or _task is not None:
        return False
    _task = asyncio.get_running_loop().create_task(_collecting(), name="tongits-collector")
    return True


def due(counts: tuple[int, int, int], thresholds: tuple[int, int, int], pending) -> int | None:
    """The generation Python itself would collect now (None: no collection), from the
    collector's counts (new objects; young collections since the last middle one; middle
    ones since the last full one) and thresholds. ``pending()``: whether the oldest
    generation has grown by a quarter since the last full collection (asked only when a
    full collection is otherwise due: it counts its objects)."""
    if counts[0] <= thresholds[0]:
        return None
    if counts[2] > thresholds[2] and pending():
        return 2
    if counts[1] > thresholds[1]:
        return 1
    return 0


async def _collecting() -> None:
    # The oldest generation's objects after the last full collection (frozen ones are not).
    kept = [len(gc.get_objects(2))]
    # Its growth, counted again only after a middle collection has moved objects into it
    # (the count of middle collections changed): not at every young one meanwhile.
    counted = {"at": -1, "grown": False}

    def pending() -> bool:
        middle_runs = gc.get_count()[2]
        if middle_runs != counted["at"]:
            counted["at"] = middle_runs
            counted["grown"] = 4 * (len(gc.get_objects(2)) - kept[0]) > kept[0]
        return counted["grown"]

    gc.disable()
    try:
        while True:
            await asyncio.sleep(CHECK_SECONDS)
            generation = due(gc.get_count(), gc.get_threshold(), pending)
            if generation is None:
                continue
            gc.collect(generation)
            if generation == 2:
                kept[0] = len(gc.get_objects(2))
                counted["at"] = -1
    finally:
        gc.enable()  # (the loop is closing: Python collects as it did)
