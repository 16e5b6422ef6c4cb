"""``python -m bench.overload``: one worker offered more than it can serve, and in what
order its work degrades (issue 52).

It makes a PostgreSQL database of its own, starts one Daphne worker
(``python -m tongits_site.serve``), seats ``--tables`` tables of three people who play over
their sockets as bench.live's people do (bench/live_clients.py, ``--think`` seconds a
move), makes an arena starting in a day, and then for ``--seconds`` offers the worker, at
random moments (Poisson arrivals, each at its own rate a second, whatever the worker's
answers), on top of the moves:

- **first board**: a seated person's socket opened again (a reload), until its first
  board (``--boards``);
- **table page**: a seated person's table page (``--table-pages``);
- **join**: Join posted by a person not yet entered, with the CSRF token of the
  tournament's page they loaded before the load began (``--joins``);
- **page**: the tournament's page, loaded by a watcher (``--pages``);
- **poll**: that page's live part, asked as htmx asks it (``X-Tongits-Poll``), with the
  version the page gave (``--polls``).

For each kind it prints how many were offered, answered, answered busy (503, a poll told
to come back later, a handshake refused) and failed (anything else, or no answer within
``--timeout``), and the answered ones' latency, median and 99th centile, from the
request sent to its last byte (a move: sent to the mover's new board). The last line is
one JSON object. The worker's bound (``TONGITS_HTTP_CONCURRENCY``) and the rest of its
settings are the site's, unless set in the environment.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import random
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from bench.live_arena import LIVE_URL
from bench.live_clients import Bench, Table
from bench.live_figures import ms, pct, say
from bench.live_pages import Browser
from bench.live_server import DEFAULT_REDIS, Workers, bench_site, server_url_from
from bench.live_site import make_game, make_people

KINDS = ("move", "first board", "table page", "join", "page", "poll")
BUSY = 503


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.overload", description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=20, help="tables playing (20)")
    p.add_argument("--think", type=float, default=1.0, help="a person's pause, s (1)")
    p.add_argument("--seconds", type=float, default=30.0, help="measured time (30)")
    p.add_argument("--boards", type=float, default=4.0, help="sockets opened a second (4)")
    p.add_argument("--table-pages", type=float, default=20.0, help="a second (20)")
    p.add_argument("--joins", type=float, default=8.0, help="a second (8)")
    p.add_argument("--pages", type=float, default=20.0, help="a second (20)")
    p.add_argument("--polls", type=float, default=60.0, help="a second (60)")
    p.add_argument("--timeout", type=float, default=30.0, help="a request's wait, s (30)")
    p.add_argument("--postgres", help="server to make the bench database on")
    p.add_argument("--redis", help=f"channel layer Redis ({DEFAULT_REDIS})")
    p.add_argument("--seed", type=int, default=1)
    opts = p.parse_args(argv)
    opts.redis = opts.redis or os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS)
    opts.postgres = opts.postgres or server_url_from(
        os.environ.get("BENCH_POSTGRES_URL") or os.environ.get("DATABASE_URL")
    )
    return opts


def make_arena() -> int:
    """A public arena starting in a day, nobody entered yet."""
    from datetime import timedelta

    from django.utils import timezone

    from games.tournaments.models import Tournament

    t = Tournament.objects.create(
        name="Overload arena", starts_at=timezone.now() + timedelta(days=1), minutes=60,
        rated=False, turn_seconds=60, bot_kind="normal", public=True,
    )  # fmt: skip
    return t.pk


class Overload(Bench):
    def __init__(self, opts: argparse.Namespace, workers: Workers) -> None:
        super().__init__(workers, think=opts.think, seed=opts.seed, open_timeout=opts.timeout,
                         herd=False)  # fmt: skip
        self.opts = opts
        self.by_table = True
        self.rng = random.Random(opts.seed)
        self.orm_thread = ThreadPoolExecutor(1)
        self.took: dict[str, list[float]] = defaultdict(list)
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self.statuses: dict[str, Counter] = defaultdict(Counter)
        self.tournament_id = 0
        self.joiners: list[Browser] = []
        self.watchers: list[tuple[Browser, str]] = []  # with their live part's address
        self.running: set[asyncio.Task] = set()  # the requests offered, not yet answered

    async def orm(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.orm_thread, fn, *args)

    async def new_game(self, table: Table) -> int | None:
        if self.stopping:
            return None
        return await self.orm(make_game, table.users, False)

    @property
    def port(self) -> int:
        return self.workers.items[0].port

    # --- Setting up ----------------------------------------------------------------------

    async def set_up(self) -> list[asyncio.Task]:
        opts = self.opts
        people = await self.orm(make_people, opts.tables * 3)
        for index in range(opts.tables):
            mine = people[index * 3 : (index + 1) * 3]
            table = Table(self, index, [u for u, _ in mine], [c for _, c in mine])
            table.game_id = await self.orm(make_game, table.users, False)
            self.tables.append(table)
        self.tournament_id = await self.orm(make_arena)
        page = f"/tournaments/{self.tournament_id}/"
        joiners = int(opts.joins * opts.seconds * 1.5) + 10
        watchers = 50
        others = await self.orm(make_people, joiners + watchers, "other")
        browsers = [Browser(cookie, 1000 + i) for i, (_u, cookie) in enumerate(others)]
        slots = asyncio.Semaphore(8)

        async def load(browser: Browser) -> tuple[int, str]:
            async with slots:
                status, _h, body = await browser.request(self.port, "GET", page)
            return status, body

        loaded = await asyncio.gather(*(load(b) for b in browsers))
        for browser, (status, body) in zip(browsers, loaded, strict=True):
            found = LIVE_URL.search(body)
            if status != 200 or not browser.csrf or found is None:
                raise RuntimeError(f"the tournament's page answered {status}")
        self.joiners = browsers[:joiners]
        self.watchers = [
            (b, html.unescape(LIVE_URL.search(body).group(1)))
            for b, (_s, body) in zip(browsers[joiners:], loaded[joiners:], strict=True)
        ]
        clients = [c for t in self.tables for c in t.clients]
        tasks = [asyncio.create_task(c.play()) for c in clients]
        deadline = time.monotonic() + 60
        while sum(self.stats.http.values()) < len(clients) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        self.gate.set()
        while not all(c.first_board_at for c in clients) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        say(f"{len(self.tables)} tables, {len(clients)} sockets playing, "
            f"{len(self.joiners)} people to join, {len(self.watchers)} watchers")  # fmt: skip
        return tasks

    # --- The load ------------------------------------------------------------------------

    def note(self, kind: str, sent: float, outcome: str, status: int | str = "") -> None:
        self.counts[kind][outcome] += 1
        self.statuses[kind][str(status)] += 1
        if outcome == "ok":
            self.took[kind].append(time.perf_counter() - sent)

    async def request(self, kind: str, browser: Browser, method: str, path: str,
                      ok: tuple[int, ...], **kw) -> None:  # fmt: skip
        sent = time.perf_counter()
        status, headers, _body = await browser.request(
            self.port, method, path, timeout=self.opts.timeout, **kw
        )
        if status in ok:
            self.note(kind, sent, "ok", status)
        elif status == BUSY and headers.get("retry-after"):
            self.note(kind, sent, "busy", status)
        else:
            self.note(kind, sent, "failed", status)

    async def table_page(self) -> None:
        table = self.rng.choice(self.tables)
        client = self.rng.choice(table.clients)
        browser = Browser(client.cookie, 500 + table.index * 3 + client.index)
        await self.request("table page", browser, "GET", f"/games/{table.game_id}/", (200,))

    async def join(self) -> None:
        if not self.joiners:
            self.note("join", time.perf_counter(), "failed", "nobody left")
            return
        browser = self.joiners.pop()
        form = f"csrfmiddlewaretoken={browser.csrf}&invite="
        path = f"/tournaments/{self.tournament_id}/join/"
        await self.request("join", browser, "POST", path, (302,), form=form)

    async def page(self) -> None:
        browser, _poll = self.rng.choice(self.watchers)
        await self.request("page", browser, "GET", f"/tournaments/{self.tournament_id}/", (200,))

    async def poll(self) -> None:
        browser, poll = self.rng.choice(self.watchers)
        headers = {"HX-Request": "true", "X-Tongits-Poll": "1"}
        await self.request("poll", browser, "GET", poll, (200, 204), headers=headers)

    async def first_board(self) -> None:
        table = self.rng.choice(self.tables)
        client = self.rng.choice(table.clients)
        sent = time.perf_counter()
        try:
            async with asyncio.timeout(self.opts.timeout):
                async with connect(
                    f"ws://127.0.0.1:{self.port}/ws/game/{table.game_id}/",
                    origin=f"http://127.0.0.1:{self.port}",
                    additional_headers={"Cookie": client.cookie}, max_size=None,
                ) as ws:  # fmt: skip
                    await ws.recv()
                    self.note("first board", sent, "ok", 101)
        except InvalidStatus as e:
            code = e.response.status_code
            self.note("first board", sent, "busy" if code == BUSY else "failed", code)
        except Exception as e:  # a timeout, a drop: what a person would see fail
            self.note("first board", sent, "failed", type(e).__name__)

    async def offer(self, kind: str, rate: float, make) -> None:
        """``make()`` at random moments, ``rate`` a second on average, each on its own."""
        if rate <= 0:
            return
        end = time.perf_counter() + self.opts.seconds
        while (now := time.perf_counter()) < end:
            task = asyncio.create_task(make())
            self.running.add(task)
            task.add_done_callback(self.running.discard)
            await asyncio.sleep(min(self.rng.expovariate(rate), end - now))

    async def run(self) -> dict[str, Any]:
        opts = self.opts
        tasks = await self.set_up()
        cpu0, at0 = self.workers.cpu_s(), time.perf_counter()
        load0 = os.getloadavg()
        self.stats.measuring = True
        answered0, games0 = self.stats.answered, self.stats.games_finished
        await asyncio.gather(
            self.offer("first board", opts.boards, self.first_board),
            self.offer("table page", opts.table_pages, self.table_page),
            self.offer("join", opts.joins, self.join),
            self.offer("page", opts.pages, self.page),
            self.offer("poll", opts.polls, self.poll),
        )
        # The moves are measured in the window; the requests still waiting, to their end.
        self.stats.measuring = False
        cpu1, at1 = self.workers.cpu_s(), time.perf_counter()
        s = self.stats
        moves, games = s.answered - answered0, s.games_finished - games0
        if self.running:
            await asyncio.wait(self.running)
        self.took["move"] = list(s.mover_s)
        self.counts["move"]["ok"] = len(s.mover_s)
        self.counts["move"]["failed"] = s.rejected + s.no_answer
        self.stopping = self.closing = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.orm_thread.shutdown(wait=False)
        kinds = {}
        for kind in KINDS:
            took = sorted(self.took[kind])
            c = self.counts[kind]
            kinds[kind] = {
                "offered": sum(c.values()), "answered": c["ok"], "busy": c["busy"],
                "failed": c["failed"], "p50_ms": ms(pct(took, 50)), "p99_ms": ms(pct(took, 99)),
                "statuses": dict(self.statuses[kind]) if kind != "move" else {},
            }  # fmt: skip
        return {
            "bench": "overload", "seconds": opts.seconds, "tables": opts.tables,
            "think_s": opts.think, "moves_answered": moves, "games_finished": games,
            "rates": {"first board": opts.boards, "table page": opts.table_pages,
                      "join": opts.joins, "page": opts.pages, "poll": opts.polls},
            "worker_cpu_share": round((cpu1 - cpu0) / (at1 - at0), 2),
            "loadavg_1m": [round(load0[0], 2), round(os.getloadavg()[0], 2)],
            "kinds": kinds, "server_log_errors": self.workers.log_problems()[:3],
        }  # fmt: skip


def print_figures(report: dict[str, Any]) -> None:
    say(f"{report['seconds']:.0f} s, {report['tables']} tables over sockets, worker CPU "
        f"{report['worker_cpu_share']} of a core, load {report['loadavg_1m']}")  # fmt: skip
    say(f"{'kind':12} {'offered':>8} {'answered':>8} {'busy':>6} {'failed':>6} "
        f"{'p50 ms':>9} {'p99 ms':>9}")  # fmt: skip
    for kind, k in report["kinds"].items():
        say(f"{kind:12} {k['offered']:8} {k['answered']:8} {k['busy']:6} {k['failed']:6} "
            f"{k['p50_ms'] or '-':>9} {k['p99_ms'] or '-':>9}")  # fmt: skip
    print(json.dumps(report), flush=True)


def main(argv: list[str] | None = None) -> int:
    opts = parse_args(argv)
    with bench_site("overload", opts.postgres, opts.redis) as site:
        site.env["TONGITS_TRUSTED_PROXIES"] = "1"  # each person from an address of their own
        site.setup_django()
        site.workers.start(1, site.env)
        say(f"database {site.database.name} migrated, a worker on port "
            f"{site.workers.items[0].port}")  # fmt: skip
        report = asyncio.run(Overload(opts, site.workers).run())
        print_figures(report)
        failed = sum(k["failed"] for k in report["kinds"].values())
        return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
