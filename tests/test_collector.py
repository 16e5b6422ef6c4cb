"""The garbage collector's runs on the event loop's thread (games/play/live/collector.py):
the same collections Python would make, made by a task of the loop, never by the thread
that happens to allocate."""

import subprocess
import sys
from pathlib import Path

from games.play.live.collector import due

REPO = Path(__file__).resolve().parent.parent
THRESHOLDS = (10000, 10, 10)


def never() -> bool:
    raise AssertionError("the oldest generation is counted only when a full run is due")


def test_nothing_is_collected_below_the_young_threshold():
    assert due((10000, 50, 50), THRESHOLDS, never) is None


def test_the_generation_python_would_collect():
    assert due((10001, 0, 0), THRESHOLDS, never) == 0
    assert due((10001, 11, 0), THRESHOLDS, never) == 1
    assert due((10001, 11, 11), THRESHOLDS, lambda: True) == 2
    assert due((10001, 3, 11), THRESHOLDS, lambda: True) == 2


def test_a_full_collection_waits_for_a_quarter_more_long_lived_objects():
    # As Python does: with few new long-lived objects, the middle generation instead.
    assert due((10001, 11, 11), THRESHOLDS, lambda: False) == 1
    assert due((10001, 3, 11), THRESHOLDS, lambda: False) == 0


PROBE = """
import asyncio, gc, threading, weakref
from games.play.live import collector

gc.set_threshold(500, 10, 10)
threads, freed = [], []
full = []
gc.callbacks.append(lambda phase, info: phase == "start" and threads.append(
    threading.get_native_id()))
gc.callbacks.append(lambda phase, info: phase == "start" and info["generation"] == 2
                    and full.append(threading.get_native_id()))


class Node:
    pass


def garbage(n):
    for _ in range(n):
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle: only the collector frees it
        weakref.finalize(a, freed.append, 1)


async def main():
    print("started", collector.start(), collector.start())
    await asyncio.sleep(0)
    print("automatic", gc.isenabled())
    loop_thread = threading.get_native_id()
    threads.clear()
    worker = threading.Thread(target=garbage, args=(2000,))
    worker.start()
    worker.join()
    print("in the thread", threads.count(worker.native_id))
    for _ in range(40):
        await asyncio.sleep(collector.CHECK_SECONDS)
        if len(freed) == 2000:
            break
    print("freed", len(freed), "on the loop", set(threads) == {loop_thread})
    # Long-lived objects enough to grow the oldest generation by a quarter: a full one.
    gc.set_threshold(200, 2, 2)
    kept = [[Node() for _ in range(200)] for _ in range(len(gc.get_objects()) // 100)]
    for _ in range(400):  # (it comes after some 12 looks of the collector's)
        await asyncio.sleep(collector.CHECK_SECONDS / 5)
        kept.append([Node() for _ in range(300)])
        if full:
            break
    print("full", bool(full), "on the loop", set(full) == {loop_thread})


collector.want()
asyncio.run(main())
"""


def test_the_loop_makes_the_collections_and_frees_cycles_made_in_other_threads():
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, check=True
    )
    lines = out.stdout.split("\n")
    assert "started True False" in lines
    assert "automatic False" in lines  # Python's own collections are off
    assert "in the thread 0" in lines  # the allocating thread did not collect
    assert "freed 2000 on the loop True" in lines
    assert "full True on the loop True" in lines


UNWANTED = """
import asyncio, gc
from games.play.live import collector


async def main():
    print(collector.start(), gc.isenabled())


asyncio.run(main())
"""


def test_a_process_that_did_not_ask_keeps_pythons_collections():
    """Tests, commands, a server whose loop is not favoured: nothing changes."""
    out = subprocess.run(
        [sys.executable, "-c", UNWANTED], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "True"]
