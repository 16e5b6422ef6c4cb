"""``python -m bench.arrival``: what a person arriving at an arena costs a worker, request
by request, in CPU time (not wall time: the machine may be shared).

It makes a PostgreSQL database of its own (``--postgres``, or the server of
``DATABASE_URL``), ``--people`` accounts and one rated arena starting in an hour, and in
this one process, through Django's own request handling (``django.test.Client``: the
site's middleware, gzip included, as a browser asks, with CSRF checked), has them arrive
as a browser does:

- **page**: the tournament's page, before joining;
- **join**: Join posted from it with the page's CSRF token, and **waiting table**, the
  page it sends them to (the arena's table with no game yet, games/tournaments/waiting.py),
  and **waiting socket**, that page's socket opened (channels' ``WebsocketCommunicator``
  on the site's ASGI application, in this process) and asked for the table's talk, as the
  page does;
- **poll, unchanged**: the tournament page's live part asked with the version it was
  given, nothing changed for its reader (a watcher: a person who joined waits at the
  table, whose socket replaces the polls);
- **poll, after others joined**: the same, after others have joined (what a watcher sees
  of a crowd arriving);
- then the arena starts and pairs them all (**pairing**, its CPU a table), and **table
  start**: every table's three waiting sockets told of their game and gone on to it,
  each to its person's first board (the process's CPU from the pairing's start until the
  last first board, less the pairing's own, a table); then **table page** (each seat's,
  as a page loaded at a game, the way without the socket) and **arena bar**, the line
  of the tournament the table's page asks for again every little while.

Each request's CPU is this thread's (``time.thread_time``), and the sockets' the
process's (``time.process_time``: their work runs on the database threads). It
prints, per kind, the median and the 90th centile in milliseconds and the queries of one
such request, and the last line is one JSON object. A worker adds Daphne's own share
(the HTTP parsing, the ASGI handler); ``python -m bench.live --arena`` measures the whole
from the outside. ``--profile KIND`` prints where that kind's time goes (cProfile).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import random
import re
import statistics
import sys
import time
from collections import Counter, defaultdict

from bench.live_server import bench_site, server_url_from

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
LIVE_URL = re.compile(r'id="tournament-live" hx-get="([^"]+)"')
KINDS = (
    "page",
    "join",
    "waiting table",
    "waiting socket",
    "poll, unchanged",
    "poll, after others joined",
    "pairing",
    "table start",
    "table page",
    "arena bar",
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.arrival", description=__doc__.split("\n")[0])
    p.add_argument("--people", type=int, default=150, help="people who arrive (150)")
    p.add_argument("--tables", type=int, default=10, help="tables whose pages are measured (10)")
    p.add_argument("--postgres", help="server to make the bench database on")
    p.add_argument("--profile", choices=KINDS, help="print cProfile's figures for this kind")
    opts = p.parse_args(argv)
    opts.postgres = opts.postgres or server_url_from(
        os.environ.get("BENCH_POSTGRES_URL") or os.environ.get("DATABASE_URL")
    )
    opts.tables = min(opts.tables, opts.people // 3)
    return opts


class Costs:
    """CPU milliseconds by kind of request, and one request's query count."""

    def __init__(self, profile: str | None) -> None:
        self.ms: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, Counter] = defaultdict(Counter)
        self.queries: dict[str, int] = {}
        self.profile_kind = profile
        self.profile = cProfile.Profile(time.process_time) if profile else None

    def measure(self, kind: str, call, clock=time.process_time, count: bool = False):
        """``count``: also count this request's queries (outside its time)."""
        profiling = self.profile is not None and kind == self.profile_kind
        if count:
            return self.count_queries(kind, lambda: self.measure(kind, call, clock))
        if profiling:
            self.profile.enable()
        start = clock()
        result = call()
        self.ms[kind].append((clock() - start) * 1000)
        if profiling:
            self.profile.disable()
        self.statuses[kind][getattr(result, "status_code", None)] += 1
        return result

    async def measure_async(self, kind: str, call):
        profiling = self.profile is not None and kind == self.profile_kind
        if profiling:
            self.profile.enable()
        start = time.process_time()
        result = await call()
        self.ms[kind].append((time.process_time() - start) * 1000)
        if profiling:
            self.profile.disable()
        return result

    def count_queries(self, kind: str, call):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            result = call()
        self.queries.setdefault(kind, len(captured.captured_queries))
        if os.environ.get("BENCH_SQL"):  # the statements of one such request
            print(kind, *(q["sql"][:200] for q in captured.captured_queries), sep="\n  ")
        return result

    def report(self) -> dict:
        out = {}
        for kind in KINDS:
            values = self.ms.get(kind)
            if not values:
                continue
            values = sorted(values)
            out[kind] = {
                "n": len(values),
                "p50_ms": round(statistics.median(values), 2),
                "p90_ms": round(values[int(0.9 * (len(values) - 1))], 2),
                "queries": self.queries.get(kind),
                "statuses": {str(k): v for k, v in self.statuses[kind].items() if k},
            }
        return out


def client_for(cookie: str, index: int):
    """A browser of its own, from an address of its own (a rated arena never seats
    together two accounts seen at one address)."""
    from django.test import Client

    name, value = cookie.split("=", 1)
    address = f"10.{index // 65536 % 256}.{index // 256 % 256}.{index % 256}"
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_ENCODING="gzip, br", REMOTE_ADDR=address)
    client.cookies[name] = value
    # One handler for every client, as a worker has: its middleware is loaded once (a new
    # Client loads it again, WhiteNoise's scan of the static files included).
    global _handler
    if _handler is None:
        _handler = client.handler
    client.handler = _handler
    return client


_handler = None


def htmx(client, url: str):
    return client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="tournament-live")


def text(response) -> str:
    import gzip

    body = response.content
    if response.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    return body.decode()


def arrive(opts: argparse.Namespace, costs: Costs) -> tuple[int, list]:
    from datetime import timedelta

    from django.utils import timezone

    from bench.live_site import make_people
    from games.tournaments import services
    from games.tournaments.models import Tournament
    from games.tournaments.standings import board, forget

    # Names as a crowd's are, in no order: each newcomer lands anywhere in the standings
    # (all at 0 points, by name), among the first rows one time in n/ROWS_SHOWN.
    rng = random.Random(1)
    letters = "abcdefghijklmnopqrstuvwxyz"
    people = [
        make_people(1, prefix="".join(rng.choices(letters, k=6)) + f"{i}_")[0]
        for i in range(opts.people)
    ]
    t = services.create(
        None, name="Arrival", starts_at=timezone.now() + timedelta(hours=1), minutes=60,
        variant="", rated=True, turn_seconds=30, bot_kind="normal", public=True,
    )  # fmt: skip
    page_url = f"/tournaments/{t.pk}/"
    clients = [client_for(cookie, i) for i, (_user, cookie) in enumerate(people)]
    watched: list[tuple[object, str]] = []
    for i, client in enumerate(clients):
        page = costs.measure("page", lambda c=client: c.get(page_url))
        if i == 5:
            costs.count_queries("page", lambda c=client: c.get(page_url))
        assert page.status_code == 200, page.status_code
        token = CSRF.search(text(page)).group(1)
        joined = costs.measure(
            "join",
            lambda c=client, tok=token: c.post(
                f"/tournaments/{t.pk}/join/", {"csrfmiddlewaretoken": tok, "invite": ""}
            ),
            count=i == 5,
        )
        assert joined.status_code == 302, joined.status_code
        table = costs.measure(
            "waiting table", lambda c=client, u=joined.url: c.get(u), count=i == 5
        )
        assert table.status_code == 200 and "/ws/arena/" in text(table), table.status_code
        # A watcher's poll (a person who joined waits at the table, whose socket replaces
        # the polls): the tournament's page, not measured, then its live part.
        back = client.get(page_url)
        live = LIVE_URL.search(text(back)).group(1).replace("&amp;", "&")
        for _ in range(3):  # the page's board may be a second old: its row comes in a poll
            first = htmx(client, live)
            if first.status_code != 200:
                break
            live = LIVE_URL.search(text(first)).group(1).replace("&amp;", "&")
        costs.measure("poll, unchanged", lambda c=client, u=live: htmx(c, u))
        if i == 5:
            costs.count_queries("poll, unchanged", lambda c=client, u=live: htmx(c, u))
        watched.append((client, live))
        # A panel of watchers, the first five in, polls after every fifth join from the 55th
        # on (a first rows' worth of people in), each with the version of the last part it
        # was sent, as htmx does.
        panel = range(5)
        if i >= 55 and i % 5 == 0:
            # The board of the last change, made once for all its watchers (not counted).
            forget(t.pk)
            board(Tournament.objects.get(pk=t.pk))
            for j in panel:
                earlier, url = watched[j]
                answer = costs.measure(
                    "poll, after others joined", lambda c=earlier, u=url: htmx(c, u)
                )
                if answer.status_code == 200:
                    watched[j] = (
                        earlier,
                        LIVE_URL.search(text(answer)).group(1).replace("&amp;", "&"),
                    )
    client, url = watched[len(watched) // 2]
    costs.count_queries("poll, after others joined", lambda: htmx(client, url))
    return t.pk, people


async def start_tables(tournament_id: int, people: list, opts, costs: Costs) -> None:
    """Everyone's waiting table's socket opened, then the start: the pairing, and every
    socket gone on to its person's first board."""
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.utils import timezone

    from games.models import Seat
    from games.tournaments import services
    from games.tournaments.models import Tournament
    from tongits_site.asgi import application

    sockets = []
    for _user_id, cookie in people:
        headers = [
            (b"cookie", cookie.encode()),
            (b"origin", b"http://localhost"),
            (b"host", b"localhost"),
        ]

        async def wait_at_table(h=headers):
            ws = WebsocketCommunicator(application, f"/ws/arena/{tournament_id}/", headers=h)
            connected, _ = await ws.connect(timeout=10)
            assert connected
            await ws.send_to(text_data=json.dumps({"chat_history": "1"}))
            assert "chat-log" in await ws.receive_from(timeout=10)
            return ws

        sockets.append(await costs.measure_async("waiting socket", wait_at_table))

    def pair() -> tuple[list, float]:
        now = timezone.now()
        Tournament.objects.filter(pk=tournament_id).update(starts_at=now, due_at=now)
        cpu = time.thread_time()
        games = services.pair(tournament_id)
        return games, time.thread_time() - cpu

    async def first_board(ws) -> None:
        while 'id="next-game"' not in await ws.receive_from(timeout=60):
            pass

    profiling = costs.profile is not None and costs.profile_kind == "table start"
    start = time.process_time()
    if profiling:  # the event loop's part (the sockets' database work is on threads)
        costs.profile.enable()
    games, pairing_s = await sync_to_async(pair)()
    assert len(games) == len(people) // 3, "not everyone was paired"
    await asyncio.gather(*(first_board(ws) for ws in sockets))
    if profiling:
        costs.profile.disable()
    total = time.process_time() - start
    costs.ms["pairing"].append(pairing_s * 1000 / len(games))
    costs.ms["table start"].append((total - pairing_s) * 1000 / len(games))
    costs.statuses["table start"][f"{len(games)} tables"] += 1

    # A table's page, as a person who loads it at their game has it (no socket, or a
    # reload): each seat's, at the first tables.
    by_user = {user_id: (i, cookie) for i, (user_id, cookie) in enumerate(people)}
    for game in games[: opts.tables]:
        seated = await sync_to_async(
            lambda g=game: list(
                Seat.objects.filter(game=g, user__isnull=False).values_list("user_id", flat=True)
            )
        )()
        for user_id in seated:
            index, cookie = by_user[user_id]
            client = client_for(cookie, index)
            page = await sync_to_async(
                lambda c=client, g=game: costs.measure(
                    "table page",
                    lambda: c.get(f"/games/{g.pk}/"),
                    count="table page" not in costs.queries,
                )
            )()
            assert page.status_code == 200, page.status_code
            # The table's arena bar (its name, clock, rank and points), as its htmx asks.
            bar = await sync_to_async(
                lambda c=client: costs.measure(
                    "arena bar",
                    lambda: c.get(
                        f"/tournaments/{tournament_id}/at-table/", HTTP_HX_REQUEST="true"
                    ),
                    count="arena bar" not in costs.queries,
                )
            )()
            assert bar.status_code == 200, bar.status_code
    for ws in sockets:
        await ws.disconnect()


def main(argv: list[str] | None = None) -> int:
    opts = parse_args(argv)
    with bench_site("arrival", opts.postgres, "") as site:
        site.env["DJANGO_ALLOWED_HOSTS"] = "testserver,localhost,127.0.0.1"
        site.env["TONGITS_CLOCK_IN_WORKERS"] = "0"
        site.setup_django()
        costs = Costs(opts.profile)
        tournament_id, people = arrive(opts, costs)
        asyncio.run(start_tables(tournament_id, people, opts, costs))
        report = costs.report()
        for kind, row in report.items():
            print(
                f"{kind:28} {row['p50_ms']:7.2f} ms CPU (p90 {row['p90_ms']:.2f}), "
                f"{row['queries'] if row['queries'] is not None else '-'} queries, n={row['n']}"
                f" {row['statuses']}"
            )
        if costs.profile is not None:
            pstats.Stats(costs.profile).sort_stats(
                os.environ.get("SORT", "cumulative")
            ).print_stats(os.environ.get("PATTERN", ""), int(os.environ.get("LINES", "45")))
        print(json.dumps({"people": opts.people, "tables": opts.tables, **report}))
        return 0


if __name__ == "__main__":
    sys.exit(main())
