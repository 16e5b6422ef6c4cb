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
import json
import multiprocessing
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import live_arena
from bench.live_arena import ArenaBench, Person
from bench.live_clients import Bench, Client, Table
from bench.live_server import (
    DEFAULT_REDIS,
    BenchDatabase,
    Workers,
    close_django,
    configure_django,
    restart_redis,
    server_url_from,
    setup_django,
    site_env,
)

SETTLE_SECONDS = 10
# A table starts up to this many moves into its game (a game lasts some 35 to 40 moves).
STAGGER_MOVES = 30
HANDSHAKES = ("accepted", "failed", "timed_out")
MEMORY_EVERY = 100  # games between two RSS readings in memory mode (--games)
CLIENT_BUSY = 85  # % of one core: above this the clients, not the server, set the pace
LAG_TICK = 0.01  # s: how often the clients' event loop is checked for lateness


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
    # SIGTERM (a test's timeout, CI) unwinds like Ctrl-C, so the finally below runs.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    scratch = Path(tempfile.mkdtemp(prefix="tongits-live-"))
    database = BenchDatabase(opts.postgres, scratch)
    workers = Workers(scratch)
    django_ready = False
    try:
        env = site_env(database.create(), opts.redis, scratch, bots=opts.bots)
        setup_django(env)
        django_ready = True
        say(f"database {database.name if opts.postgres else 'sqlite'} migrated")
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
    finally:
        workers.stop()
        say("workers stopped", file=sys.stderr)  # stdout ends with the JSON line
        if opts.logs:
            Path(opts.logs).mkdir(parents=True, exist_ok=True)
            for worker in workers.items:
                shutil.copy(worker.log, Path(opts.logs) / worker.log.name)
        if django_ready:
            close_django()
        database.drop()
        say("database dropped", file=sys.stderr)
        shutil.rmtree(scratch, ignore_errors=True)


STARTED = time.perf_counter()
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


def say(text: str, *, file=None) -> None:
    print(f"[{time.perf_counter() - STARTED:5.1f} s] {text}", flush=True, file=file)


# --- The run --------------------------------------------------------------------------------


@dataclass
class Reading:
    """The counters the window's figures are differences of."""

    at: float
    worker_cpu_s: float
    own_cpu_s: float
    moves: int


class LiveRun(Bench):
    def __init__(self, opts: argparse.Namespace, workers: Workers, env: dict[str, str]) -> None:
        super().__init__(workers, think=opts.think, seed=opts.seed,
                         open_timeout=opts.open_timeout, herd=opts.herd)  # fmt: skip
        self.opts = opts
        self.by_table = opts.route == "table"
        self.orm_thread = ThreadPoolExecutor(1)  # one thread: one database connection
        # The tables that follow finished games are made in a process of their own: made
        # here (some 30 ms of Python each, a few a second at 100 tables) they held this
        # process's clients from reading their frames, which then counted as the server's
        # latency. (On a site the worker serving "Play again" does that work.)
        spawn = multiprocessing.get_context("spawn")  # not a fork of a process with threads
        self.table_maker = ProcessPoolExecutor(
            1, mp_context=spawn, initializer=configure_django, initargs=(env,)
        )
        self.game_ids: list[int] = []
        self.events: dict[str, Any] = {}

    async def orm(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.orm_thread, fn, *args)

    async def new_game(self, table: Table) -> int | None:
        opts = self.opts
        if self.stopping or (opts.games and self.stats.games_finished >= opts.games):
            return None
        try:
            loop = asyncio.get_running_loop()
            made = loop.run_in_executor(
                self.table_maker, make_game, table.users, opts.bots and opts.bot_level
            )
            game_id = await made
        except Exception as e:  # a refusal (a limit, say) ends the table, counted, not a hang
            self.stats.tables_not_made += 1
            self.stats.note(f"new table refused: {e}")
            return None
        self.game_ids.append(game_id)
        return game_id

    async def run(self) -> dict[str, Any]:
        try:
            return await asyncio.wait_for(self._run(), self.opts.seconds + 300)
        finally:
            self.orm_thread.shutdown(wait=False)
            self.table_maker.shutdown(wait=False, cancel_futures=True)

    async def _run(self) -> dict[str, Any]:
        rss_ready = self.rss()
        # The table maker starts (a new interpreter, Django set up) before anyone plays.
        await asyncio.get_running_loop().run_in_executor(self.table_maker, os.getpid)
        await self.seat_everyone()
        clients = [c for t in self.tables for c in t.clients]
        tasks = [asyncio.create_task(c.play()) for c in clients]
        herd = await self.open_sockets(clients)
        start = await self.reading()
        rss_start = self.rss()
        self.stats.measuring = True
        for table in self.tables:
            table.last_frame = start.at
        watchdog = asyncio.create_task(self.watch(clients))
        lag = asyncio.create_task(self.clients_lag())
        await self.play_window(start)
        end = await self.reading()
        self.stats.measuring = False
        rss_end = self.rss()
        self.stopping = True
        settled = await self.settle(clients)
        await self.close(tasks)
        watchdog.cancel()
        lag.cancel()
        # Nothing may move while the logs are checked (replay --stored reads a game's row
        # and its moves one after the other), so the workers and their clocks stop first.
        self.workers.stop()
        checks = await self.orm(verify, self.stats, self.game_ids)
        say("checking the move logs")
        checks["replay"] = await self.orm(replay_stored)
        figures = self.figures(start, end, clients, herd)
        memory = {"rss_mb_ready": rss_ready, "rss_mb_start": rss_start, "rss_mb_end": rss_end}
        report = {**figures, **self.faults(), **memory, **checks, "settled": settled}
        report["ok"] = not (checks["lost"] or checks["doubled"] or checks["seats_behind"]
                            or checks["replay"]["exit"])  # fmt: skip
        return report

    def faults(self) -> dict[str, Any]:
        """Errors (anything a person would see go wrong) and the other disturbances."""
        s = self.stats
        server_log = self.workers.log_problems()
        kinds = {
            "rejected_moves": s.rejected,
            "no_answer": s.no_answer,
            "stalled_tables": s.stalls,
            "tables_not_made": s.tables_not_made,
            "unsolicited_messages": s.unsolicited,
            "handshakes_failed": s.handshakes["failed"],
            "handshakes_timed_out": s.handshakes["timed_out"],
            "pages_not_200": sum(n for code, n in s.http.items() if code != 200),
            "server_log_errors": len(server_log),
        }
        return {
            "errors": sum(kinds.values()),
            "error_kinds": {k: v for k, v in kinds.items() if v},
            "error_examples": s.samples + server_log[:3],
            "stale_moves": s.stale,
            "socket_closes": sum(s.closes.values()),
            "close_codes": {str(k): v for k, v in sorted(s.closes.items())},
            "reconnects": s.reconnects,
            "resent_moves": s.resent,
            **self.events,
        }

    # --- Phases ------------------------------------------------------------------------

    async def seat_everyone(self) -> None:
        per_table = 1 if self.opts.bots else 3
        people = await self.orm(make_people, self.opts.tables * per_table)
        for index in range(self.opts.tables):
            mine = people[index * per_table : (index + 1) * per_table]
            table = Table(self, index, [u for u, _ in mine], [c for _, c in mine])
            bots = self.opts.bots and self.opts.bot_level
            table.game_id = await self.orm(make_game, table.users, bots)
            if self.opts.stagger and not bots:
                moves = random.Random(self.seed * 7919 + index).randint(0, STAGGER_MOVES)
                self.stats.stagger_moves += await self.orm(advance, table.game_id, moves)
            self.game_ids.append(table.game_id)
            self.tables.append(table)
        started = "in step" if not self.opts.stagger or self.opts.bots else "mid-game"
        say(f"{len(self.tables)} tables ({started}), {len(people)} sockets, think {self.think} s")

    async def open_sockets(self, clients: list[Client]) -> dict[str, Any]:
        """Every client loads its page, then the sockets open: paced, or all at once."""
        await until(lambda: sum(self.stats.http.values()) >= len(clients), 120)
        opened = time.perf_counter()
        self.gate.set()
        # Failed handshakes retry with htmx's growing backoff (up to 64 s): give a herd time.
        limit = self.opts.open_timeout + (120 if self.herd else 30)
        await until(lambda: all(c.first_board_at or c.done for c in clients), limit)
        waits = sorted((c.first_board_at or opened + limit) - opened for c in clients)
        served = sum(1 for c in clients if c.first_board_at)
        say(f"first boards: {served}/{len(clients)} in {max(waits):.2f} s")
        return {
            "sockets_served": served,
            "first_board_p50_ms": ms(pct(waits, 50)),
            "first_board_p99_ms": ms(pct(waits, 99)),
            "all_boards_s": round(max(waits), 2),
            # Every attempt until each socket had its first board (a socket may retry).
            **{f"opening_handshakes_{k}": self.stats.handshakes[k] for k in HANDSHAKES},
        }

    async def play_window(self, start: Reading) -> None:
        opts = self.opts
        deadline = start.at + opts.seconds
        fault_at = start.at + opts.seconds / 2 if opts.kill_worker or opts.restart_redis else None
        checkpoint = MEMORY_EVERY
        while time.perf_counter() < deadline and not self.capped():
            if opts.games and self.stats.games_finished >= checkpoint:
                self.memory_checkpoint(checkpoint)
                checkpoint += MEMORY_EVERY
            if fault_at is not None and time.perf_counter() >= fault_at:
                fault_at = None
                await self.fault()
            await asyncio.sleep(0.1)

    def memory_checkpoint(self, games: int) -> None:
        """In memory mode, every MEMORY_EVERY games: each worker's RSS (and a tracemalloc
        dump, when the workers trace: TONGITS_TRACEMALLOC, tongits_site/memtrace.py)."""
        rss = self.rss()
        self.events.setdefault("rss_mb_by_games", {})[str(games)] = rss
        say(f"{games} games: RSS {rss} MB")

    def capped(self) -> bool:
        opts, stats = self.opts, self.stats
        if opts.moves and stats.window_answered >= opts.moves:
            return True
        return bool(opts.games) and stats.games_finished >= opts.games

    async def fault(self) -> None:
        if self.opts.kill_worker:
            self.workers.kill(0)
            self.events["killed_worker"] = 0
            say("killed worker 0 (SIGKILL)")
        if self.opts.restart_redis:
            down = await asyncio.to_thread(restart_redis, self.opts.redis)
            self.events["redis_down_s"] = round(down, 2)
            say(f"restarted Redis ({down:.2f} s)")

    async def watch(self, clients: list[Client]) -> None:
        """Count a move with no answer after --answer-timeout; a person who still has none
        after three times that reloads the page, as does everyone at a table that went
        quiet while nobody was thinking (a reconnect's snapshot heals a lost update).
        Reloading sooner would pile reconnects onto a server that is only slow."""
        timeout = self.opts.answer_timeout
        while True:
            await asyncio.sleep(1)
            now = time.perf_counter()
            await self.chase_answers(clients, now)
            for table in self.tables:
                # Connected, nobody thinking or waiting for an answer, and no news.
                idle = all(c.ws is not None and c.pending is None and c.acting is None
                           and not c.done for c in table.clients)  # fmt: skip
                if idle and not self.stopping and now - table.last_frame > timeout:
                    self.stats.stalls += 1
                    table.last_frame = now
                    # A lost update (the game moved on unseen) or a move nobody made?
                    at = (await self.orm(current_seqs, [table.game_id])).get(table.game_id)
                    shown = [c.board.seq for c in table.clients]
                    self.stats.note(f"stalled: game {table.game_id} at {at}, seats show {shown}")
                    for client in table.clients:
                        await client.reload()

    async def chase_answers(self, people: list, now: float) -> None:
        """Each of ``people`` (clients or arena persons) whose move has had no answer for
        --answer-timeout is counted once, and reloads its page after three times that."""
        timeout = self.opts.answer_timeout
        for person in people:
            p = person.pending
            if p is not None and not p.warned and now - p.sent_at > timeout:
                p.warned = True
                self.stats.no_answer += 1
            if p is not None and not p.reloaded and now - p.sent_at > 3 * timeout:
                p.reloaded = True
                await person.reload()

    async def clients_lag(self) -> None:
        """How late the clients' own event loop wakes a task that sleeps 10 ms, through the
        window: a frame that arrives meanwhile waits as long, and counts as the server's
        latency. High figures here mean the clients, not the server, made the tail."""
        loop = asyncio.get_running_loop()
        while True:
            asleep = loop.time()
            await asyncio.sleep(LAG_TICK)
            if self.stats.measuring:
                self.stats.lag_s.append(loop.time() - asleep - LAG_TICK)

    async def settle(self, clients: list[Client]) -> bool:
        """Wait for the answers still due and for every seat to show its game's seq."""
        deadline = time.perf_counter() + SETTLE_SECONDS
        previous: dict[int, int] | None = None
        while time.perf_counter() < deadline:
            await asyncio.sleep(0.3)
            if any(c.pending or c.acting for c in clients):
                continue
            games = [t.game_id for t in self.tables if t.game_id is not None]
            seqs = await self.orm(current_seqs, games)
            shown = all(c.done or c.board.seq == seqs.get(c.game_id) for c in clients)
            if shown and seqs == previous:
                return True
            previous = seqs
        return False

    async def close(self, tasks: list[asyncio.Task]) -> None:
        self.closing = True
        for table in self.tables:
            table.release()
            for client in table.clients:
                if client.ws is not None:
                    await client.ws.close()
        await asyncio.wait(tasks, timeout=15)
        for task in tasks:
            task.cancel()

    async def reading(self) -> Reading:
        moves = await self.orm(count_moves)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        cpu = self.workers.cpu_s()
        return Reading(time.perf_counter(), cpu, usage.ru_utime + usage.ru_stime, moves)

    def rss(self) -> list[float]:
        if os.environ.get("TONGITS_TRACEMALLOC", "") not in ("", "0"):
            self.workers.signal(signal.SIGUSR1)  # each worker appends a dump to its file
        self.workers.sample()
        return [round(w.rss_mb, 1) for w in self.workers.items]

    # --- Figures -----------------------------------------------------------------------

    def figures(self, start: Reading, end: Reading, clients: list[Client],
                herd: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
        s, opts = self.stats, self.opts
        seconds = max(1e-9, end.at - start.at)
        moves = end.moves - start.moves
        worker_ms = (end.worker_cpu_s - start.worker_cpu_s) * 1000
        client_pct = 100 * (end.own_cpu_s - start.own_cpu_s) / seconds
        return {
            "mode": f"{opts.bot_level} bots" if opts.bots else "people",
            "database": "postgresql" if opts.postgres else "sqlite",
            "channel_layer": "redis" if opts.redis else "memory",
            "workers": opts.workers,
            "route": opts.route,
            "tables": len(self.tables),
            "sockets": len(clients),
            "think_s": opts.think,
            "seconds": round(seconds, 2),
            "moves": moves,
            "moves_per_s": round(moves / seconds, 1),
            "moves_per_s_per_worker": round(moves / seconds / opts.workers, 1),
            **latency("move_to_mover", s.mover_s),
            **latency("move_to_all_seats", s.all_s),
            "worker_cpu_ms_per_move": round(worker_ms / moves, 2) if moves else None,
            # What one worker could do with a whole core to itself: on a busy machine the
            # CPU per move still holds when the moves per second do not.
            "worker_ceiling_moves_per_s": round(1000 * moves / worker_ms, 1) if worker_ms else None,
            "worker_cpu_pct": round(100 * worker_ms / 1000 / seconds / opts.workers, 1),
            "client_cpu_pct": round(client_pct, 1),
            "client_bottleneck": client_pct > CLIENT_BUSY,
            **latency("client_loop_lag", s.lag_s),
            "frames_per_move": round(s.window_frames / moves, 2) if moves else None,
            "frame_kb": round(s.frame_bytes / max(1, s.frames) / 1024, 2),
            "games_finished": s.games_finished,
            "started_mid_game": opts.stagger and not opts.bots,
            "moves_before_start": s.stagger_moves,
            **herd,
            "load_avg": [round(x, 2) for x in os.getloadavg()],
        }


class ArenaRun(ArenaBench, LiveRun):
    """An arena's crowd (bench/live_arena.py): everyone enters, opens the tournament's page,
    and is paired at its start."""

    async def _run(self) -> dict[str, Any]:
        opts = self.opts
        rss_ready = self.rss()
        people = await self.orm(make_people, opts.people)
        minutes = int((opts.seconds + 180) // 60) + 1  # it runs through the whole window
        self.tournament_id = await self.orm(live_arena.make_arena, [u for u, _ in people], minutes)
        say(f"arena {self.tournament_id}: {len(people)} people entered, think {self.think} s")
        persons = [Person(self, i, cookie) for i, (_, cookie) in enumerate(people)]
        for person in persons:
            person.keeps_open = not opts.arena_pages
        self.herd = True  # nobody paces a crowd's sockets: each opens when its page is loaded
        self.gate.set()
        tasks = [asyncio.create_task(p.play()) for p in persons]
        await until(lambda: self.pages_opened >= len(persons), 300)
        say(f"{self.pages_opened} tournament pages open")
        starts = await self.orm(live_arena.start_arena, self.tournament_id, live_arena.LEAD_SECONDS)
        t0 = time.perf_counter() + (starts - time.time())
        self.start_at = t0
        self.opened.set()
        watchdog = asyncio.create_task(self.watch_arena(persons))
        lag = asyncio.create_task(self.clients_lag())
        timeline = live_arena.Timeline(self.workers, t0)
        sampler = asyncio.create_task(timeline.run())
        await asyncio.sleep(max(0.0, t0 - time.perf_counter()))
        start = await self.reading()
        rss_start = self.rss()
        self.stats.measuring = True
        dealt = asyncio.create_task(self.until_dealt(t0, len(persons) // 3))
        deadline = start.at + opts.seconds
        limit = min(deadline, start.at + 120)
        await until(lambda: all(p.first_game_board_at for p in persons)
                    or time.perf_counter() > limit, 1e9)  # fmt: skip
        boarded = await self.reading()
        firsts = sorted(p.first_game_board_at - t0 for p in persons if p.first_game_board_at)
        say(f"first boards: {len(firsts)}/{len(persons)}, the last {max(firsts or [0]):.2f} s "
            "after the start")  # fmt: skip
        while time.perf_counter() < deadline:
            await asyncio.sleep(0.1)
        end = await self.reading()
        self.stats.measuring = False
        rss_end = self.rss()
        self.stopping = True
        settled = await until(lambda: not any(p.pending or p.acting for p in persons), 10)
        self.closing = True
        for person in persons:
            if person.ws is not None:
                await person.ws.close()
        await asyncio.wait(tasks, timeout=15)
        for task in tasks:
            task.cancel()
        watchdog.cancel()
        lag.cancel()
        sampler.cancel()
        if opts.logs:
            Path(opts.logs).mkdir(parents=True, exist_ok=True)
            timeline.write(Path(opts.logs) / "timeline.csv", self.stats.all_at, self.stats.all_s)
        self.workers.stop()
        games = await self.orm(live_arena.arena_games, self.tournament_id)
        checks = await self.orm(verify, self.stats, [g for g, _ in games])
        say("checking the move logs")
        checks["replay"] = await self.orm(replay_stored)
        figures = self.figures(start, end, persons, {})
        figures.update(
            self.arena_figures(games, starts, t0, firsts, start, boarded, end, len(persons))
        )
        figures["dealt_seen_s"] = dealt.result() if dealt.done() else None
        memory = {"rss_mb_ready": rss_ready, "rss_mb_start": rss_start, "rss_mb_end": rss_end}
        report = {**figures, **self.faults(), **memory, **checks, "settled": settled}
        report["ok"] = not (checks["lost"] or checks["doubled"] or checks["replay"]["exit"])
        return report

    def arena_figures(self, games, starts: float, t0: float, firsts: list[float],
                      start: Reading, boarded: Reading, end: Reading,
                      people: int) -> dict[str, Any]:  # fmt: skip
        first = games[: people // 3]
        dealt = [at - starts for _, at in first if at is not None]
        pairings = [
            found
            for worker in self.workers.items
            if worker.log.exists()
            for found in live_arena.pairing_cpu(worker.log.read_text(errors="replace"))
        ]
        made = sum(n for n, _ in pairings)
        biggest = max(pairings, default=None)
        start_ms = (boarded.worker_cpu_s - start.worker_cpu_s) * 1000
        return {
            "mode": "arena",
            "people": people,
            "tables": len(first),
            "first_tables": len(first),
            "arena_games": len(games),
            "dealt_all_s": round(max(dealt), 2) if dealt else None,
            "first_board_all_s": round(max(firsts), 2) if firsts else None,
            "first_board_p50_s": round(pct(firsts, 50), 2) if firsts else None,
            "people_boarded": len(firsts),
            "pairings": len(pairings),
            "pairing_cpu_ms_per_game": round(sum(n * c for n, c in pairings) / made, 1)
            if made
            else None,
            "first_pairing_cpu_ms_per_game": biggest and biggest[1],
            "start_cpu_ms_per_game": round(start_ms / max(1, len(first)), 1),
            # Where the slow moves are: the all-seats p99 of the moves sent in each 30 s
            # from the start (a move is timed once all its table's people have boards).
            "move_to_all_seats_p99_ms_by_30s": live_arena.by_window(
                self.stats.all_at, self.stats.all_s, t0, 30.0
            ),
            "start_moves": boarded.moves - start.moves,
            # From every first board to the window's end: play, games ending, new pairings.
            "play_moves": (moves := end.moves - boarded.moves),
            "play_cpu_ms_per_move": round(
                (end.worker_cpu_s - boarded.worker_cpu_s) * 1000 / moves, 2
            )
            if moves
            else None,
            # The games dealt in that stretch (each a game's end, a pairing, a new table and
            # its people's way to it), and the workers' CPU of the stretch a game (its moves'
            # included): what --arena-pages changes.
            "play_games": (
                later := sum(
                    1
                    for _, at in games[len(first) :]
                    if at is not None and boarded.at < t0 + (at - starts) <= end.at
                )
            ),
            "play_cpu_ms_per_game": round(
                (end.worker_cpu_s - boarded.worker_cpu_s) * 1000 / later, 1
            )
            if later
            else None,
            "polls": {str(k): v for k, v in sorted(self.polls.items(), key=str)},
            "handshakes_failed": self.stats.handshakes["failed"],
            "handshakes_timed_out": self.stats.handshakes["timed_out"],
        }

    async def until_dealt(self, t0: float, tables: int) -> float:
        """Seconds from the start until the first pairing's games are in the database for
        all to see (committed), looked for every 50 ms."""
        while (await self.orm(live_arena.count_games, self.tournament_id)) < tables:
            await asyncio.sleep(0.05)
        return round(time.perf_counter() - t0, 2)

    async def watch_arena(self, persons: list[Person]) -> None:
        """A move with no answer after --answer-timeout is counted; after three times
        that, its person reloads (a fresh socket and snapshot), as bench.live does."""
        while True:
            await asyncio.sleep(1)
            await self.chase_answers(persons, time.perf_counter())


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


async def until(condition, timeout: float) -> bool:
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


# --- Through the site's own code (the ORM thread) -------------------------------------------


def make_people(count: int, prefix: str = "live") -> list[tuple[int, str]]:
    """Users, each logged in: (user id, the Cookie header a browser would send)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )

    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    people = []
    for index in range(count):
        # No password: hashing one is slow on purpose, and the session is all a socket needs.
        user = get_user_model().objects.create_user(f"{prefix}{index}")
        session = store_class()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        people.append((user.pk, f"{settings.SESSION_COOKIE_NAME}={session.session_key}"))
    return people


def make_game(user_ids: list[int], bots: str | bool) -> int:
    """A dealt table for these people (the first makes it, the others join), or for one
    person and two bots of the level ``bots``."""
    from django.contrib.auth import get_user_model

    from games.play import services

    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=user_ids)}
    people = [users[pk] for pk in user_ids]
    if bots:
        return services.create_table(people[0], others=(bots, bots)).pk
    game = services.create_table(people[0], others=("open", "open"))
    for person in people[1:]:
        services.join_table(game.pk, person)
    return game.pk


def advance(game_id: int, moves: int) -> int:
    """Play up to ``moves`` moves of a dealt game, the way the bench's people play
    (bench/live_frames.choose), through the site's own service, and stop before the stock
    runs low: the moves made.

    Tables that all start at their first move all end their games within a second or
    two of each other, some 35 s later at ``--think 1``, and every socket of the run
    reconnects at once: a herd in the middle of the window, which ``--herd`` measures on
    its own. A site that has been running has its games at every stage, ending at a
    steady rate; tables started at random points of their games are that site.
    """
    from games.engine.rules import apply
    from games.engine.view import seat_view
    from games.models import Game
    from games.play import services

    game = Game.objects.get(pk=game_id)
    state = services.game_state(game)
    users = {s.index: s.user for s in game.seats.select_related("user")}
    made = 0
    while made < moves and state.outcome is None and len(state.stock) - state.stock_pos > 3:
        view = next(v for v in map(lambda s: seat_view(state, s), range(3)) if v.legal)
        move = plain_move(view)
        payload = {k: v for k, v in move.to_dict().items() if k != "seat"}
        services.submit_move(game_id, users[view.seat], payload, expected_seq=game.seq + made)
        state = apply(state, move)
        made += 1
    return made


def plain_move(view):
    """bench/live_frames.choose in the engine's terms: fold, draw, meld three, discard
    the card worth most, fight."""
    from games.engine.cards import points, rank_of
    from games.engine.moves import DISCARD, DRAW, FIGHT, FOLD, MELD

    kinds: dict[str, list] = {}
    for move in view.legal:
        kinds.setdefault(move.type, []).append(move)
    threes = [m for m in kinds.get(MELD, ()) if m.cards.bit_count() == 3]
    for choice in (kinds.get(FOLD), kinds.get(DRAW), threes):
        if choice:
            return choice[0]
    if kinds.get(DISCARD):
        return max(kinds[DISCARD], key=lambda m: (points(m.cards), rank_of(m.card)))
    return (kinds.get(FIGHT) or view.legal)[0]


def count_moves() -> int:
    from games.models import Move

    return Move.objects.count()


def current_seqs(game_ids: list[int]) -> dict[int, int]:
    from games.models import Game

    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "seq"))


def verify(stats, game_ids: list[int]) -> dict[str, Any]:
    """Every answered move is logged exactly once, nothing is logged that no client sent,
    and every seat's last board showed its game's final seq."""
    from games.models import Game, Move

    rows = Move.objects.filter(game_id__in=game_ids, client_move_id__isnull=False)
    logged = Counter(rows.values_list("game_id", "client_move_id"))
    seqs = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "seq"))
    unanswered = stats.sent_ids - stats.answered_ids
    behind = [
        f"game {g} seat {s}: saw {seen}, game at {seqs.get(g)}"
        for (g, s), seen in stats.last_seqs.items()
        if seen != seqs.get(g)
    ]
    kinds = Counter(
        Move.objects.filter(game_id__in=game_ids).values_list("payload__type", flat=True)
    )
    ends = Counter(
        Game.objects.filter(pk__in=game_ids).exclude(end="").values_list("end", flat=True)
    )
    lost = [key for key in stats.answered_ids if logged[key] == 0]
    lost_examples = []
    for game_id, client_move_id in sorted(lost)[:5]:
        seq, action, seen = stats.answered_how.get((game_id, client_move_id), (-1, "?", -1))
        at = Move.objects.filter(game_id=game_id, seq__in=[seq + 1, seq + 2]).order_by("seq")
        logged_there = [
            f"{m.seq}: seat {m.seat} {m.payload.get('type')}" + (" (server)" if m.by_server else "")
            for m in at
        ]
        lost_examples.append(
            f"game {game_id} (at seq {seqs.get(game_id)}): {action} sent at seq {seq}, "
            f"answered by a board at {seen}; logged {logged_there}"
        )
    return {
        "lost_examples": lost_examples,
        "move_kinds": dict(kinds.most_common()),
        "game_ends": dict(ends.most_common()),
        "lost": sum(1 for key in stats.answered_ids if logged[key] == 0),
        "doubled": sum(1 for n in logged.values() if n > 1),
        "unknown_logged": sum(1 for key in logged if key not in stats.sent_ids),
        "unanswered": len(unanswered),
        "unanswered_but_logged": sum(1 for key in unanswered if logged[key]),
        "seats_behind": len(behind),
        "seats_behind_examples": behind[:3],
        "games": len(game_ids),
    }


def replay_stored() -> dict[str, Any]:
    """``manage.py replay --stored`` on the bench database: every stored game replays."""
    import io

    from django.core.management import call_command

    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("replay", stored=True, stdout=out, stderr=err)
        status = 0
    except SystemExit as e:  # the command's way of giving an exit status
        status = e.code if isinstance(e.code, int) else 1
    lines = out.getvalue().strip().splitlines() or ["{}"]
    try:
        summary = json.loads(lines[-1])
    except ValueError:
        summary = {"output": lines[-1][:200]}
    return {"exit": status, **summary, "problems": [line[:300] for line in lines[:-1][:3]]}


# --- The report -----------------------------------------------------------------------------


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
        f"socket closes {r['socket_closes']}, reconnects {r['reconnects']}"
    )
    for example in r["error_examples"]:
        say(f"  {example}")
    say(
        f"lost {r['lost']}, doubled {r['doubled']}, unanswered {r['unanswered']}, "
        f"seats behind {r['seats_behind']}, replay --stored exit {r['replay']['exit']}"
    )
    print(json.dumps(r), flush=True)


if __name__ == "__main__":
    sys.exit(main())
