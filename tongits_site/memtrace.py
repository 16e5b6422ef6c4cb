"""An opt-in look at where a worker's memory goes: ``TONGITS_TRACEMALLOC=1``.

Off (the default) it costs one environment lookup at start. On, the process starts
``tracemalloc`` with 10 frames per allocation (N with ``TONGITS_TRACEMALLOC=N``) and, on
SIGUSR1 (and every ``TONGITS_TRACEMALLOC_EVERY`` seconds, if set), appends to
``$TONGITS_TRACEMALLOC_DIR/memtrace-<pid>.txt`` (the system's temporary folder by
default):

- the process's RSS and tracemalloc's traced total and peak;
- the top allocation sites grouped by traceback, and the difference from the last dump;
- the number of objects the garbage collector tracks, by type name, and its difference;

and writes the snapshot itself next to it (``memtrace-<pid>.<n>.snapshot``, for
``tracemalloc.Snapshot.load``).

Only allocation sites (file and line), sizes, counts and type names are written: never
an object's value, so nothing in a dump can show a card, a hand or a seed.
"""

from __future__ import annotations

import collections
import gc
import os
import signal
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

FRAMES = 10
TOP = 25
_state: dict = {}


def start_from_env() -> bool:
    """Start tracing if ``TONGITS_TRACEMALLOC`` asks for it; whether it did."""
    if os.environ.get("TONGITS_TRACEMALLOC", "") in ("", "0"):
        return False
    folder = Path(os.environ.get("TONGITS_TRACEMALLOC_DIR") or tempfile.gettempdir())
    _state["path"] = folder / f"memtrace-{os.getpid()}.txt"
    _state["lock"] = threading.Lock()
    value = os.environ["TONGITS_TRACEMALLOC"]
    tracemalloc.start(int(value) if value.isdigit() and int(value) > 1 else FRAMES)
    signal.signal(signal.SIGUSR1, lambda *_: _dump_in_thread("SIGUSR1"))
    every = float(os.environ.get("TONGITS_TRACEMALLOC_EVERY", "0") or 0)
    if every > 0:
        threading.Thread(target=_every, args=(every,), name="memtrace", daemon=True).start()
    return True


def _every(seconds: float) -> None:
    while True:
        time.sleep(seconds)
        dump(f"every {seconds:g} s")


def _dump_in_thread(reason: str) -> None:
    # Not in the signal handler itself: a snapshot takes a while, and the handler runs
    # between two bytecodes of whatever the event loop was doing.
    threading.Thread(target=dump, args=(reason,), name="memtrace", daemon=True).start()


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def malloc_mb() -> str:
    """glibc's own view (mallinfo2): bytes in use by malloc, free but kept in its arenas,
    and how many arenas; "" where there is no glibc. Python's small objects live in its
    own 256 KiB arenas (mmap), outside these figures."""
    try:
        import ctypes

        class MallInfo2(ctypes.Structure):
            _fields_ = [
                (name, ctypes.c_size_t)
                for name in (
                    "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                    "fsmblks", "uordblks", "fordblks", "keepcost",
                )
            ]  # fmt: skip

        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = MallInfo2
        m = libc.mallinfo2()
    except (OSError, AttributeError):
        return ""
    mb = 2**20
    return (
        f", malloc in use {(m.uordblks + m.hblkhd) / mb:.1f} MB, free in its arenas "
        f"{m.fordblks / mb:.1f} MB (of {m.arena / mb:.1f} MB)"
    )


def type_counts() -> collections.Counter:
    """Objects the garbage collector tracks, by type name (the type's, never a value)."""
    return collections.Counter(type(o).__qualname__ for o in gc.get_objects())


def _frames(traceback: tracemalloc.Traceback) -> list[str]:
    # File and line only (tracemalloc's own format() also reads each line's source into
    # linecache, which is then the biggest growth between two dumps).
    return [f"      {frame.filename}:{frame.lineno}" for frame in reversed(traceback)]


def dump(reason: str) -> Path:
    with _state["lock"]:
        return _dump(reason)


def _dump(reason: str) -> Path:
    # Unfiltered: filter_traces matches every trace in Python (seconds for a worker's).
    snapshot = tracemalloc.take_snapshot()
    current, peak = tracemalloc.get_traced_memory()
    counts = type_counts()
    lines = [
        f"=== {time.strftime('%H:%M:%S')} pid {os.getpid()} ({reason}) "
        f"rss {rss_mb():.1f} MB, traced {current / 2**20:.1f} MB (peak {peak / 2**20:.1f} MB), "
        f"gc objects {sum(counts.values())}, threads {threading.active_count()}" + malloc_mb(),
        f"--- top {TOP} allocation sites by size",
    ]
    for stat in snapshot.statistics("traceback")[:TOP]:
        lines.append(f"{stat.size / 1024:9.1f} KiB {stat.count:8d} blocks")
        lines.extend(_frames(stat.traceback))
    previous = _state.get("snapshot")
    if previous is not None:
        lines.append(f"--- top {TOP} growth since the last dump")
        for stat in snapshot.compare_to(previous, "traceback")[:TOP]:
            lines.append(
                f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+8d} blocks "
                f"(now {stat.size / 1024:.1f} KiB)"
            )
            lines.extend(_frames(stat.traceback))
        lines.append(f"--- top {TOP} growth since the last dump, by line")
        for stat in snapshot.compare_to(previous, "lineno")[:TOP]:
            frame = stat.traceback[0]
            lines.append(
                f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+8d} blocks "
                f"(now {stat.size / 1024:.1f} KiB)  {frame.filename}:{frame.lineno}"
            )
    lines.append("--- gc-tracked objects by type (count, change since the last dump)")
    before = _state.get("counts", collections.Counter())
    for name, n in counts.most_common(40):
        lines.append(f"{n:9d} {n - before.get(name, 0):+8d}  {name}")
    grown = sorted(((n - before.get(k, 0), k) for k, n in counts.items()), reverse=True)[:20]
    if before:
        lines.append("--- types grown most since the last dump")
        lines.extend(f"{d:+9d}  {k}" for d, k in grown if d > 0)
    _state["snapshot"], _state["counts"] = snapshot, counts
    # The snapshot itself too, for a look afterwards (tracemalloc.Snapshot.load): it holds
    # allocation sites and sizes only.
    _state["dumps"] = _state.get("dumps", 0) + 1
    snapshot.dump(str(_state["path"].with_suffix(f".{_state['dumps']}.snapshot")))
    with _state["path"].open("a") as out:
        out.write("\n".join(lines) + "\n\n")
    return _state["path"]
