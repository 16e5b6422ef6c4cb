"""``python -m bench.live``: the site under live play, measured from the outside.

It makes a database of its own (a fresh PostgreSQL database, or a SQLite file with
``--sqlite``), starts ``--workers`` Daphne processes on 127.0.0.1, makes users and tables
through the site's own services, and plays every person's seat through a real WebSocket
client that acts only on what its frames show (bench/live_clients.py). It relies on what a
browser relies on: the table's page, its socket URL and the HTML of the frames.

After a warm-up (every socket has its first board) it measures for ``--seconds``: moves
per second, the time from a move sent to the mover's new board and to every seat's, the
workers' CPU per move (from /proc, every frame included) and memory, and the client
process's own CPU (on a small machine the clients compete with the workers). Then it
stops sending, lets the tables settle, and checks that no answered move was lost or
doubled (against the Move rows and ``manage.py replay --stored``) and that every seat's
last data-seq is its game's seq. It always stops its workers and drops its database.

The last line printed is one JSON object. Faults: ``--herd`` (every socket connects at
once), ``--kill-worker`` (SIGKILL one worker halfway), ``--restart-redis`` (stops the
machine's Redis halfway: never on a shared machine), and ``--games N`` for memory.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys

from bench import live_arena
from bench.live_arena_run import ArenaRun
from bench.live_figures import print_report, say
from bench.live_run import LiveRun
from bench.live_server import DEFAULT_REDIS, bench_site, server_url_from


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.live", description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=10, help="tables played at once (10)")
    p.add_argument("--workers", type=int, help="Daphne workers (2; 1 without Redis)")
    p.add_argument("--think", type=float, help="a person's pause, s (1; 3 with --arena)")
    p.add_argument(
        "--arena", action="store_true",
        help="a crowd arrives at one arena tournament and is paired at its start "
        "(bench/live_arena.py); --people sets how many",
    )  # fmt: skip
    p.add_argument("--people", type=int, default=999, help="people in --arena (999)")
    p.add_argument(
        "--arena-pages",
        action="store_true",
        help="with --arena: after each game people go back to the tournament's page and load "
        "their next table's page, as before the next game came over the table's socket",
    )
    p.add_argument(
        "--join-pages", action="store_true",
        help="with --arena: nobody is entered beforehand; each person loads the page and "
        "posts Join from it with its CSRF token (bench/live_pages.py)",
    )  # fmt: skip
    p.add_argument(
        "--play-again", action="store_true",
        help="plain tables: after each game its people press Play again, sent over the "
        "table's socket as the page does (bench/live_pages.py)",
    )  # fmt: skip
    p.add_argument(
        "--again-pages", action="store_true",
        help="with --play-again: Play again posted, then the new table's page and a new "
        "socket (as before it went over the table's open socket)",
    )  # fmt: skip
    p.add_argument(
        "--profile-pairing", action="store_true",
        help="with --arena: profile one pairing of --people in this process, and stop",
    )  # fmt: skip
    p.add_argument("--bots", action="store_true", help="one person and two unpaused bots")
    p.add_argument(
        "--bot-level", choices=("easy", "normal", "hard"), default="normal",
        help="the bots' level with --bots (normal)",
    )  # fmt: skip
    p.add_argument("--seconds", type=float, help="measured time (30; 1800 with --games)")
    p.add_argument("--moves", type=int, default=0, help="stop after the people made N moves")
    p.add_argument("--games", type=int, default=0, help="memory mode: play N games")
    p.add_argument("--herd", action="store_true", help="every socket connects at once")
    p.add_argument(
        "--route", choices=("table", "round-robin"), default="table",
        help="how the proxy spreads sockets over the workers: all of a game's to one worker "
        "(the README's production setup, the default), or each to the next",
    )  # fmt: skip
    p.add_argument(
        "--in-step", dest="stagger", action="store_false",
        help="every table starts at its game's first move (by default each starts at a "
        "random point of its game, so games end at a steady rate, not all at once)",
    )  # fmt: skip
    p.add_argument("--kill-worker", action="store_true", help="SIGKILL worker 0 halfway")
    p.add_argument(
        "--restart-redis", action="store_true",
        help="restart the machine's Redis halfway (affects everyone using it)",
    )  # fmt: skip
    p.add_argument("--sqlite", action="store_true", help="a SQLite file, not PostgreSQL")
    p.add_argument("--postgres", help="server to make the bench database on")
    p.add_argument("--redis", help=f"channel layer Redis ({DEFAULT_REDIS})")
    p.add_argument("--no-redis", action="store_true", help="in-memory layer, one worker")
    p.add_argument("--logs", help="copy the workers' logs into this folder")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--answer-timeout", type=float, default=10.0)
    p.add_argument("--open-timeout", type=float, default=10.0)
    opts = p.parse_args(argv)
    redis = opts.redis or os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS)
    opts.redis = "" if opts.no_redis else redis
    opts.workers = opts.workers or (2 if opts.redis else 1)
    opts.seconds = opts.seconds or (1800.0 if opts.games else 60.0 if opts.arena else 30.0)
    opts.think = opts.think if opts.think is not None else (3.0 if opts.arena else 1.0)
    if not opts.redis and opts.workers > 1:
        p.error("several workers need Redis (the in-memory layer is one process's)")
    if opts.kill_worker and opts.workers < 2:
        p.error("--kill-worker needs at least 2 workers")
    if opts.restart_redis and not opts.redis:
        p.error("--restart-redis needs Redis")
    opts.postgres = (
        ""
        if opts.sqlite
        else opts.postgres
        or server_url_from(os.environ.get("BENCH_POSTGRES_URL") or os.environ.get("DATABASE_URL"))
    )
    return opts


def main(argv: list[str] | None = None) -> int:
    opts = parse_args(argv)
    with bench_site("live", opts.postgres, opts.redis, bots=opts.bots, logs=opts.logs) as site:
        env, workers = site.env, site.workers
        if opts.play_again or opts.join_pages:  # each person from an address of their own
            env["TONGITS_TRUSTED_PROXIES"] = "1"
        site.setup_django()
        say(f"database {site.database.name if opts.postgres else 'sqlite'} migrated")
        workers.start(opts.workers, env)
        say(f"{opts.workers} worker(s) on ports {[w.port for w in workers.items]}")
        quiet_collector()
        if opts.arena and opts.profile_pairing:
            print(live_arena.profile_pairing(opts.people), flush=True)
            return 0
        run = ArenaRun(opts, workers, env) if opts.arena else LiveRun(opts, workers, env)
        report = asyncio.run(run.run())
        print_report(report)
        return 0 if report["ok"] else 1


# How often this process collects its young objects (Python's default is 700): as
# rarely as the workers do (TONGITS_GC_THRESHOLD).
CLIENTS_GC_THRESHOLD = 10_000


def quiet_collector() -> None:
    """Keep this process's garbage collector from pausing every client at once: one such
    pause (140 ms, a full collection, seen with gc.callbacks) delayed every frame in
    flight and was counted as the server's latency. What is loaded by now (Django, the
    site) is kept out of the collector's sight, and young objects are collected rarely."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(CLIENTS_GC_THRESHOLD, *gc.get_threshold()[1:])


if __name__ == "__main__":
    sys.exit(main())
