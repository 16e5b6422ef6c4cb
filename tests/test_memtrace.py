"""The opt-in memory dump of a worker (tongits_site/memtrace.py, issue 7): off unless asked
for, and when on it records where memory was allocated, never what it holds, so no card,
hand or seed of a game in play can reach the dump's files."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 271828182845  # twelve digits: no size or count in a dump is that long
MARKER = "HIDDEN-HAND-of-seat-1"

SCRIPT = textwrap.dedent(
    f"""
    import os, signal, threading, time, tracemalloc
    from tongits_site import memtrace

    print("started", memtrace.start_from_env(), tracemalloc.is_tracing())
    if tracemalloc.is_tracing():
        from games.bots import choose
        from games.engine import apply, new_game, seat_view
        import random

        state, rng = new_game({SEED}), random.Random(1)
        for _ in range(30):
            state = apply(state, choose("greedy", seat_view(state, state.turn), rng))
        held = ["{MARKER}" + str(i) for i in range(1000)]  # a value a dump must not show
        memtrace.dump("first")
        os.kill(os.getpid(), signal.SIGUSR1)  # the second, from its own thread
        for _ in range(600):
            if len([t for t in threading.enumerate() if t.name == "memtrace"]) == 0:
                break
            time.sleep(0.1)
    """
)


def run(tmp_path: Path, **env: str) -> str:
    full = {k: v for k, v in os.environ.items() if not k.startswith("TONGITS_TRACEMALLOC")}
    full.update(TONGITS_TRACEMALLOC_DIR=str(tmp_path), **env)
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=full, capture_output=True, text=True,
        timeout=300, check=True,
    )  # fmt: skip
    return out.stdout


def test_off_by_default(tmp_path):
    assert run(tmp_path).startswith("started False False")
    assert run(tmp_path, TONGITS_TRACEMALLOC="0").startswith("started False False")
    assert list(tmp_path.iterdir()) == []


def test_a_dump_shows_allocation_sites_and_no_value(tmp_path):
    assert run(tmp_path, TONGITS_TRACEMALLOC="1").startswith("started True True")
    [text_file] = tmp_path.glob("memtrace-*.txt")
    text = text_file.read_text()
    # Two dumps (a call and SIGUSR1), the second with the growth since the first.
    assert text.count("=== ") == 2
    assert "rss" in text and "traced" in text and "growth since the last dump" in text
    assert "games/engine/" in text  # where the game's memory was allocated
    assert "  function" in text and "  dict" in text  # objects by type name
    snapshots = sorted(tmp_path.glob("memtrace-*.snapshot"))
    assert len(snapshots) == 2
    for path in [text_file, *snapshots]:
        data = path.read_bytes()
        assert MARKER.encode() not in data
        assert str(SEED).encode() not in data
