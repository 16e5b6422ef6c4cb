"""The slow-phone benchmark (python -m bench.mobile) runs tiny: a fast network, a few
moves, a short cut of the line. Only that it works is asserted, that a move tried while
offline is disabled and sends nothing, and that the database holds every move once; the
figures are for people to read (bench/README.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.slow
@pytest.mark.browser
def test_a_tiny_mobile_run_measures_everything_and_stores_no_move_twice():
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: CI must install Debian's chromium (.ci/run).")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium (never downloaded).")
    options = ["--moves", "3", "--offline-seconds", "1", "--kbps", "8000", "--rtt-ms", "10"]
    options += ["--visits", "1", "--waterfall", "--any-kind"]
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        options.append("--sqlite")
    if not os.environ.get("REDIS_URL"):
        options.append("--no-redis")
    run = subprocess.run(
        [sys.executable, "-m", "bench.mobile", *options],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    output = run.stdout[-4000:] + run.stderr[-4000:]
    assert run.returncode == 0, output
    report = json.loads(run.stdout.strip().splitlines()[-1])

    assert report["home_cold_ms"] > 0 and report["play_now_cold_ms"] > 0, output
    # The waterfall shows the table's socket opened and its moments in the page.
    waterfall = "\n".join(report["play_now_cold_waterfall"])
    assert "ws/game/" in waterfall and "in the page: socket open" in waterfall, waterfall
    assert report["table_bytes"] > 0 and report["table_requests"] > 0, output
    assert report["moves_timed"] >= 3 and report["board_p95_ms"] >= report["board_p50_ms"] > 0
    # The card moved by the board at the latest, timed in the page, and, beside it, the
    # board as Playwright sees it (its own work included).
    assert 0 <= report["moved_p50_ms"] <= report["board_p95_ms"], output
    assert report["outside_p95_ms"] >= report["outside_p50_ms"] > 0, output
    # Offline, the move on offer is disabled with the reason, and tapping it or submitting
    # its form sends nothing, then or when the network is back; she presses it again once
    # the button is back, and that move is stored once.
    assert report["offline_disabled"] and report["offline_reason"], output
    assert report["sent_offline"] == 0 and report["sent_before_pressed_again"] == 0, output
    assert report["stored_while_down"] == 0, output
    assert report["recovered"] and report["recover_ms"] > 0, output
    assert report["move_after_recovery_ms"] > 0, output
    assert report["frames_sent"] >= report["moves_timed"] + 1, output
    assert report["stored_twice"] == 0 and report["moves"] == report["moves_by_seq"], output
    # Pages closed just after their table's socket opened (each cold visit's) leave no
    # error in the worker's log: a frame on its way to a closed socket is dropped quietly.
    assert report["worker_errors"] == 0, output


def test_the_bench_deals_are_rich_in_takes_for_its_player():
    # The bench's player on its first deals, in the engine (bench/mobile_deals.py): the
    # bots' moves follow from the seed, so these are the moves a run will make.
    from bench.mobile import RICH_SEEDS
    from bench.mobile_deals import simulate

    games = [simulate(seed) for seed in RICH_SEEDS[:5]]
    assert sum(g["take"] for g in games) >= 10, games
