"""``python -m bench.live --arena``'s run (``ArenaRun``): a crowd enters one arena, opens
its page and is paired at its start, then plays; its figures from the start on. The
people and the arena's own pieces are in bench/live_arena.py; the window, the checks and
the figures it shares with the plain run come from bench/live_run.py."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bench import live_arena, live_arena_check
from bench.live_arena import ArenaBench, Person
from bench.live_figures import pct, say
from bench.live_run import LiveRun, Reading, until
from bench.live_site import make_people, replay_stored, verify


class ArenaRun(ArenaBench, LiveRun):
    """An arena's crowd (bench/live_arena.py): everyone enters, opens the tournament's page,
    and is paired at its start."""

    async def _run(self) -> dict[str, Any]:
        opts = self.opts
        rss_ready = self.rss()
        people = await self.orm(make_people, opts.people)
        minutes = int((opts.seconds + 180) // 60) + 1  # it runs through the whole window
        self.join_pages = opts.join_pages
        entered = [] if opts.join_pages else [u for u, _ in people]
        self.tournament_id = await self.orm(live_arena.make_arena, entered, minutes)
        how = "join through its page" if opts.join_pages else "entered"
        say(f"arena {self.tournament_id}: {len(people)} people {how}, think {self.think} s")
        persons = [Person(self, i, cookie) for i, (_, cookie) in enumerate(people)]
        for person, (user_id, _) in zip(persons, people, strict=True):
            person.keeps_open = not opts.arena_pages
            person.user_id = user_id
        self.herd = True  # nobody paces a crowd's sockets: each opens when its page is loaded
        self.gate.set()
        arriving = await self.reading()
        tasks = [asyncio.create_task(p.play()) for p in persons]
        await until(lambda: self.pages_opened >= len(persons), 300)
        arrived = await self.reading()
        # Each person's arrival: the page (with --join-pages, Join and the page after it),
        # and the polls until everyone has the page.
        arrival_ms = (arrived.worker_cpu_s - arriving.worker_cpu_s) * 1000 / len(persons)
        say(f"{self.pages_opened} tournament pages open ({arrival_ms:.1f} ms of worker CPU a "
            f"person, {arrived.at - arriving.at:.1f} s)")  # fmt: skip
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
        say("checking the pairing, and the standings each worker shows")
        arena_checks = await live_arena_check.after_run(self, persons)
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
        figures["joined_through_pages"] = opts.join_pages
        figures["arrival_cpu_ms_per_person"] = round(arrival_ms, 2)
        figures["arrival_s"] = round(arrived.at - arriving.at, 2)
        memory = {"rss_mb_ready": rss_ready, "rss_mb_start": rss_start, "rss_mb_end": rss_end}
        report = {**figures, **self.faults(), **memory, **checks, "settled": settled}
        report.update(arena_checks)
        report["ok"] = not (checks["lost"] or checks["doubled"] or checks["replay"]["exit"])
        report["ok"] = report["ok"] and arena_checks["arena_ok"]
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
