"""``python -m bench.live --arena``: a crowd arriving at one arena tournament, measured from
the outside (bench/live.py starts the workers and the database; bench/live_arena_run.py is
the run; here are its people and the arena's own pieces).

``--people N`` (999) accounts enter one rated arena before it starts and open its page, as
a browser does (with ``--join-pages`` each joins from the page, which sends them to the
arena's waiting table: they load it, open its socket and wait there, and the first game
comes over that socket, games/sockets/arena.py; the table's arena bar is asked for a
second after the page's load and 5 to 60 s after each game comes, as the page asks).
When it starts, the workers' server clocks pair them all (three at a
time, in one pairing); each person's page learns of their table from its live part
(polled as the page says, every 10 s before the start and 2 s while waiting to be paired,
from a random moment, as htmx does, and once more 0.3 to 2.3 s after the start), loads
the table's page, opens its socket and plays, thinking ``--think`` x 1/3 to 5/3 s a
move (1 to 5 s at the default 3, as the issue's crowd does). After each game the person
stays at the table, whose socket brings the next game (games/sockets/table.py); with
``--arena-pages`` (or when none comes within ``NEXT_WAIT``) they go back to the
tournament's page and wait to be paired again, as the table's "Back to the tournament"
does. The run measures, from the start:

- the time until every table of the first pairing was dealt (its games' deal times, from
  the database) and until every person had their first board (seen by the clients);
- the pairing's own CPU a game (each pairing logs its thread's CPU time), and the workers'
  whole CPU from the start until every first board, divided by the tables: the pairing,
  the polls, three table pages, three sockets and three first boards a game;
- for ``--seconds`` from the start: moves, the move-to-mover and move-to-every-seat times
  (only moves made while all of a table's people had their boards), the workers' CPU a
  move, failed or timed-out socket handshakes;
- then, as bench.live does, that no answered move was lost or doubled, and that every
  stored game replays.

``--profile-pairing`` instead profiles one pairing of ``--people`` waiting people in this
process (cProfile, the standard library's) and prints where its time goes.

Size: ~540 lines: a person of the arena's whole way (the tournament's page, the waiting
table and its socket, the polls, each table) and the arena's own figures, read together.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import html
import io
import json
import os
import pstats
import random
import re
import time
from typing import Any

from websockets.exceptions import ConnectionClosed

from bench.live_clients import Bench, Client, Table
from bench.live_pages import Browser, join_through_the_page
from bench.live_site import make_people

POLL_RULE = re.compile(r'id="tournament-live"[^>]*hx-trigger="every (\d+)s(, tongits:start)?"')
LEAD_SECONDS = 3.0  # from the moment every page is open to the start
LIVE_URL = re.compile(r'id="tournament-live" hx-get="([^"]+)"')
TABLE_URL = re.compile(r"/games/(\d+)/")
NEXT_GAME = re.compile(r'<div id="next-game" hidden data-game="(\d+)"')
NEXT_WAIT = 40.0  # seconds at a finished table before going back (bots fill in after 20)
WAITING_SOCKET = re.compile(r'ws-connect="(/ws/arena/\d+/)"')
ARENA_BAR = re.compile(r'id="arena-bar"[^>]*hx-get="([^"]+)" hx-trigger="load delay:(\d+)s"')
BAR_AFTER_GAME = (5.0, 60.0)  # the bar asked for again this long after a game comes (table.js)
WAITING_RELOAD = (20.0, 30.0)  # a waiting table whose socket is down loads again (table.js)
PAIRING_LINE = re.compile(r"Tournament \d+: (\d+) games made \(([\d.]+) ms CPU a game\)")


def poll_rule(body: str) -> tuple[float, bool]:
    """How often the tournament page's live part asks (games/tournaments/views.py), and
    whether it asks once more at the start (static/js/tournament.js)."""
    found = POLL_RULE.search(body)
    return (float(found.group(1)), bool(found.group(2))) if found else (2.0, False)


# --- Tables that form as the arena pairs ----------------------------------------------------


class ArenaTable(Table):
    """One game's sockets: its people arrive one by one, from their own polls."""

    def __init__(self, bench: Bench, game_id: int, people: int) -> None:
        super().__init__(bench, game_id, [], [])
        self.game_id = game_id
        self.people = people  # seats held by people (the rest are bots)

    def join(self, client: Client) -> None:
        client.index = len(self.clients)
        self.clients.append(client)

    @property
    def ready(self) -> bool:
        return len(self.clients) == self.people and all(c.first_board_at for c in self.clients)

    def expect(self, seq: int, sent_at: float, measured: bool) -> None:
        # A move made before every person of the table has a board would count a page load
        # and a handshake as the move's way to a seat: such moves are not timed.
        super().expect(seq, sent_at, measured and self.ready)

    def saw(self, client: Client, seq: int, now: float) -> None:
        self.last_frame = now
        for target in [t for t in self.expected if t <= seq]:
            expect = self.expected[target]
            expect.seen.add(client.index)
            if len(expect.seen) == self.people:
                del self.expected[target]
                if expect.measured:
                    self.bench.stats.all_s.append(now - expect.sent_at)
                    self.bench.stats.all_at.append(expect.sent_at)


class Person(Client):
    """A person in the arena: the tournament's page, then each table they are sent to."""

    def __init__(self, bench: ArenaBench, number: int, cookie: str) -> None:
        self.number = number
        super().__init__(bench, ArenaTable(bench, 0, 0), 0, cookie)
        self.browser = Browser(cookie, number)  # its cookies grow as the site sets them
        self.joined = False
        self.rng = random.Random(bench.seed * 100_003 + number)
        self.first_game_board_at: float | None = None
        self.games = 0
        self.user_id = 0  # set by the run: whose seat this person holds
        self.boards: dict[int, float] = {}  # game -> when its first board came (Unix time)

    keeps_open = True  # at a game's end the table's socket waits for the next game

    async def play(self) -> None:
        bench: ArenaBench = self.bench  # type: ignore[assignment]
        self.bar_url = ""
        self.bar: set[asyncio.Task] = set()
        try:
            await self.play_all(bench)
        finally:
            for task in self.bar:
                task.cancel()

    async def play_all(self, bench: ArenaBench) -> None:
        if bench.join_pages:  # the waiting table's socket brings the first game
            game_id, ws, frame = await self.arrive()
        else:
            game_id, ws, frame = await self.wait_for_game(), None, ""
        while game_id is not None and not bench.closing:
            if ws is not None:  # the page's tongits:nextgame: the bar again, a while on
                self.ask_bar(self.rng.uniform(*BAR_AFTER_GAME))
            self.table = await bench.table_for(game_id)
            self.table.join(self)
            self.first_board_at = None
            await self.play_game(game_id, first=ws is None, ws=ws, frame=frame)
            self.games += 1
            if not self.done:
                return
            ws, self.kept = self.kept, None
            game_id, frame = await self.next_on(ws) if ws is not None else (None, "")
            if game_id is None:  # none came: back to the tournament's page, as a person would
                ws = None
                game_id = await self.wait_for_game()

    async def next_on(self, ws) -> tuple[int | None, str]:
        """Stay at the table, as the page says: the next game comes over its socket
        (games/sockets/table.py), its first frame naming it. None if none comes within
        ``NEXT_WAIT`` (a lost event, the tournament's end), the socket then closed."""
        bench: ArenaBench = self.bench  # type: ignore[assignment]
        waited = 0.0
        try:
            while waited < NEXT_WAIT and not bench.closing:
                try:
                    text = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    waited += 1.0
                    continue
                text = text if isinstance(text, str) else text.decode()
                if found := NEXT_GAME.search(text):
                    bench.polls["over the socket"] = bench.polls.get("over the socket", 0) + 1
                    return int(found.group(1)), text
        except ConnectionClosed:
            return None, ""
        await ws.close()
        return None, ""

    async def arrive(self) -> tuple[int | None, Any, str]:
        """Join from the tournament's page, which sends the person to the arena's waiting
        table: its page, its socket opened (and asked for the table's talk, as the page
        does at every open), and the first game awaited on it. Without the socket (its
        handshake failed, or it closed), the page is loaded again after a while, as
        static/js/table.js does, and sends its person to their table once paired."""
        bench: ArenaBench = self.bench  # type: ignore[assignment]
        self.joined = True
        page = f"/tournaments/{bench.tournament_id}/"
        status, body = await join_through_the_page(self, page)
        found = WAITING_SOCKET.search(body) if status == 200 else None
        counted = False
        if found is None:
            bench.polls[f"waiting table {status}"] = (
                bench.polls.get(f"waiting table {status}", 0) + 1
            )
            bench.pages_opened += 1
            return None, None, ""
        if bar := ARENA_BAR.search(body):
            self.bar_url = html.unescape(bar.group(1))
            self.ask_bar(int(bar.group(2)))
        talk = 'id="chat-log"' in body
        while not bench.closing:
            ws = await self.open_waiting(found.group(1), talk)
            if not counted:
                counted = True
                bench.pages_opened += 1
            if ws is not None:
                game_id, frame = await self.first_game_on(ws)
                if game_id is not None:
                    return game_id, ws, frame
            await asyncio.sleep(self.rng.uniform(*WAITING_RELOAD))
            status, headers, body = await self.get(f"{page}table/")
            bench.polls[f"waiting table again {status}"] = (
                bench.polls.get(f"waiting table again {status}", 0) + 1
            )
            went = TABLE_URL.search(headers.get("location", "")) if status == 302 else None
            if went is not None:
                return int(went.group(1)), None, ""
            if status != 200:
                return None, None, ""
        return None, None, ""

    async def open_waiting(self, path: str, talk: bool):
        bench: ArenaBench = self.bench  # type: ignore[assignment]
        worker = bench.workers.next_alive()  # not one game's: routed as pages are
        ws = await self.handshake(worker.port, path)
        if ws is None:
            return None
        self.url = f"http://127.0.0.1:{worker.port}/games/0/"
        if talk:
            await ws.send(json.dumps({"chat_history": "1"}))
        return ws

    async def first_game_on(self, ws) -> tuple[int | None, str]:
        """The waiting table's socket until its frame naming the first game."""
        bench: ArenaBench = self.bench  # type: ignore[assignment]
        try:
            while not bench.closing:
                text = await ws.recv()
                text = text if isinstance(text, str) else text.decode()
                if found := NEXT_GAME.search(text):
                    bench.polls["first game over the socket"] = (
                        bench.polls.get("first game over the socket", 0) + 1
                    )
                    return int(found.group(1)), text
        except ConnectionClosed:
            bench.stats.closes[ws.close_code or 1006] += 1
        return None, ""

    def ask_bar(self, delay: float) -> None:
        """The table's arena bar (its name, clock, rank and points) asked for in ``delay``
        seconds, as the page asks for it (static/js/table.js)."""
        if self.bar_url:
            task = asyncio.create_task(self.get_bar(delay))
            self.bar.add(task)
            task.add_done_callback(self.bar.discard)

    async def get_bar(self, delay: float) -> None:
        bench: ArenaBench = self.bench  # type: ignore[assignment]
        await asyncio.sleep(delay)
        if not bench.closing:
            status, _headers, _body = await self.get(self.bar_url, htmx=True)
            key = f"arena bar {status}"
            bench.polls[key] = bench.polls.get(key, 0) + 1

    def on_frame(self, text: str) -> None:
        if self.first_board_at is None:  # this frame is the game's first board
            self.boards.setdefault(self.table.game_id, time.time())
            if self.first_game_board_at is None:
                self.first_game_board_at = time.perf_counter()
        super().on_frame(text)

    async def wait_for_game(self) -> int | None:
        """The tournament's page, then its live part every 2 s until it sends us to a table
        (htmx's HX-Redirect)."""
        bench: ArenaBench = self.bench  # type: ignore[assignment]
        page = f"/tournaments/{bench.tournament_id}/"
        if bench.join_pages and not self.joined:  # not entered: Join from the page
            self.joined = True
            status, body = await join_through_the_page(self, page)
        else:
            async with bench.page_slots:
                status, _headers, body = await self.get(page)
        bench.pages_opened += 1
        found = LIVE_URL.search(body)
        if status != 200 or found is None:
            bench.polls[f"page {status}"] = bench.polls.get(f"page {status}", 0) + 1
            return None  # over (no live part), or refused
        poll = html.unescape(found.group(1))
        every, at_start = poll_rule(body)
        await bench.opened.wait()
        # htmx's timer runs from the page's load; the page asks once more at the start.
        due = time.perf_counter() + self.rng.uniform(0, every)
        while not bench.closing and not bench.stopping:
            if at_start:
                due = min(due, bench.start_at + self.rng.uniform(0.3, 2.3))
                at_start = False
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            status, headers, body = await self.get(poll, htmx=True)
            redirect = headers.get("hx-redirect")
            if redirect and (table := TABLE_URL.search(redirect)):
                bench.polls["to a table"] = bench.polls.get("to a table", 0) + 1
                return int(table.group(1))
            bench.polls[status] = bench.polls.get(status, 0) + 1
            if status == 200 and (found := LIVE_URL.search(body)):
                poll = html.unescape(found.group(1))
                every, at_start = poll_rule(body)
            due = time.perf_counter() + every
        return None

    async def get(self, path: str, *, htmx: bool = False) -> tuple[int, dict[str, str], str]:
        worker = self.bench.workers.next_alive()
        headers = {"HX-Request": "true"} if htmx else {}
        return await self.browser.request(worker.port, "GET", path, headers=headers)

    def socket_cookie(self) -> str:
        return self.browser.cookie_header()


class ArenaBench(Bench):
    """What the people share beyond bench.live's: the arena, its tables, the polls' answers.
    A mixin: bench/live_run.py's run gives ``orm`` (its ORM thread)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tournament_id = 0
        self.join_pages = False  # --join-pages: people Join from the page (bench/live_pages.py)
        self.pages_opened = 0
        self.opened = asyncio.Event()  # every person has the tournament's page
        self.start_at = 0.0  # the tournament's start, on this process's perf_counter
        self.arena_tables: dict[int, asyncio.Future] = {}
        self.polls: dict[int | str, int] = {}
        # Pages in flight at once: a crowd's browsers are not paced by one another, but this
        # one process (and its share of the cores) is all of them.
        self.page_slots = asyncio.Semaphore(64)
        # People think 1 to 5 s a move at the default 3 s (before 4 December 2026: 1.5 to
        # 4.5 s, the plain bench's 0.5 to 1.5 times --think).
        self.think_range = (1 / 3, 5 / 3)

    async def table_for(self, game_id: int) -> ArenaTable:
        """The game's table, made by the first of its people to arrive."""
        future = self.arena_tables.get(game_id)
        if future is None:
            future = self.arena_tables[game_id] = asyncio.get_running_loop().create_future()
            people = await self.orm(game_people, game_id)
            future.set_result(ArenaTable(self, game_id, people))
        return await future


# --- Through the site's own code (the bench's ORM thread) -----------------------------------


def make_arena(user_ids: list[int], minutes: int) -> int:
    """A public rated arena, starting a day from now, that these people have entered."""
    from datetime import timedelta

    from django.utils import timezone

    from games.tournaments.models import Entry, Tournament

    now = timezone.now()
    t = Tournament.objects.create(
        name="Bench arena", starts_at=now + timedelta(days=1), minutes=minutes, rated=True,
        turn_seconds=60, bot_kind="normal", public=True,
    )  # fmt: skip
    Entry.objects.bulk_create(
        Entry(tournament=t, user_id=u, waiting_since=now) for u in user_ids
    )  # fmt: skip
    return t.pk


def start_arena(tournament_id: int, lead: float) -> float:
    """Move the arena's start to ``lead`` seconds from now: the start, as a Unix time."""
    from datetime import timedelta

    from django.db.models import F
    from django.utils import timezone

    from games.tournaments.models import Tournament

    starts_at = timezone.now() + timedelta(seconds=lead)
    # The clock looks at it at its new start (``due_at``), as after staff's edit.
    Tournament.objects.filter(pk=tournament_id).update(
        starts_at=starts_at, due_at=starts_at, rev=F("rev") + 1
    )
    return starts_at.timestamp()


def game_people(game_id: int) -> int:
    from games.models import Seat

    return Seat.objects.filter(game_id=game_id, user__isnull=False).count()


def count_games(tournament_id: int) -> int:
    from games.tournaments.models import TournamentGame

    return TournamentGame.objects.filter(tournament_id=tournament_id).count()


def arena_games(tournament_id: int) -> list[tuple[int, float | None]]:
    """The arena's games, oldest first: (id, when dealt as a Unix time)."""
    from games.tournaments.models import TournamentGame

    rows = TournamentGame.objects.filter(tournament_id=tournament_id).order_by("game_id")
    return [
        (game_id, started.timestamp() if started else None)
        for game_id, started in rows.values_list("game_id", "game__started_at")
    ]


def profile_pairing(people: int) -> str:
    """One pairing of ``people`` waiting people, under cProfile: its top functions."""
    from datetime import timedelta

    from django.utils import timezone

    from games.tournaments import services

    users = [u for u, _cookie in make_people(people, prefix="profile")]
    # The pairing reads everyone's rating: a crowd's, not a newcomer's, would be more rows.
    tournament_id = make_arena(users, 30)
    from games.tournaments.models import Tournament

    # Started for this pairing only: the workers' clocks, at the real time, see it upcoming.
    at = Tournament.objects.get(pk=tournament_id).starts_at + timedelta(seconds=1)
    profile = cProfile.Profile()
    wall, cpu = time.perf_counter(), time.process_time()
    profile.enable()
    made = services.pair(tournament_id, at)
    profile.disable()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out).sort_stats("cumulative")
    stats.print_stats(30)
    head = (
        f"pairing {people} people: {len(made)} games in {wall * 1000:.0f} ms "
        f"({cpu * 1000 / max(1, len(made)):.1f} ms CPU a game, this process, profiled; "
        f"timezone {timezone.get_current_timezone_name()})\n"
    )
    return head + out.getvalue()


def pairing_cpu(log_text: str) -> list[tuple[int, float]]:
    """(games, CPU ms a game) of every pairing a worker's log tells of."""
    return [(int(n), float(ms)) for n, ms in PAIRING_LINE.findall(log_text)]


def by_window(sent: list[float], took: list[float], t0: float, width: float) -> list[float]:
    """The p99 in ms of the moves sent in each ``width`` seconds from ``t0``."""
    windows: dict[int, list[float]] = {}
    for at, seconds in zip(sent, took, strict=True):
        windows.setdefault(int(max(0.0, at - t0) // width), []).append(seconds)
    out = []
    for i in range(max(windows, default=-1) + 1):
        ordered = sorted(windows.get(i, []))
        out.append(round(1000 * ordered[int(0.99 * (len(ordered) - 1))], 1) if ordered else 0.0)
    return out


class Timeline:
    """Each second from the start: the moves sent in it (how many, their all-seats p50 and
    p99), and the CPU of the workers, of this process and of the whole machine, in % of one
    core (``--logs``' timeline.csv): what the slow seconds are made of."""

    def __init__(self, workers, t0: float) -> None:
        self.workers, self.t0 = workers, t0
        self.rows: list[tuple[float, float, float, int, int]] = []

    @staticmethod
    def _machine() -> tuple[int, int]:
        """(busy, all) jiffies of every core together (/proc/stat's first line)."""
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
        return sum(fields) - fields[3] - fields[4], sum(fields)  # less idle and iowait

    async def run(self) -> None:
        while True:
            self.workers.sample()
            at = time.perf_counter() - self.t0
            self.rows.append((at, self.workers.cpu_s(), time.process_time(), *self._machine()))
            await asyncio.sleep(1.0)

    def write(self, path, sent: list[float], took: list[float]) -> None:
        by_second: dict[int, list[float]] = {}
        for at, seconds in zip(sent, took, strict=True):
            by_second.setdefault(int(at - self.t0), []).append(seconds)
        cores = os.cpu_count() or 1
        lines = ["second,moves,p50_ms,p99_ms,workers_cpu_pct,bench_cpu_pct,machine_cpu_pct"]
        for before, after in zip(self.rows, self.rows[1:], strict=False):
            took_s = sorted(by_second.get(int(before[0]), []))
            p50 = 1000 * took_s[len(took_s) // 2] if took_s else 0.0
            p99 = 1000 * took_s[int(0.99 * (len(took_s) - 1))] if took_s else 0.0
            span = after[0] - before[0]
            machine = (after[3] - before[3]) / max(1, after[4] - before[4]) * cores
            lines.append(
                f"{int(before[0])},{len(took_s)},{p50:.0f},{p99:.0f},"
                f"{100 * (after[1] - before[1]) / span:.0f},"
                f"{100 * (after[2] - before[2]) / span:.0f},{100 * machine:.0f}"
            )
        path.write_text("\n".join(lines) + "\n")


def parse_arena(p: argparse.ArgumentParser, opts: argparse.Namespace) -> None:
    if opts.people < 3:
        p.error("--people needs at least 3")
    if not opts.redis and opts.workers > 1:
        p.error("several workers need Redis")


def arena_summary(figures: dict[str, Any]) -> list[str]:
    """The lines bench/live_figures.py prints for an arena run."""
    f = figures
    return [
        f"arena of {f['people']} people: {f['first_tables']} tables of the first pairing dealt "
        f"{f['dealt_all_s']} s after the start, committed (seen) at {f['dealt_seen_s']} s "
        f"(target <= 2 s); every first board at "
        f"{f['first_board_all_s']} s (p50 {f['first_board_p50_s']} s)",
        f"pairing CPU {f['pairing_cpu_ms_per_game']} ms a game (the first pairing: "
        f"{f['first_pairing_cpu_ms_per_game']}); the start as a whole (pairing, polls, table "
        f"pages, sockets, first boards): {f['start_cpu_ms_per_game']} ms of worker CPU a game",
        f"after every first board: {f['play_moves']} moves, worker CPU "
        f"{f['play_cpu_ms_per_move']} ms a move; {f['play_games']} games dealt, worker CPU "
        f"{f['play_cpu_ms_per_game']} ms a game (its moves included)",
        f"polls {f['polls']}",
        f"all seats p99 by 30 s from the start: {f['move_to_all_seats_p99_ms_by_30s']} ms",
        f"pairing: {f.get('pairing_faults')} faults; standings: {f.get('standings_wrong')} of "
        f"{f.get('standings_rows_checked')} people's rows wrong, as {f.get('standings_workers')}"
        " workers show them against the database",
        f"the clock played {f.get('clock_turns_for_people')} turns for people, "
        f"{f.get('clock_turns_before_board')} of them before that person's board had come",
    ]
