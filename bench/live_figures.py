"""bench.live's figures and its report: percentiles, the timed log line (``say``) and the
summary printed before the run's JSON."""

from __future__ import annotations

import json
import time
from typing import Any

from bench import live_arena

STARTED = time.perf_counter()


def say(text: str, *, file=None) -> None:
    print(f"[{time.perf_counter() - STARTED:5.1f} s] {text}", flush=True, file=file)


def latency(name: str, seconds: list[float]) -> dict[str, Any]:
    ordered = sorted(seconds)
    points = (("p50", 50), ("p95", 95), ("p99", 99))
    return {f"{name}_{p}_ms": ms(pct(ordered, n)) for p, n in points}


def pct(ordered: list[float], n: float) -> float | None:
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, max(0, round(n / 100 * len(ordered) + 0.5) - 1))]


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def print_report(r: dict[str, Any]) -> None:
    if r["mode"] == "arena":
        for line in live_arena.arena_summary(r):
            say(line)
    say(f"{r['mode']}: {r['tables']} tables, {r['sockets']} sockets, {r['workers']} worker(s), "
        f"{r['database']} + {r['channel_layer']} layer, think {r['think_s']} s")  # fmt: skip
    say(
        f"{r['moves']} moves in {r['seconds']} s: {r['moves_per_s']} moves/s "
        f"({r['moves_per_s_per_worker']} per worker), {r['games_finished']} games finished"
    )
    for name in ("move_to_mover", "move_to_all_seats", "client_loop_lag"):
        figures = " / ".join(str(r[f"{name}_{p}_ms"]) for p in ("p50", "p95", "p99"))
        say(f"{name.replace('_', ' ')}: p50 / p95 / p99 = {figures} ms")
    say(
        f"worker CPU {r['worker_cpu_ms_per_move']} ms per move ({r['worker_cpu_pct']} % each; "
        f"{r['worker_ceiling_moves_per_s']} moves/s per worker with a core each), "
        f"RSS {r['rss_mb_start']} -> {r['rss_mb_end']} MB; client CPU {r['client_cpu_pct']} %"
        + (" (the clients were the bottleneck)" if r["client_bottleneck"] else "")
    )
    say(
        f"errors {r['errors']} {r['error_kinds'] or ''}, stale moves {r['stale_moves']}, "
        f"socket closes {r['socket_closes']}, reconnects {r['reconnects']}, "
        f"handshakes refused busy {r.get('handshakes_busy', 0)}"
    )
    for example in r["error_examples"]:
        say(f"  {example}")
    say(
        f"lost {r['lost']}, doubled {r['doubled']}, unanswered {r['unanswered']}, "
        f"seats behind {r['seats_behind']}, replay --stored exit {r['replay']['exit']}"
    )
    print(json.dumps(r), flush=True)
