"""bench.live's run of ordinary tables (``LiveRun``): everyone seated, the sockets opened,
a measured window of play, then the tables settled and the logs checked. bench/live.py
starts the workers and the database and picks this run or the arena's
(bench/live_arena_run.py, which builds on this one)."""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import resource
import signal
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from bench.live_clients import Bench, Client, Table
from bench.live_figures import latency, ms, pct, say
from bench.live_pages import AgainTable
from bench.live_server import Workers, configure_django, restart_redis
from bench.live_site import (
    advance,
    count_moves,
    current_seqs,
    make_game,
    make_people,
    replay_stored,
    verify,
)

SETTLE_SECONDS = 10
# A table starts up to this many moves into its game (a game lasts some 35 to 40 moves).
STAGGER_MOVES = 30
HANDSHAKES = ("accepted", "failed", "timed_out", "busy")
MEMORY_EVERY = 100  # games between two RSS readings in memory mode (--games)
CLIENT_BUSY = 85  # % of one core: above this the clients, not the server, set the pace
LAG_TICK = 0.01  # s: how often the clients' event loop is checked for lateness


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
            # Refused as busy (503) and tried again later: a degraded answer, not an error.
            "handshakes_busy": s.handshakes["busy"],
            "resent_moves": s.resent,
            **self.events,
        }

    # --- Phases ------------------------------------------------------------------------

    async def seat_everyone(self) -> None:
        per_table = 1 if self.opts.bots else 3
        people = await self.orm(make_people, self.opts.tables * per_table)
        for index in range(self.opts.tables):
            mine = people[index * per_table : (index + 1) * per_table]
            kind = AgainTable if self.opts.play_again else Table
            table = kind(self, index, [u for u, _ in mine], [c for _, c in mine])
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
            "mode": (f"{opts.bot_level} bots" if opts.bots else "people")
            + (
                ""
                if not opts.play_again
                else ", Play again posted, page and socket"
                if opts.again_pages
                else ", Play again over the socket"
            ),
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


async def until(condition, timeout: float) -> bool:
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True
